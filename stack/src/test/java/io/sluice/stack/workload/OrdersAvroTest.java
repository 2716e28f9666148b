package io.sluice.stack.workload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.schema.wire.WireFormat;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;

class OrdersAvroTest {
  private final OrdersAvro orders = new OrdersAvro(7, 8);

  @Test
  void keyIsConfluentWireAvroOfTheOrderId() throws Exception {
    byte[] key = orders.key(1234);

    assertThat(WireFormat.schemaId(key)).isEqualTo(7);
    GenericRecord decoded = decode(OrdersAvro.keySchema(), key);
    assertThat(decoded.get("order_id")).isEqualTo(1234L);
  }

  @Test
  void insertIsADebeziumEnvelopeWithTheRowAsAfter() throws Exception {
    OrderRow row = OrderRow.generate(17, 42);

    byte[] value = orders.created(row);

    assertThat(WireFormat.schemaId(value)).isEqualTo(8);
    GenericRecord envelope = decode(OrdersAvro.valueSchema(), value);
    assertThat(envelope.get("op").toString()).isEqualTo("c");
    assertThat(envelope.get("before")).isNull();
    GenericRecord after = (GenericRecord) envelope.get("after");
    assertThat(after.get("order_id")).isEqualTo(17L);
    assertThat(after.get("business_key").toString()).isEqualTo("ORD-42-17");
    assertThat(after.get("status").toString()).isEqualTo(row.status());
    assertThat(after.get("seed")).isEqualTo(42);
    assertThat(after.get("updated_at")).isEqualTo(row.updatedAtMs());
    GenericRecord source = (GenericRecord) envelope.get("source");
    assertThat(source.get("db").toString()).isEqualTo("cdc_lab");
    assertThat(source.get("table").toString()).isEqualTo("orders");
  }

  @Test
  void deleteCarriesTheBeforeImageOnly() throws Exception {
    OrderRow row = OrderRow.generate(5, 1);

    GenericRecord envelope =
        decode(OrdersAvro.valueSchema(), orders.value(OrdersAvro.envelope("d", row, null)));

    assertThat(envelope.get("after")).isNull();
    assertThat(((GenericRecord) envelope.get("before")).get("order_id")).isEqualTo(5L);
  }

  @Test
  void rowsAreDeterministicPerSeedAndDifferAcrossSeeds() {
    assertThat(OrderRow.generate(99, 3)).isEqualTo(OrderRow.generate(99, 3));
    assertThat(orders.created(OrderRow.generate(99, 3)))
        .isEqualTo(orders.created(OrderRow.generate(99, 3)));
    assertThat(OrderRow.generate(99, 3)).isNotEqualTo(OrderRow.generate(99, 4));
  }

  @Test
  void updatedAtCarriesDebeziumTimestampLogicalName() {
    Schema updatedAt = OrdersAvro.rowSchema().getField("updated_at").schema();

    assertThat(updatedAt.getType()).isEqualTo(Schema.Type.LONG);
    assertThat(updatedAt.getProp("connect.name")).isEqualTo("io.debezium.time.Timestamp");
  }

  @Test
  void anEnvelopeNeedsAnImage() {
    assertThatThrownBy(() -> OrdersAvro.envelope("c", null, null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("an envelope needs a before or an after image");
  }

  @Test
  void encoderBuffersAreNotSharedBetweenResults() {
    byte[] first = orders.key(1);
    byte[] second = orders.key(2);

    assertThat(Arrays.equals(first, second)).isFalse();
    assertThat(decodeQuietly(first)).isEqualTo(1L);
  }

  private static long decodeQuietly(byte[] key) {
    try {
      return (Long) decode(OrdersAvro.keySchema(), key).get("order_id");
    } catch (Exception e) {
      throw new AssertionError(e);
    }
  }

  private static GenericRecord decode(Schema schema, byte[] wire) throws Exception {
    BinaryDecoder decoder =
        DecoderFactory.get()
            .binaryDecoder(
                wire, WireFormat.HEADER_SIZE, wire.length - WireFormat.HEADER_SIZE, null);
    GenericRecord record = new GenericDatumReader<GenericRecord>(schema).read(null, decoder);
    assertThat(decoder.isEnd()).as("no trailing bytes").isTrue();
    return record;
  }
}
