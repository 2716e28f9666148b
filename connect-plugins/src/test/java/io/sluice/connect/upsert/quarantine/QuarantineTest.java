package io.sluice.connect.upsert.quarantine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.connect.upsert.error.RecordRejectedException;
import io.sluice.connect.upsert.error.SinkErrorCode;
import io.sluice.connect.upsert.metrics.SinkMeters;
import io.sluice.connect.upsert.metrics.SinkMetrics;
import io.sluice.connect.upsert.table.TableNames;
import io.sluice.contract.TopicNames;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.DlqHeaders;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.errors.ConnectException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The quarantine against mock Kafka clients: envelope and headers, dedupe, DLQ offsets. */
class QuarantineTest {
  private static final String INPUT = "broker.cdc_lab.orders.clean";
  private static final String DLQ = "broker.cdc_lab.orders.dlq";
  private static final TopicPartition P0 = new TopicPartition(INPUT, 0);
  private static final TopicPartition D0 = new TopicPartition(DLQ, 0);
  private static final byte[] VALUE = {0, 0, 0, 0, 7, 2, 4};
  private static final byte[] KEY = {0, 0, 0, 0, 3, 2};

  private final MockProducer<byte[], byte[]> producer =
      new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
  private final MockConsumer<byte[], byte[]> consumer = new MockConsumer<>("earliest");
  private Quarantine quarantine;

  @BeforeEach
  void start() {
    Node node = new Node(0, "localhost", 9092);
    consumer.updatePartitions(
        DLQ, List.of(new PartitionInfo(DLQ, 0, node, new Node[] {node}, new Node[] {node})));
    consumer.updateBeginningOffsets(Map.of(D0, 0L, P0, 0L));
    quarantine =
        new Quarantine(
            new Quarantine.Settings(
                "orders-upsert",
                2,
                "io.example.Task",
                new DlqTopics(null, TopicNames.DEFAULTS),
                topic -> "cdc_lab.orders_current",
                Map.of(),
                Duration.ofSeconds(5),
                Quarantine.FlushListener.NONE),
            new QuarantineClients() {
              @Override
              public Producer<byte[], byte[]> producer(Map<String, Object> config) {
                assertThat(config).containsEntry("acks", "all");
                assertThat(config).containsEntry("enable.idempotence", true);
                return producer;
              }

              @Override
              public Consumer<byte[], byte[]> consumer(Map<String, Object> config) {
                assertThat(config).containsEntry("isolation.level", "read_committed");
                return consumer;
              }
            },
            new SinkMetrics(
                SinkMeters.disabled(),
                "orders-upsert",
                new TableNames(Pattern.compile("^(?<topic>.*)$"), "db.{topic}")),
            Clock.fixed(Instant.parse("2026-12-01T10:00:00Z"), ZoneOffset.UTC));
  }

  @Test
  void rejectedRecordGoesToItsDlqWithTheOriginalBytesAndConnectHeaders() {
    openWithDlq(List.of());
    inputAt(6);
    quarantine.reject(INPUT, 0, 6, decimal());

    Map<String, String> summary = quarantine.beforeCommit();
    assertThat(producer.history()).hasSize(1);
    ProducerRecord<byte[], byte[]> sent = producer.history().get(0);
    assertThat(sent.topic()).isEqualTo(DLQ);
    assertThat(sent.key()).isEqualTo(KEY);
    DlqEnvelope envelope = DlqEnvelope.fromJson(sent.value());
    assertThat(envelope.originalValue()).isEqualTo(VALUE);
    assertThat(envelope.originalOffset()).isEqualTo(6);
    assertThat(envelope.errorCode()).isEqualTo("SINK_DECIMAL_OUT_OF_RANGE");
    assertThat(envelope.schemaId()).isEqualTo(7);
    assertThat(envelope.keySchemaId()).isEqualTo(3);
    assertThat(envelope.errorMessage())
        .isEqualTo(
            "column amount is decimal(10, 2): a value of precision 12 does not fit (topic "
                + INPUT
                + " partition 0 offset 6, schema id 7)");
    assertThat(envelope.sinkConnector()).isEqualTo("orders-upsert");
    assertThat(envelope.sinkTask()).isEqualTo(2);
    assertThat(envelope.sinkTable()).isEqualTo("cdc_lab.orders_current");
    assertThat(header(sent, DlqHeaders.CONNECT_OFFSET)).isEqualTo("6");
    assertThat(header(sent, DlqHeaders.CONNECT_TASK_ID)).isEqualTo("2");
    assertThat(header(sent, "trace")).isEqualTo("t-1");
    assertThat(producer.completeNext()).as("flushed before the commit").isFalse();
    // MockProducer acknowledges offset 0 of the DLQ partition.
    assertThat(summary).containsEntry(DlqOffsets.key("orders-upsert"), "{\"" + DLQ + "-0\":0}");
  }

