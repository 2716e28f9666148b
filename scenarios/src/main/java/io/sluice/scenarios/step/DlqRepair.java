package io.sluice.scenarios.step;

import io.sluice.scenarios.DlqTool;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.step.Sections.RepairProducerMetadata;
import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqRecords;
import io.sluice.tools.dlq.repair.IntendedRowPlanner;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Repairs one DLQ record exactly as an operator would: {@code sluice dlq repair <offset>
 * --partition P --strategy S}, run in this JVM, then reads the ledger to learn where the repaired
 * record landed, and reads that record back.
 */
public final class DlqRepair {
  private final String bootstrapServers;
  private final String schemaRegistryUrl;
  private final String dlqTopic;
  private final String strategy;

  /**
   * @param strategy the repair strategy, e.g. {@link IntendedRowPlanner#STRATEGY}
   */
  public DlqRepair(
      String bootstrapServers, String schemaRegistryUrl, String dlqTopic, String strategy) {
    this.bootstrapServers = bootstrapServers;
    this.schemaRegistryUrl = schemaRegistryUrl;
    this.dlqTopic = dlqTopic;
    this.strategy = strategy;
  }

  /** The command line the repair runs, for the report. */
  public List<String> arguments(ConsumerRecord<byte[], byte[]> dlqRecord) {
    return List.of(
        "dlq",
        "repair",
        String.valueOf(dlqRecord.offset()),
        "--partition",
        String.valueOf(dlqRecord.partition()),
        "--strategy",
        strategy,
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
  public LedgerEntry repair(ConsumerRecord<byte[], byte[]> dlqRecord, Consumer<String> progress) {
    DlqTool tool = new DlqTool(bootstrapServers, dlqTopic);
    tool.run(arguments(dlqRecord), progress);
    return tool.handled(DlqRecords.entry(dlqRecord))
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

  /** The record the repair produced, read back from where the ledger says it landed (or null). */
  public ConsumerRecord<byte[], byte[]> readBack(LedgerEntry done) {
    return new DlqTool(bootstrapServers, dlqTopic).readBack(done);
  }

  /**
   * The report's {@code repair_producer_metadata} of the repair of {@code dlqRecord}.
   *
   * @param repaired the repaired record as read back, or null
   */
  public RepairProducerMetadata metadata(
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
