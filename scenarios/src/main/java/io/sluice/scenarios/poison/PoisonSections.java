package io.sluice.scenarios.poison;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ReportSection;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The report sections whose shape is the poison-dlq scenario's own: {@code scenario}, {@code
 * fault}, {@code quarantine} and {@code recovery}.
 */
public final class PoisonSections {
  private static final ObjectMapper JSON = new ObjectMapper();

  private PoisonSections() {}

  /** {@code scenario}: what the run was asked to do, and the rows it adds after the baseline. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ScenarioSection(
      int seed,
      String consumerGroup,
      Topics topics,
      long baselineEvents,
      String sourceTable,
      List<String> icebergTables,
      long intendedOrderId,
      long postResumeOrderId,
      boolean repairSkipped)
      implements ReportSection {}

  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Topics(String main, String clean, String dlq, String repairLedger) {}

  /**
   * {@code fault}: the poison record, where it landed and capture's status meanwhile; of its
   * payload only the sha256 and size.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record FaultSection(
      String mechanism,
      ProducerMetadata producerMetadata,
      JsonNode connectorStatusDuringInjection,
      String payloadSha256,
      int payloadSizeBytes,
      String keySha256,
      int keySchemaId,
      long intendedOrderId,
      long intendedEventId)
      implements ReportSection {
    public static final String MECHANISM =
        "non-Avro payload: the intended row as JSON {\"intended_after\": {...},"
            + " \"intended_operation\": \"c\"} produced to the main topic, keyed by the Avro"
            + " primary key (registered <topic>-key schema), while capture was paused";
  }

  /**
   * {@code quarantine}: the DLQ record of the poison (base64, as the contract says), every field of
   * its envelope, and whether it was repaired.
   *
   * @param errorMetadata every field of the DLQ envelope, the payload only base64-encoded ({@code
   *     original_key_base64}, {@code original_value_base64}) unless redacted, with the record's
   *     headers as {@code dlq_headers}
   * @param state "quarantined", or "repaired" once the repair replayed it
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record QuarantineSection(
      DlqKafkaRecord dlqKafkaRecord,
      JsonNode errorMetadata,
      String state,
      String routerHealthAfterPoison,
      long routerThreadReplacements)
      implements ReportSection {

    /**
     * The section of {@code dlqRecord}, state "quarantined".
     *
     * @param redactPayloads drop the original key and value: from {@code error_metadata} (then
     *     {@code payloads_redacted} is true), and from {@code dlq_kafka_record}, whose {@code
     *     key_base64} is null and {@code value_base64} the redacted envelope
     * @throws ScenarioFailure when the record's value is not a JSON object
     */
    public static QuarantineSection of(
        ConsumerRecord<byte[], byte[]> dlqRecord,
        String routerHealth,
        long threadReplacements,
        boolean redactPayloads) {
      ObjectNode metadata = envelope(dlqRecord);
      DlqKafkaRecord kafkaRecord = DlqKafkaRecord.of(dlqRecord);
      if (redactPayloads) {
        metadata.remove("original_key_base64");
        metadata.remove("original_value_base64");
        metadata.put("payloads_redacted", true);
        kafkaRecord = kafkaRecord.redacted(metadata);
      }
      ObjectNode headers = metadata.putObject("dlq_headers");
      for (Header h : dlqRecord.headers()) {
        headers.put(
            h.key(), h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8));
      }
      return new QuarantineSection(
          kafkaRecord, metadata, "quarantined", routerHealth, threadReplacements);
    }

    QuarantineSection repaired() {
      return new QuarantineSection(
          dlqKafkaRecord,
          errorMetadata,
          "repaired",
          routerHealthAfterPoison,
          routerThreadReplacements);
    }

    private static ObjectNode envelope(ConsumerRecord<byte[], byte[]> dlqRecord) {
      try {
        return (ObjectNode) JSON.readTree(dlqRecord.value());
      } catch (IOException | ClassCastException e) {
        throw new ScenarioFailure("the DLQ record's value is not a JSON object", e);
      }
    }
  }

  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record DlqKafkaRecord(
      String topic,
      int partition,
      long offset,
      long timestampMs,
      String keyBase64,
      String valueBase64) {
    static DlqKafkaRecord of(ConsumerRecord<byte[], byte[]> r) {
      return new DlqKafkaRecord(
          r.topic(),
          r.partition(),
          r.offset(),
          r.timestamp(),
          r.key() == null ? null : Base64.getEncoder().encodeToString(r.key()),
          Base64.getEncoder().encodeToString(r.value()));
    }

    /** This record without its key and with {@code envelope} (redacted) as its value. */
    DlqKafkaRecord redacted(JsonNode envelope) {
      return new DlqKafkaRecord(
          topic,
          partition,
          offset,
          timestampMs,
          null,
          Base64.getEncoder().encodeToString(envelope.toString().getBytes(StandardCharsets.UTF_8)));
    }
  }

  /**
   * {@code recovery}: how the DLQ record was dealt with, the reconciliation while capture was still
   * paused, and capture's status once resumed.
   *
   * @param repairProducerMetadata null when the repair was skipped
   * @param reconciliationBeforeConnectorResume null when no reconciliation answered
   * @param connectorStatusAfterResume absent from the report until capture was resumed (as v1
   *     writes it)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record RecoverySection(
      String mode,
      RepairProducerMetadata repairProducerMetadata,
      ReconciliationReport reconciliationBeforeConnectorResume,
      String captureStateAtReconciliation,
      @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode connectorStatusAfterResume)
      implements ReportSection {

    RecoverySection resumed(JsonNode connectorStatus) {
      return new RecoverySection(
          mode,
          repairProducerMetadata,
          reconciliationBeforeConnectorResume,
          captureStateAtReconciliation,
          connectorStatus);
    }
  }

  /**
   * Where the repaired record landed, from the repair ledger, and the command that repaired it.
   *
   * @param timestampMs null when the repaired record could not be read back
   * @param valueSchemaId null when it could not be read back or is not in the wire format
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record RepairProducerMetadata(
      String topic,
      int partition,
      long offset,
      Long timestampMs,
      Integer valueSchemaId,
      String valueSha256,
      String strategy,
      String ledgerTopic,
      String handledAt,
      String command) {}
}
