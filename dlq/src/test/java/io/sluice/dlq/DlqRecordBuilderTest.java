package io.sluice.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Base64;
import java.util.List;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

class DlqRecordBuilderTest {
  private static final Instant NOW = Instant.parse("2026-12-01T10:00:00.123456Z");
  private static final byte[] KEY = {0, 0, 0, 0, 2, 2, 4};
  private static final byte[] VALUE = "{\"order_id\":2}".getBytes(StandardCharsets.UTF_8);

  private static DlqRecordBuilder builder(DlqFormat format) {
    return new DlqRecordBuilder(format, "sluice-router", Clock.fixed(NOW, ZoneOffset.UTC));
  }

  private static DlqRecordBuilder.Original original() {
    Headers headers = new RecordHeaders();
    headers.add("trace", "t-1".getBytes(StandardCharsets.UTF_8));
    return new DlqRecordBuilder.Original(
        "broker.cdc_lab.orders", 2, 41, 1_764_450_530_123L, KEY, VALUE, headers);
  }

  private static Rejection rejection() {
    return new Rejection(
        "NOT_AVRO_WIRE_FORMAT", "io.example.WireFormatException", "magic byte is 123", null, 7);
  }

  @Test
  void envelopeCarriesTheOriginalBytesCoordinatesAndTheRejection() {
    byte[] value = builder(DlqFormat.ENVELOPE).value(original(), rejection());

    DlqEnvelope envelope = DlqEnvelope.fromJson(new String(value, StandardCharsets.UTF_8));
    assertThat(envelope.dlqSchemaVersion()).isEqualTo(DlqEnvelope.VERSION);
    assertThat(envelope.quarantinedAt()).isEqualTo(NOW);
    assertThat(envelope.originalTopic()).isEqualTo("broker.cdc_lab.orders");
    assertThat(envelope.originalPartition()).isEqualTo(2);
    assertThat(envelope.originalOffset()).isEqualTo(41);
    assertThat(envelope.originalKey()).containsExactly(KEY);
    assertThat(envelope.originalValue()).containsExactly(VALUE);
    assertThat(envelope.errorCode()).isEqualTo("NOT_AVRO_WIRE_FORMAT");
    assertThat(envelope.errorType()).isEqualTo("io.example.WireFormatException");
    assertThat(envelope.errorMessage()).isEqualTo("magic byte is 123");
    assertThat(envelope.keySchemaId()).isEqualTo(7);
    assertThat(envelope.originalValueSha256()).isEqualTo(Sha256.hex(VALUE));
    assertThat(envelope.routerApplicationId()).isEqualTo("sluice-router");
    assertThat(envelope.originalHeaders())
        .containsExactly(
            new DlqEnvelope.HeaderEntry(
                "trace", Base64.getEncoder().encodeToString("t-1".getBytes())));
  }

  @Test
  void rawFormatWritesTheOriginalValueUnchanged() {
    assertThat(builder(DlqFormat.RAW).value(original(), rejection())).isSameAs(VALUE);
  }

  @Test
  void headersKeepTheOriginalOnesAndAddTheStreamsErrorHeadersAndTheCode() {
    Headers headers = builder(DlqFormat.RAW).headers(original(), rejection());

    List<String> keys = new java.util.ArrayList<>();
    for (Header header : headers) {
      keys.add(header.key());
    }
    assertThat(keys)
        .containsExactly(
            "trace",
            DlqHeaders.ERRORS_TOPIC,
            DlqHeaders.ERRORS_PARTITION,
            DlqHeaders.ERRORS_OFFSET,
            DlqHeaders.ERRORS_EXCEPTION,
            DlqHeaders.ERRORS_MESSAGE,
            DlqHeaders.ERROR_CODE);
    assertThat(text(headers, DlqHeaders.ERRORS_OFFSET)).isEqualTo("41");
    assertThat(text(headers, DlqHeaders.ERRORS_EXCEPTION))
        .isEqualTo("io.example.WireFormatException");
    assertThat(text(headers, DlqHeaders.ERROR_CODE)).isEqualTo("NOT_AVRO_WIRE_FORMAT");
  }

  @Test
  void aRejectionNeedsACodeAndAType() {
    assertThatThrownBy(() -> new Rejection(" ", "T", "m", null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a rejection needs an error code");
    assertThatThrownBy(() -> new Rejection("SINK_X", null, "m", null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("rejection SINK_X needs an error type");
  }

  @Test
  void sha256IsLowerCaseHexAndNullForNull() {
    assertThat(Sha256.hex("abc".getBytes(StandardCharsets.US_ASCII)))
        .isEqualTo("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    assertThat(Sha256.hex((byte[]) null)).isNull();
  }

  private static String text(Headers headers, String key) {
    return new String(headers.lastHeader(key).value(), StandardCharsets.UTF_8);
  }

  @Test
  void sinkRecordsNameConnectorAndTaskAndCarryConnectHeaders() {
    DlqRecordBuilder sink =
        DlqRecordBuilder.forSink(
            new DlqRecordBuilder.SinkTask("orders-upsert", 3, "io.example.SinkTask"),
            Clock.fixed(NOW, ZoneOffset.UTC));
    Rejection rejection =
        new Rejection("SINK_NULL_KEY_FIELD", "io.example.Rejected", "key id is null", 5, 7);

    DlqEnvelope envelope =
        DlqEnvelope.fromJson(sink.value(original(), rejection, "cdc_lab.orders_current"));
    assertThat(envelope.sinkConnector()).isEqualTo("orders-upsert");
    assertThat(envelope.sinkTask()).isEqualTo(3);
    assertThat(envelope.sinkTable()).isEqualTo("cdc_lab.orders_current");
    assertThat(envelope.routerApplicationId()).isNull();
    assertThat(envelope.originalValue()).containsExactly(VALUE);

    Headers headers = sink.headers(original(), rejection);
    assertThat(text(headers, DlqHeaders.ERROR_CODE)).isEqualTo("SINK_NULL_KEY_FIELD");
    assertThat(text(headers, DlqHeaders.ERRORS_OFFSET)).isEqualTo("41");
    assertThat(text(headers, DlqHeaders.CONNECT_TOPIC)).isEqualTo("broker.cdc_lab.orders");
    assertThat(text(headers, DlqHeaders.CONNECT_PARTITION)).isEqualTo("2");
    assertThat(text(headers, DlqHeaders.CONNECT_OFFSET)).isEqualTo("41");
    assertThat(text(headers, DlqHeaders.CONNECT_CONNECTOR_NAME)).isEqualTo("orders-upsert");
    assertThat(text(headers, DlqHeaders.CONNECT_TASK_ID)).isEqualTo("3");
    assertThat(text(headers, DlqHeaders.CONNECT_STAGE)).isEqualTo("TASK_PUT");
    assertThat(text(headers, DlqHeaders.CONNECT_CLASS_NAME)).isEqualTo("io.example.SinkTask");
    assertThat(text(headers, DlqHeaders.CONNECT_EXCEPTION_CLASS_NAME))
        .isEqualTo("io.example.Rejected");
    assertThat(text(headers, DlqHeaders.CONNECT_EXCEPTION_MESSAGE)).isEqualTo("key id is null");
  }

  @Test
  void routerRecordsHaveNoConnectHeaders() {
    Headers headers = builder(DlqFormat.ENVELOPE).headers(original(), rejection());
    for (Header header : headers) {
      assertThat(header.key()).doesNotStartWith("__connect.");
    }
  }
}
