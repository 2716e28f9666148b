package io.sluice.bench.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.connect.upsert.event.SourceOp;
import io.sluice.schema.testing.InMemorySchemaRegistryClient;
import io.sluice.stack.workload.OrderRow;
import io.sluice.stack.workload.OrdersAvro;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.apache.iceberg.Schema;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** The limit's decoding: Confluent-wire bytes to Avro, Avro envelopes to rows of the table. */
class EnvelopeRowsTest {
  /** The table the upsert sink creates for the orders envelopes (key column first). */
  static final Schema ORDERS =
      new Schema(
          List.of(
              Types.NestedField.required(1, "order_id", Types.LongType.get()),
              Types.NestedField.optional(2, "business_key", Types.StringType.get()),
              Types.NestedField.optional(3, "customer_id", Types.LongType.get()),
              Types.NestedField.optional(4, "amount_cents", Types.LongType.get()),
              Types.NestedField.optional(5, "status", Types.StringType.get()),
              Types.NestedField.optional(6, "event_id", Types.LongType.get()),
              Types.NestedField.optional(7, "seed", Types.IntegerType.get()),
              Types.NestedField.optional(8, "updated_at", Types.TimestampType.withoutZone())),
          Set.of(1));

  private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
  private final OrdersAvro orders = OrdersAvro.register(registry, "orders");
  private final WireAvroReader reader = new WireAvroReader(registry);
  private final EnvelopeRows rows = new EnvelopeRows(ORDERS);

  @Test
  void anUpdateBecomesTheAfterRowOfTheTableWithItsKey() {
    OrderRow before = OrderRow.generate(42, 7);
    OrderRow after = before.updated("shipped", 99);

    EnvelopeRows.Change change = change(42, OrdersAvro.envelope("u", before, after));

    assertThat(change.op()).isEqualTo(SourceOp.UPDATE);
    assertThat(change.rows().row().getField("order_id")).isEqualTo(42L);
    assertThat(change.rows().row().getField("status")).isEqualTo("shipped");
    assertThat(change.rows().row().getField("event_id")).isEqualTo(99L);
    assertThat(change.rows().row().getField("business_key")).isEqualTo(after.businessKey());
    assertThat(change.rows().row().getField("seed")).isEqualTo(after.seed());
    assertThat(change.rows().row().getField("updated_at"))
        .isEqualTo(
            LocalDateTime.ofInstant(Instant.ofEpochMilli(after.updatedAtMs()), ZoneOffset.UTC));
    assertThat(change.rows().key().getField("order_id")).isEqualTo(42L);
    assertThat(change.rows().tableKey()).isEqualTo(42L);
  }

  @Test
  void aDeleteCarriesTheKeyAloneAlsoAsARowForItsPartition() {
    OrderRow before = OrderRow.generate(5, 7);

    EnvelopeRows.Change change = change(5, OrdersAvro.envelope("d", before, null));

    assertThat(change.op()).isEqualTo(SourceOp.DELETE);
    assertThat(change.rows().row()).isNull();
    assertThat(change.rows().key().getField("order_id")).isEqualTo(5L);
    assertThat(change.rows().keyAsRow().getField("order_id")).isEqualTo(5L);
    assertThat(change.rows().keyAsRow().getField("status")).isNull();
  }

  @Test
  void aTombstoneIsNoChange() {
    GenericRecord key = reader.read(orders.key(1), 0, 0);

    assertThat(rows.change(key, null)).isNull();
  }

  @Test
  void anOpOtherThanCreateReadUpdateOrDeleteIsRefused() {
    GenericRecord envelope = OrdersAvro.envelope("c", null, OrderRow.generate(1, 7));
    envelope.put("op", "t");

    assertThatThrownBy(() -> change(1, envelope))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("Debezium op 't' is not supported (c, r, u, d)");
  }

  @Test
  void bytesLeftAfterTheRecordAreAnError() {
    byte[] value = orders.created(OrderRow.generate(1, 7));
    byte[] longer = Arrays.copyOf(value, value.length + 1);

    assertThatThrownBy(() -> reader.read(longer, 2, 17))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "bytes left after the record of schema id "
                + orders.valueSchemaId()
                + " at partition 2 offset 17");
  }

  @Test
  void theWriterSchemaIsFetchedOncePerId() {
    for (long id = 1; id <= 3; id++) {
      change(id, OrdersAvro.envelope("c", null, OrderRow.generate(id, 7)));
    }

    assertThat(reader.schemas()).isEqualTo(2);
  }

  @Test
  void aRowFieldThatIsNoColumnOfTheTableIsRefused() {
    EnvelopeRows narrow = new EnvelopeRows(new Schema(List.of(ORDERS.columns().get(0)), Set.of(1)));
    GenericRecord key = reader.read(orders.key(1), 0, 0);
    GenericRecord value =
        reader.read(orders.value(OrdersAvro.envelope("c", null, OrderRow.generate(1, 7))), 0, 0);

    assertThatThrownBy(() -> narrow.change(key, value))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("field business_key is not a column of the table");
  }

  private EnvelopeRows.Change change(long orderId, GenericRecord envelope) {
    GenericRecord key = reader.read(orders.key(orderId), 0, 0);
    GenericRecord value = reader.read(orders.value(envelope), 0, 1);
    return rows.change(key, value);
  }
}
