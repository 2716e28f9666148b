package io.sluice.tools.dlq.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.testing.TestSchemas;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.junit.jupiter.api.Test;

class DebeziumEnvelopeBuilderTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final Schema ENVELOPE = TestSchemas.ordersEnvelope();
  private final DebeziumEnvelopeBuilder builder =
      new DebeziumEnvelopeBuilder(Clock.fixed(NOW, ZoneOffset.UTC));

  private static IntendedRow intended(String op) {
    return IntendedRow.parse(
        ("{\"intended_after\": {\"order_id\": 42, \"customer\": \"ada\", \"amount_cents\": 1250,"
                + " \"updated_at\": \"2026-03-01 10:15:30.250\"}, \"intended_operation\": \""
                + op
                + "\"}")
            .getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void anInsertHasTheRowAfterAndSourceFromTheTopicName() throws Exception {
    GenericRecord event = builder.build(ENVELOPE, "test.shop.orders", intended("c"));

    GenericRecord after = (GenericRecord) event.get("after");
    assertThat(event.get("before")).isNull();
    assertThat(after.get("order_id")).isEqualTo(42L);
    assertThat(after.get("status").toString()).isEqualTo("NEW"); // the field's default
    assertThat(after.get("note")).isNull();
    assertThat(after.get("updated_at"))
        .isEqualTo(Instant.parse("2026-03-01T10:15:30.250Z").toEpochMilli());
    assertThat(event.get("op")).isEqualTo("c");
    assertThat(event.get("ts_ms")).isEqualTo(NOW.toEpochMilli());
    assertThat(event.get("transaction")).isNull();
    GenericRecord source = (GenericRecord) event.get("source");
    assertThat(source.get("connector")).isEqualTo(DebeziumEnvelopeBuilder.CONNECTOR);
    assertThat(source.get("name")).isEqualTo("test");
    assertThat(source.get("db")).isEqualTo("shop");
    assertThat(source.get("table")).isEqualTo("orders");
    assertThat(source.get("ts_ms")).isEqualTo(NOW.toEpochMilli());
    assertThat(source.get("version")).isEqualTo("");
    assertThat(source.get("pos")).isEqualTo(0L);
    assertThat(source.get("snapshot")).isNull();
  }

  @Test
  void aDeleteHasTheRowBeforeAndNoAfter() {
    GenericRecord event = builder.build(ENVELOPE, "test.shop.orders", intended("d"));

    assertThat(event.get("after")).isNull();
    assertThat(((GenericRecord) event.get("before")).get("order_id")).isEqualTo(42L);
    assertThat(event.get("op")).isEqualTo("d");
  }

  @Test
  void theEventEncodesAndDecodesWithTheSchema() throws Exception {
    GenericRecord event = builder.build(ENVELOPE, "test.shop.orders", intended("u"));

    byte[] wire = AvroWire.encode(7, ENVELOPE, event);

    assertThat(WireFormat.schemaId(wire)).isEqualTo(7);
    GenericRecord decoded = (GenericRecord) AvroWire.decode(wire, ENVELOPE);
    assertThat(decoded.get("op").toString()).isEqualTo("u");
    assertThat(((GenericRecord) decoded.get("after")).get("customer").toString()).isEqualTo("ada");
  }

  @Test
  void aRowThatDoesNotFitNamesTheField() {
    IntendedRow row =
        IntendedRow.parse(
            "{\"order_id\": 42, \"customer\": \"ada\"}".getBytes(StandardCharsets.UTF_8));

    assertThatThrownBy(() -> builder.build(ENVELOPE, "test.shop.orders", row))
        .isInstanceOf(RepairException.class)
        .hasMessageStartingWith("required field 'amount_cents' (long, no default) is missing");
  }

  @Test
  void aSchemaThatIsNotAnEnvelopeIsRefused() {
    assertThatThrownBy(
            () -> builder.build(TestSchemas.typesRow(), "test.shop.orders", intended("c")))
        .isInstanceOf(RepairException.class)
        .hasMessage(
            "schema test.types.Row is not a Debezium envelope (no 'after' and 'op' fields)");
  }
}
