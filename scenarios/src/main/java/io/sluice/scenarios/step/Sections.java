package io.sluice.scenarios.step;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.dlq.Sha256;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.stack.workload.OrderRow;
import io.sluice.tools.dlq.ledger.Ledger;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;

/**
 * The parts of the report's scenario sections that several scenarios write alike: the first keys of
 * {@code scenario}, the topics, an injected record, a DLQ record and its quarantine, a repaired
 * record. A scenario's own sections are in its package.
 */
public final class Sections {
  private static final ObjectMapper JSON = new ObjectMapper();

  private Sections() {}

  /**
   * The keys every scenario's {@code scenario} section starts with: the run's seed and baseline,
   * and the names of the stack it ran on. A section writes them unwrapped, as its own first keys.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record ScenarioKeys(
      int seed,
      String consumerGroup,
      Topics topics,
      long baselineEvents,
      String sourceTable,
      List<String> icebergTables) {

    /** The keys of {@code run} on the stack's names. */
    public static ScenarioKeys of(RunSettings run, Topics topics) {
      return new ScenarioKeys(
          run.seed(),
          ScenarioStack.ROUTER_GROUP,
          topics,
          run.baselineRows(),
          ScenarioStack.SOURCE_TABLE,
          ScenarioStack.ICEBERG_TABLES);
    }
  }

  /**
   * {@code scenario.topics}: the stack's topics.
   *
   * @param repairLedger the ledger of the DLQ repairs; left out of the report when null (a scenario
   *     that repairs nothing)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record Topics(
      String main,
      String clean,
      String dlq,
      @JsonInclude(JsonInclude.Include.NON_NULL) String repairLedger) {

    /** The stack's topics, with the ledger of the repairs of its DLQ. */
    public static Topics withRepairLedger() {
      String dlq = ScenarioStack.DLQ_TOPIC;
      return new Topics(
          ScenarioStack.MAIN_TOPIC, ScenarioStack.CLEAN_TOPIC, dlq, Ledger.topicFor(dlq));
    }

    /** The stack's topics, without a repair ledger. */
    public static Topics withoutRepairLedger() {
      return new Topics(
          ScenarioStack.MAIN_TOPIC, ScenarioStack.CLEAN_TOPIC, ScenarioStack.DLQ_TOPIC, null);
    }
  }

  /**
   * The keys of {@code fault} that describe the one record a scenario injected: where it landed,
   * capture's status meanwhile, of its payload and key only the sha256 (and size), and the row it
   * was meant to write. A section writes them unwrapped, among its own keys.
   *
   * @param producerMetadata where the record landed on the main topic
   * @param keySchemaId id of the registered {@code <topic>-key} schema its key is encoded with
   * @param intendedOrderId the order id of the row the record was meant to write
   * @param intendedEventId that row's event id
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record InjectedRecord(
      ProducerMetadata producerMetadata,
      JsonNode connectorStatusDuringInjection,
      String payloadSha256,
      int payloadSizeBytes,
      String keySha256,
      int keySchemaId,
      long intendedOrderId,
      long intendedEventId) {

    /**
     * The record of {@code key} and {@code value} that landed {@code at}, meant to write {@code
     * intended}.
     */
    public static InjectedRecord of(
        ProducerMetadata at,
        JsonNode captureStatus,
        byte[] key,
        byte[] value,
        int keySchemaId,
        OrderRow intended) {
      return new InjectedRecord(
          at,
          captureStatus,
          Sha256.hex(value),
          value.length,
          Sha256.hex(key),
          keySchemaId,
          intended.orderId(),
          intended.eventId());
    }
  }

  /**
   * {@code quarantine}: a DLQ record (base64, as the contract says), every field of its envelope,
   * and whether it was repaired; poison-dlq's section, also the first DLQ record's of a process
   * fault class.
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
      implements Quarantine.Section {

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

    @Override
    public QuarantineSection repaired() {
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
