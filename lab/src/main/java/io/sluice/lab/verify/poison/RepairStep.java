package io.sluice.lab.verify.poison;

import io.sluice.embedded.TopicReader;
import io.sluice.lab.verify.ScenarioFailure;
import io.sluice.lab.verify.poison.PoisonSections.RepairProducerMetadata;
import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.DlqCommand;
import io.sluice.tools.dlq.kafka.BrokerClients;
import io.sluice.tools.dlq.kafka.TopicScanner;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqRecords;
import io.sluice.tools.dlq.repair.IntendedRowPlanner;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import picocli.CommandLine;

/**
 * Repairs one DLQ record exactly as an operator would: {@code sluice dlq repair <offset>
 * --partition P --strategy json-intended-row}, run in this JVM, then reads the ledger to learn
 * where the repaired record landed, and reads that record back.
 */
final class RepairStep {
  private final String bootstrapServers;
  private final String schemaRegistryUrl;
  private final String dlqTopic;

  RepairStep(String bootstrapServers, String schemaRegistryUrl, String dlqTopic) {
    this.bootstrapServers = bootstrapServers;
    this.schemaRegistryUrl = schemaRegistryUrl;
    this.dlqTopic = dlqTopic;
  }

  /** The command line the step runs, for the report. */
  List<String> arguments(ConsumerRecord<byte[], byte[]> dlqRecord) {
    return List.of(
        "dlq",
        "repair",
        String.valueOf(dlqRecord.offset()),
        "--partition",
        String.valueOf(dlqRecord.partition()),
        "--strategy",
        IntendedRowPlanner.STRATEGY,
        "--bootstrap-server",
        bootstrapServers,
        "--schema-registry-url",
        schemaRegistryUrl,
        "--dlq-topic",
        dlqTopic);
  }

  /**
   * Repairs {@code dlqRecord}; the tool's output lines (no payloads) go to {@code progress}.
   *
   * @return the ledger entry of the repair
   * @throws ScenarioFailure when the tool fails or the ledger has no entry for the record
   */
  LedgerEntry repair(ConsumerRecord<byte[], byte[]> dlqRecord, Consumer<String> progress) {
    List<String> args = arguments(dlqRecord);
    StringWriter out = new StringWriter();
    CommandLine dlq = new CommandLine(new DlqCommand());
    dlq.setOut(new PrintWriter(out, true));
    dlq.setErr(new PrintWriter(out, true));
    int exit = dlq.execute(args.subList(1, args.size()).toArray(String[]::new));
    out.toString().lines().forEach(line -> progress.accept("  dlq: " + line));
    if (exit != 0) {
      throw new ScenarioFailure(
          "`sluice "
              + String.join(" ", args)
              + "` exited with "
              + exit
              + ": "
              + out.toString().strip());
    }
    try (TopicScanner scanner = new TopicScanner(new BrokerClients(bootstrapServers).consumer())) {
      Ledger ledger = Ledger.read(scanner, Ledger.topicFor(dlqTopic));
      return ledger
          .find(DlqRecords.entry(dlqRecord))
          .orElseThrow(
              () ->
                  new ScenarioFailure(
                      "the repair of DLQ record "
                          + dlqRecord.topic()
                          + "-"
                          + dlqRecord.partition()
                          + "@"
                          + dlqRecord.offset()
                          + " succeeded but ledger "
                          + Ledger.topicFor(dlqTopic)
                          + " has no entry for it"));
    }
  }

  /** The record the repair produced, read back from where the ledger says it landed (or null). */
  ConsumerRecord<byte[], byte[]> readBack(LedgerEntry done) {
    return TopicReader.readCommitted(bootstrapServers, done.produced().topic()).stream()
        .filter(
            r ->
                r.partition() == done.produced().partition()
                    && r.offset() == done.produced().offset())
        .findFirst()
        .orElse(null);
  }

  /**
   * The report's {@code repair_producer_metadata} of the repair of {@code dlqRecord}.
   *
   * @param repaired the repaired record as read back, or null
   */
  RepairProducerMetadata metadata(
      ConsumerRecord<byte[], byte[]> dlqRecord,
      LedgerEntry done,
      ConsumerRecord<byte[], byte[]> repaired) {
    return new RepairProducerMetadata(
        done.produced().topic(),
        done.produced().partition(),
        done.produced().offset(),
        repaired == null ? null : repaired.timestamp(),
        repaired == null || !WireFormat.hasHeader(repaired.value())
            ? null
            : WireFormat.schemaId(repaired.value()),
        done.valueSha256(),
        done.strategy(),
        Ledger.topicFor(dlqTopic),
        done.handledAt().toString(),
        "sluice " + String.join(" ", arguments(dlqRecord)));
  }
}