  @Test
  void inputsAlreadyInTheDlqAreNotWrittenAgain() {
    openWithDlq(List.of(dlqRecord(0, 5), dlqRecord(1, 9)));
    quarantine.reject(INPUT, 0, 5, decimal());
    quarantine.reject(INPUT, 0, 9, decimal());
    assertThat(quarantine.beforeCommit())
        .containsEntry(DlqOffsets.key("orders-upsert"), "{\"" + DLQ + "-0\":0}");
    assertThat(producer.history()).isEmpty();

    // Once Iceberg holds offset 6 the DLQ record of offset 5 is no longer the lower bound.
    quarantine.committed(Map.of(P0, 6L));
    assertThat(quarantine.beforeCommit())
        .containsEntry(DlqOffsets.key("orders-upsert"), "{\"" + DLQ + "-0\":1}");
  }

  @Test
  void aRecordRejectedTwiceInOneRunIsWrittenOnce() {
    openWithDlq(List.of());
    inputAt(6);
    quarantine.reject(INPUT, 0, 6, decimal());
    quarantine.reject(INPUT, 0, 6, decimal());
    quarantine.beforeCommit();
    quarantine.reject(INPUT, 0, 6, decimal());
    quarantine.beforeCommit();
    assertThat(producer.history()).hasSize(1);
  }

  @Test
  void aFailedDlqWriteStopsTheCommitAndIsSentAgain() {
    openWithDlq(List.of());
    inputAt(6);
    quarantine.reject(INPUT, 0, 6, decimal());
    producer.errorNext(new RuntimeException("broker down"));
    assertThatThrownBy(quarantine::beforeCommit)
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("could not write the DLQ records of [topic " + INPUT);
    quarantine.beforeCommit();
    assertThat(producer.history()).hasSize(2);
  }

  private void openWithDlq(List<ConsumerRecord<byte[], byte[]>> records) {
    consumer.updateEndOffsets(Map.of(D0, (long) records.size()));
    consumer.schedulePollTask(() -> records.forEach(consumer::addRecord));
    quarantine.open(List.of(P0), Map.of(), Optional.empty());
  }

  /** The input record at {@code offset}, served when the quarantine reads it back. */
  private void inputAt(long offset) {
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", "t-1".getBytes(StandardCharsets.UTF_8));
    consumer.schedulePollTask(
        () ->
            consumer.addRecord(
                new ConsumerRecord<>(
                    INPUT,
                    0,
                    offset,
                    1_000L,
                    TimestampType.CREATE_TIME,
                    KEY.length,
                    VALUE.length,
                    KEY,
                    VALUE,
                    headers,
                    Optional.empty())));
  }

  private static ConsumerRecord<byte[], byte[]> dlqRecord(long dlqOffset, long inputOffset) {
    RecordHeaders headers = new RecordHeaders();
    headers.add(DlqHeaders.CONNECT_CONNECTOR_NAME, bytes("orders-upsert"));
    headers.add(DlqHeaders.CONNECT_TOPIC, bytes(INPUT));
    headers.add(DlqHeaders.CONNECT_PARTITION, bytes("0"));
    headers.add(DlqHeaders.CONNECT_OFFSET, bytes(String.valueOf(inputOffset)));
    return new ConsumerRecord<>(
        DLQ,
        0,
        dlqOffset,
        1_000L,
        TimestampType.CREATE_TIME,
        0,
        0,
        KEY,
        VALUE,
        headers,
        Optional.empty());
  }

  private static RecordRejectedException decimal() {
    return new RecordRejectedException(
        SinkErrorCode.SINK_DECIMAL_OUT_OF_RANGE,
        "amount",
        "decimal(10, 2)",
        "column amount is decimal(10, 2): a value of precision 12 does not fit");
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static String header(ProducerRecord<byte[], byte[]> record, String key) {
    return new String(record.headers().lastHeader(key).value(), StandardCharsets.UTF_8);
  }
}
