package io.sluice.lab.verify.sinkpoison;

import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.Sha256;
import io.sluice.lab.verify.DlqTool;
import io.sluice.lab.verify.ScenarioFailure;
import io.sluice.lab.verify.poison.PoisonSections.RepairProducerMetadata;
import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.record.DlqRecords;
import io.sluice.tools.dlq.repair.IntendedRowPlanner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Repairs the intended row of a quarantined Avro record as an operator would: the DLQ envelope, its
 * original value replaced by the intended row's JSON, is written to a file and {@code sluice dlq
 * repair --from-file FILE --strategy json-intended-row} runs on it in this JVM (the strategy reads
 * JSON, and the tools have no Avro-to-Avro repair); then the ledger says where the repaired record
 * landed, and that record is read back.
 */
final class FileRepairStep {
  private final String bootstrapServers;
  private final String schemaRegistryUrl;
  private final String dlqTopic;

  FileRepairStep(String bootstrapServers, String schemaRegistryUrl, String dlqTopic) {
    this.bootstrapServers = bootstrapServers;
    this.schemaRegistryUrl = schemaRegistryUrl;
    this.dlqTopic = dlqTopic;
  }

  /** The envelope file's JSON: {@code quarantined} with {@code intendedPayload} as its value. */
  static String envelopeFile(DlqEnvelope quarantined, byte[] intendedPayload) {
    DlqEnvelope e = quarantined;
    return new DlqEnvelope(
            e.dlqSchemaVersion(),
            e.quarantinedAt(),
            e.originalTopic(),
            e.originalPartition(),
            e.originalOffset(),
            e.originalTimestampMs(),
            e.originalKeyBase64(),
            Base64.getEncoder().encodeToString(intendedPayload),
            e.errorType(),
            e.errorMessage(),
            e.errorCode(),
            e.schemaId(),
            e.keySchemaId(),
            e.originalHeaders(),
            Sha256.hex(intendedPayload),
            e.routerApplicationId(),
            e.sinkConnector(),
            e.sinkTask(),
            e.sinkTable())
        .toJson();
  }

  /** The command line the step runs, for the report. */
  List<String> arguments(Path file) {
    return List.of(
        "dlq",
        "repair",
        "--from-file",
        file.toString(),
        "--strategy",
        IntendedRowPlanner.STRATEGY,
        "--bootstrap-server",
        bootstrapServers,
        "--schema-registry-url",
        schemaRegistryUrl,
        "--dlq-topic",
        dlqTopic);
  }

  /** What the repair did: its ledger entry, the record read back (or null) and the command. */
  record Done(LedgerEntry entry, ConsumerRecord<byte[], byte[]> repaired, String command) {
    RepairProducerMetadata metadata(String ledgerTopic) {
      return new RepairProducerMetadata(
          entry.produced().topic(),
          entry.produced().partition(),
          entry.produced().offset(),
          repaired == null ? null : repaired.timestamp(),
          repaired == null || !WireFormat.hasHeader(repaired.value())
              ? null
              : WireFormat.schemaId(repaired.value()),
          entry.valueSha256(),
          entry.strategy(),
          ledgerTopic,
          entry.handledAt().toString(),
          command);
    }
  }

  /**
   * Repairs the envelope {@code json} from a temporary file; the tool's output lines (no payloads)
   * go to {@code progress}.
   *
   * @throws ScenarioFailure when the tool fails or the ledger has no entry for the envelope
   */
  Done repair(String json, Consumer<String> progress) {
    Path file;
    try {
      file = Files.createTempFile("sluice-sink-poison-", ".json");
      Files.writeString(file, json, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the envelope file", e);
    }
    try {
      List<String> args = arguments(file);
      DlqTool tool = new DlqTool(bootstrapServers, dlqTopic);
      tool.run(args, progress);
      LedgerEntry entry =
          tool.handled(DlqRecords.fromFile(json))
              .orElseThrow(
                  () ->
                      new ScenarioFailure(
                          "the repair from the envelope file succeeded but ledger "
                              + Ledger.topicFor(dlqTopic)
                              + " has no entry for it"));
      return new Done(entry, tool.readBack(entry), "sluice " + String.join(" ", args));
    } finally {
      try {
        Files.deleteIfExists(file);
      } catch (IOException e) {
        progress.accept("  could not delete " + file + ": " + e.getMessage());
      }
    }
  }
}
