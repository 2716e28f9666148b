package io.sluice.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class DlqEnvelopeTest {

  private static String fixture() throws IOException {
    return fixture("/dlq-envelope-v1.json");
  }

  private static String fixture(String name) throws IOException {
    try (InputStream in = DlqEnvelopeTest.class.getResourceAsStream(name)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
    }
  }

  @Test
  void fixtureParsesToTheExpectedFields() throws IOException {
    DlqEnvelope envelope = DlqEnvelope.fromJson(fixture());
    assertThat(envelope.dlqSchemaVersion()).isEqualTo(1);
    assertThat(envelope.quarantinedAt()).isEqualTo(Instant.parse("2026-11-29T21:08:50.123456Z"));
    assertThat(envelope.originalTopic()).isEqualTo("broker.cdc_lab.orders");
    assertThat(envelope.originalPartition()).isEqualTo(2);
    assertThat(envelope.originalOffset()).isEqualTo(41);
    assertThat(envelope.originalTimestampMs()).isEqualTo(1764450530123L);
    assertThat(envelope.originalKey()).containsExactly(0, 0, 0, 0, 2, 2, 4);
    assertThat(new String(envelope.originalValue(), StandardCharsets.UTF_8))
        .isEqualTo("{\"id\":2,\"err\":true}");
    assertThat(envelope.errorType()).isEqualTo("io.sluice.schema.wire.WireFormatException");
    assertThat(envelope.errorCode()).isEqualTo("NOT_AVRO_WIRE_FORMAT");
    assertThat(envelope.schemaId()).isNull();
    assertThat(envelope.keySchemaId()).isEqualTo(2);
    assertThat(envelope.originalHeaders())
        .containsExactly(
            new DlqEnvelope.HeaderEntry("trace", "YWJj"),
            new DlqEnvelope.HeaderEntry("empty", null));
    assertThat(envelope.originalValueSha256()).isEqualTo(Sha256.hex(envelope.originalValue()));
    assertThat(envelope.routerApplicationId()).isEqualTo("sluice-router");
  }

  @Test
  void roundTripReproducesTheFixtureByteForByte() throws IOException {
    String fixture = fixture();
    assertThat(DlqEnvelope.fromJson(fixture).toJson()).isEqualTo(fixture);
    DlqEnvelope envelope = DlqEnvelope.fromJson(fixture);
    assertThat(DlqEnvelope.fromJson(envelope.toJsonBytes())).isEqualTo(envelope);
  }

  @Test
  void routerEnvelopesHaveNoSinkFields() throws IOException {
    DlqEnvelope envelope = DlqEnvelope.fromJson(fixture());
    assertThat(envelope.sinkConnector()).isNull();
    assertThat(envelope.sinkTask()).isNull();
    assertThat(envelope.sinkTable()).isNull();
    assertThat(envelope.quarantinedBySink()).isFalse();
    assertThat(envelope.toJson()).doesNotContain("sink_");
  }

  @Test
  void sinkFixtureRoundTripsWithConnectorAndTask() throws IOException {
    String fixture = fixture("/dlq-envelope-v1-sink.json");
    DlqEnvelope envelope = DlqEnvelope.fromJson(fixture);
    assertThat(envelope.dlqSchemaVersion()).isEqualTo(1);
    assertThat(envelope.errorCode()).isEqualTo("SINK_DECIMAL_OUT_OF_RANGE");
    assertThat(envelope.schemaId()).isEqualTo(3);
    assertThat(envelope.routerApplicationId()).isNull();
    assertThat(envelope.sinkConnector()).isEqualTo("orders-upsert");
    assertThat(envelope.sinkTask()).isZero();
    assertThat(envelope.sinkTable()).isEqualTo("cdc_lab.orders_current");
    assertThat(envelope.quarantinedBySink()).isTrue();
    assertThat(envelope.toJson()).isEqualTo(fixture);
  }

  @Test
  void quarantinedAtIsWrittenWithMicroseconds() {
    DlqEnvelope envelope = sample(Instant.parse("2026-01-02T03:04:05Z"));
    assertThat(envelope.toJson()).contains("\"quarantined_at\":\"2026-01-02T03:04:05.000000Z\"");
    DlqEnvelope nanos = sample(Instant.parse("2026-01-02T03:04:05.123456789Z"));
    assertThat(nanos.toJson()).contains("\"quarantined_at\":\"2026-01-02T03:04:05.123456Z\"");
  }

  @Test
  void readersIgnoreUnknownFields() throws IOException {
    String extended =
        fixture().replaceFirst("\\{", "{\"added_in_v1_1\":{\"nested\":[1,2]},\"more\":true,");
    assertThat(DlqEnvelope.fromJson(extended)).isEqualTo(DlqEnvelope.fromJson(fixture()));
  }

  @Test
  void missingRequiredFieldIsNamed() throws IOException {
    String broken = fixture().replace("\"original_offset\":41,", "");
    assertThatThrownBy(() -> DlqEnvelope.fromJson(broken))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("DLQ envelope has no field 'original_offset'");
  }

  @Test
  void otherVersionsAreRefused() throws IOException {
    String v2 = fixture().replace("\"dlq_schema_version\":1", "\"dlq_schema_version\":2");
    assertThatThrownBy(() -> DlqEnvelope.fromJson(v2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("DLQ envelope version 2 is not supported (expected 1)");
  }

  @Test
  void nonJsonIsRefused() {
    assertThatThrownBy(() -> DlqEnvelope.fromJson("not json"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("DLQ envelope is not JSON");
  }

  private static DlqEnvelope sample(Instant at) {
    return new DlqEnvelope(
        1, at, "t", 0, 0, 0, null, "AA==", "E", "m", "C", 1, null, List.of(), "x", "app");
  }
}
