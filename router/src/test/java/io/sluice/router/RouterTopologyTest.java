package io.sluice.router;

import static io.sluice.router.testing.Orders.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.DlqHeaders;
import io.sluice.dlq.Sha256;
import io.sluice.router.config.RouterConfig;
import io.sluice.router.metrics.RouterMetrics;
import io.sluice.router.retry.RegistryRetryTimeoutException;
import io.sluice.router.testing.FakeRetryClock;
import io.sluice.router.testing.Orders;
import io.sluice.router.topics.OutputTopics;
import io.sluice.router.validate.ErrorCode;
import io.sluice.router.validate.RecordValidator;
import io.sluice.router.validate.ValidationRules;
import io.sluice.schema.testing.InMemorySchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The topology of {@link RouterTopology#build}, driven record by record. */
class RouterTopologyTest {
  private static final Instant NOW = Instant.parse("2026-11-29T12:00:00.123456789Z");
  private static final long TIMESTAMP = 1_764_000_000_000L;

  private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
  private final int valueId = registry.register(TOPIC + "-value", Orders.ENVELOPE);
  private final int keyId = registry.register(TOPIC + "-key", Orders.KEY);
  private final FakeRetryClock retryClock = new FakeRetryClock();
  private final RouterMetrics metrics = RouterMetrics.inMemory();
  private final List<String> ensured = new ArrayList<>();
  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> input;
  private TestOutputTopic<byte[], byte[]> clean;
  private TestOutputTopic<byte[], byte[]> dlq;

  private void start(Map<String, Object> overrides) {
    Map<String, Object> props = new HashMap<>();
    props.put(RouterConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    props.put(RouterConfig.SCHEMA_REGISTRY_URL_CONFIG, "http://unused:8081");
    props.putAll(overrides);
    RouterConfig config = new RouterConfig(props);
    StreamsBuilder builder = new StreamsBuilder();
    RouterTopology.build(
        builder,
        config,
        new RecordValidator(registry, ValidationRules.from(config)),
        topic -> {
          ensured.add(topic);
          return OutputTopics.Partitions.SAME_AS_INPUT;
        },
        metrics,
        retryClock,
        Clock.fixed(NOW, ZoneOffset.UTC));
    driver = new TopologyTestDriver(builder.build(), RouterTopology.streamsConfig(config));
    input = inputTopic(TOPIC);
    clean = outputTopic(TOPIC + ".clean");
    dlq = outputTopic(TOPIC + ".dlq");
  }

  private void start() {
    start(Map.of());
  }

  private TestInputTopic<byte[], byte[]> inputTopic(String topic) {
    return driver.createInputTopic(topic, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private TestOutputTopic<byte[], byte[]> outputTopic(String topic) {
    return driver.createOutputTopic(
        topic, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  @AfterEach
  void close() {
    if (driver != null) {
      driver.close();
    }
  }

  private byte[] key(int id) {
    return Orders.wire(keyId, Orders.key(id));
  }

  private byte[] value(GenericRecord envelope) {
    return Orders.wire(valueId, envelope);
  }

  private static Headers headers() {
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", "abc".getBytes(StandardCharsets.UTF_8));
    headers.add("empty", null);
    return headers;
  }

  private void pipe(byte[] key, byte[] value) {
    input.pipeInput(new TestRecord<>(key, value, headers(), TIMESTAMP));
  }

  private static String header(TestRecord<byte[], byte[]> record, String name) {
    Header header = record.headers().lastHeader(name);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }

  private double counter(String name, String... tags) {
    MeterRegistry meters = metrics.registry();
    var counter = meters.find(name).tags(tags).counter();
    return counter == null ? 0 : counter.count();
  }

  @Test
  void validRecordGoesToCleanWithTheSameKeyValueHeadersAndTimestamp() {
    start();
    byte[] key = key(1);
    byte[] value = value(Orders.create(1));
    pipe(key, value);

    TestRecord<byte[], byte[]> out = clean.readRecord();
    assertThat(out.key()).isEqualTo(key);
    assertThat(out.value()).isEqualTo(value);
    assertThat(out.headers().toArray()).containsExactly(headers().toArray());
    assertThat(out.timestamp()).isEqualTo(TIMESTAMP);
    assertThat(clean.isEmpty()).isTrue();
    assertThat(dlq.isEmpty()).isTrue();
    assertThat(ensured).containsExactly(TOPIC);
    assertThat(counter(RouterMetrics.VALIDATED, "topic", TOPIC, "result", "valid")).isEqualTo(1);
  }

  @ParameterizedTest
  @EnumSource(ErrorCode.class)
  void everyErrorCodeGoesToTheDlqOnceWithTheOriginalBytes(ErrorCode code) {
    start();
    byte[][] record = poisonFor(code);
    pipe(record[0], record[1]);

    assertThat(clean.isEmpty()).isTrue();
    TestRecord<byte[], byte[]> out = dlq.readRecord();
    assertThat(dlq.isEmpty()).isTrue();
    assertThat(header(out, DlqHeaders.ERROR_CODE)).isEqualTo(code.name());
    assertThat(out.key()).isEqualTo(record[0]);
    DlqEnvelope envelope = DlqEnvelope.fromJson(out.value());
    assertThat(envelope.errorCode()).isEqualTo(code.name());
    assertThat(envelope.errorType()).isEqualTo(code.errorType());
    assertThat(envelope.originalValue()).isEqualTo(record[1]);
    assertThat(envelope.originalKey()).isEqualTo(record[0]);
    assertThat(counter(RouterMetrics.QUARANTINED, "topic", TOPIC, "error_code", code.name()))
        .isEqualTo(1);
  }

  /** A (key, value) pair that fails exactly at {@code code}'s stage. */
  private byte[][] poisonFor(ErrorCode code) {
    byte[] validValue = value(Orders.create(1));
    byte[] validKey = key(1);
    int otherSubjectId =
        registry.register(
            "broker.cdc_lab.customers-value", Orders.ENVELOPE.getField("source").schema());
    return switch (code) {
      case NOT_AVRO_WIRE_FORMAT -> pair(validKey, "{\"id\":1}".getBytes(StandardCharsets.UTF_8));
      case UNKNOWN_SCHEMA_ID -> pair(validKey, Orders.wire(4242, Orders.create(1)));
      case SCHEMA_NOT_IN_SUBJECT -> pair(validKey, Orders.wire(otherSubjectId, Orders.create(1)));
      case AVRO_DECODE_FAILED -> pair(validKey, Arrays.copyOf(validValue, validValue.length - 4));
      case TRAILING_BYTES -> pair(validKey, Arrays.copyOf(validValue, validValue.length + 2));
      case KEY_NOT_AVRO_WIRE_FORMAT -> pair("1".getBytes(StandardCharsets.UTF_8), validValue);
      case KEY_UNKNOWN_SCHEMA_ID -> pair(Orders.wire(4343, Orders.key(1)), validValue);
      case SCHEMA_INCOMPATIBLE ->
          pair(
              validKey,
              Orders.wire(
                  registry.register(
                      TOPIC + "-value",
                      Orders.retyped(Orders.ENVELOPE, "amount_cents", "\"long\"", "\"string\"")),
                  Orders.create(1)));
      case KEY_SCHEMA_NOT_IN_SUBJECT -> pair(Orders.wire(valueId, Orders.key(1)), validValue);
      case KEY_SCHEMA_INCOMPATIBLE ->
          pair(
              Orders.wire(
                  registry.register(
                      TOPIC + "-key", Orders.retyped(Orders.KEY, "id", "\"int\"", "\"string\"")),
                  Orders.key(1)),
              validValue);
      case KEY_AVRO_DECODE_FAILED -> pair(Arrays.copyOf(validKey, 5), validValue);
      case KEY_TRAILING_BYTES -> pair(Arrays.copyOf(validKey, validKey.length + 1), validValue);
      case KEY_FIELDS_MISMATCH -> pair(key(2), validValue);
      case CONTRACT_VIOLATION -> pair(validKey, value(Orders.envelope("c", null, null)));
    };
  }

  private static byte[][] pair(byte[] key, byte[] value) {
    return new byte[][] {key, value};
  }

  @Test
  void dlqRecordCarriesEnvelopeV1AndTheErrorHeaders() {
    start(Map.of(RouterConfig.APPLICATION_ID_CONFIG, "router-under-test"));
    pipe(key(1), value(Orders.create(1))); // offset 0
    byte[] json = "{\"id\":2,\"status\":\"NEW\"}".getBytes(StandardCharsets.UTF_8);
    pipe(key(2), json); // offset 1

    TestRecord<byte[], byte[]> out = dlq.readRecord();
    DlqEnvelope envelope = DlqEnvelope.fromJson(out.value());
    assertThat(envelope.dlqSchemaVersion()).isEqualTo(1);
    assertThat(envelope.quarantinedAt()).isEqualTo(Instant.parse("2026-11-29T12:00:00.123456Z"));
    assertThat(new String(out.value(), StandardCharsets.UTF_8))
        .contains("\"quarantined_at\":\"2026-11-29T12:00:00.123456Z\"");
    assertThat(envelope.originalTopic()).isEqualTo(TOPIC);
    assertThat(envelope.originalPartition()).isZero();
    assertThat(envelope.originalOffset()).isEqualTo(1);
    assertThat(envelope.originalTimestampMs()).isEqualTo(TIMESTAMP);
    assertThat(envelope.originalKeyBase64()).isEqualTo(Base64.getEncoder().encodeToString(key(2)));
    assertThat(envelope.originalValue()).isEqualTo(json);
    assertThat(envelope.errorType()).isEqualTo("io.sluice.schema.wire.WireFormatException");
    assertThat(envelope.errorMessage()).contains(TOPIC).doesNotContain("NEW");
    assertThat(envelope.errorCode()).isEqualTo("NOT_AVRO_WIRE_FORMAT");
    assertThat(envelope.schemaId()).isNull();
    assertThat(envelope.originalHeaders())
        .containsExactly(
            new DlqEnvelope.HeaderEntry("trace", "YWJj"),
            new DlqEnvelope.HeaderEntry("empty", null));
    assertThat(envelope.originalValueSha256()).isEqualTo(Sha256.hex(json));
    assertThat(envelope.routerApplicationId()).isEqualTo("router-under-test");

    assertThat(out.key()).isEqualTo(key(2));
    assertThat(out.timestamp()).isEqualTo(TIMESTAMP);
    assertThat(header(out, "trace")).isEqualTo("abc");
    assertThat(header(out, DlqHeaders.ERRORS_TOPIC)).isEqualTo(TOPIC);
    assertThat(header(out, DlqHeaders.ERRORS_PARTITION)).isEqualTo("0");
    assertThat(header(out, DlqHeaders.ERRORS_OFFSET)).isEqualTo("1");
    assertThat(header(out, DlqHeaders.ERRORS_EXCEPTION))
        .isEqualTo("io.sluice.schema.wire.WireFormatException");
    assertThat(header(out, DlqHeaders.ERRORS_MESSAGE)).isEqualTo(envelope.errorMessage());
    assertThat(header(out, DlqHeaders.ERROR_CODE)).isEqualTo("NOT_AVRO_WIRE_FORMAT");
    assertThat(clean.readValuesToList()).hasSize(1);
  }

  @Test
  void rawModeWritesTheOriginalBytesWithTheSameHeaders() {
    start(Map.of(RouterConfig.DLQ_FORMAT_CONFIG, "raw"));
    byte[] json = "{\"id\":3}".getBytes(StandardCharsets.UTF_8);
    pipe(null, json);

    TestRecord<byte[], byte[]> out = dlq.readRecord();
    assertThat(out.value()).isEqualTo(json);
    assertThat(out.key()).isNull();
    assertThat(header(out, DlqHeaders.ERROR_CODE)).isEqualTo("NOT_AVRO_WIRE_FORMAT");
    assertThat(header(out, DlqHeaders.ERRORS_OFFSET)).isEqualTo("0");
    assertThat(header(out, "trace")).isEqualTo("abc");
  }

  @Test
  void jsonWithInvalidUtf8KeepsItsExactBytes() {
    start();
    byte[] json = {'{', '"', 'n', '"', ':', '"', (byte) 0xC3, (byte) 0x28, (byte) 0xFF, '"', '}'};
    pipe(key(1), json);
    DlqEnvelope envelope = DlqEnvelope.fromJson(dlq.readValue());
    assertThat(envelope.originalValue()).isEqualTo(json);
    assertThat(envelope.errorCode()).isEqualTo("NOT_AVRO_WIRE_FORMAT");
  }

  @Test
  void tombstonePassesToClean() {
    start();
    pipe(key(1), null);
    TestRecord<byte[], byte[]> out = clean.readRecord();
    assertThat(out.key()).isEqualTo(key(1));
    assertThat(out.value()).isNull();
    assertThat(dlq.isEmpty()).isTrue();
    assertThat(counter(RouterMetrics.VALIDATED, "topic", TOPIC, "result", "tombstone"))
        .isEqualTo(1);
  }

  @Test
  void tombstoneIsDroppedInDropMode() {
    start(Map.of(RouterConfig.TOMBSTONES_CONFIG, "drop"));
    pipe(key(1), null);
    pipe(key(2), value(Orders.create(2)));
    assertThat(clean.readKeyValuesToList()).hasSize(1);
    assertThat(dlq.isEmpty()).isTrue();
  }

  @Test
  void registryOutageIsRetriedAndTheRecordThenPassesWithoutADlqRecord() {
    start();
    registry.failNext(3);
    byte[] value = value(Orders.create(1));
    pipe(key(1), value);

    assertThat(clean.readValue()).isEqualTo(value);
    assertThat(dlq.isEmpty()).isTrue();
    assertThat(counter(RouterMetrics.REGISTRY_RETRIES)).isEqualTo(3);
    assertThat(retryClock.sleeps()).containsExactly(100L, 200L, 400L);
  }

  @Test
  void processingLatencyIsTimedOnTheFirstRecordAndOneInSixteenAfter() {
    start();
    for (int id = 1; id <= 1 + 2 * RouterMetrics.LATENCY_SAMPLE_EVERY; id++) {
      pipe(key(id), value(Orders.create(id)));
    }

    assertThat(clean.readValuesToList()).hasSize(1 + 2 * RouterMetrics.LATENCY_SAMPLE_EVERY);
    assertThat(latency().count()).isEqualTo(3);
  }

  @Test
  void aRecordThatWaitedForTheRegistryIsAlwaysTimed() {
    String other = "broker.cdc_lab.invoices";
    int otherValueId = registry.register(other + "-value", Orders.ENVELOPE);
    int otherKeyId = registry.register(other + "-key", Orders.KEY);
    start();
    pipe(key(1), value(Orders.create(1))); // timed: the first record
    registry.failNext(2); // the second record's schema lookups wait 100 + 200 ms

    inputTopic(other)
        .pipeInput(
            new TestRecord<>(
                Orders.wire(otherKeyId, Orders.key(2)),
                Orders.wire(otherValueId, Orders.create(2)),
                headers(),
                TIMESTAMP));

    assertThat(outputTopic(other + ".clean").readValuesToList()).hasSize(1);
    assertThat(latency().count()).isEqualTo(2);
    assertThat(latency().max(TimeUnit.MILLISECONDS)).isEqualTo(300);
  }

  private Timer latency() {
    return metrics.registry().find(RouterMetrics.PROCESSING_LATENCY).timer();
  }

  @Test
  void registryOutagePastTheBoundFailsTheTaskInsteadOfQuarantining() {
    start(Map.of(RouterConfig.REGISTRY_RETRY_TIMEOUT_MS_CONFIG, 2000));
    registry.failNext(Integer.MAX_VALUE);
    assertThatThrownBy(() -> pipe(key(1), value(Orders.create(1))))
        .satisfies(
            e -> {
              Throwable timeout = e;
              while (timeout != null && !(timeout instanceof RegistryRetryTimeoutException)) {
                timeout = timeout.getCause();
              }
              assertThat(timeout)
                  .as("cause chain of %s", e)
                  .isNotNull()
                  .hasMessageContaining("record " + TOPIC + "-0@0")
                  .hasMessageContaining("registry.retry.timeout.ms=2000");
            });
    assertThat(clean.isEmpty()).isTrue();
    assertThat(dlq.isEmpty()).isTrue();
  }

  @Test
  void everyMatchingTopicIsRoutedToItsOwnOutputs() {
    start();
    String customers = "broker.cdc_lab.customers";
    inputTopic(customers)
        .pipeInput(new TestRecord<>(null, "x".getBytes(StandardCharsets.UTF_8), headers(), 0L));
    assertThat(
            outputTopic(customers + ".dlq").readRecord().headers().lastHeader("sluice.error.code"))
        .isNotNull();
    assertThat(ensured).containsExactly(customers);
  }

  @Test
  void outputTopicsAreNeverRoutedEvenWhenThePatternMatchesThem() {
    start(Map.of(RouterConfig.INPUT_TOPIC_PATTERN_CONFIG, "broker\\..*"));
    inputTopic(TOPIC + ".dlq").pipeInput(new TestRecord<>(null, new byte[] {1}, headers(), 0L));
    inputTopic(TOPIC + ".clean").pipeInput(new TestRecord<>(null, new byte[] {1}, headers(), 0L));
    assertThat(outputTopic(TOPIC + ".dlq.dlq").isEmpty()).isTrue();
    assertThat(outputTopic(TOPIC + ".clean.dlq").isEmpty()).isTrue();
    assertThat(outputTopic(TOPIC + ".clean.clean").isEmpty()).isTrue();
    assertThat(ensured).isEmpty();
  }

  @Test
  void outputTopicsAreEnsuredOncePerInputTopic() {
    start();
    for (int i = 1; i <= 5; i++) {
      pipe(key(i), value(Orders.create(i)));
    }
    pipe(null, WireFormat.encode(valueId, new byte[0]));
    assertThat(ensured).containsExactly(TOPIC);
    assertThat(clean.readValuesToList()).hasSize(5);
    assertThat(dlq.readValuesToList()).hasSize(1);
  }
}
