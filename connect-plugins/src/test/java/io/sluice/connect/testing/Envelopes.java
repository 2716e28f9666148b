package io.sluice.connect.testing;

import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/** Debezium-shaped test data: an {@code orders} key, row and envelope schema. */
public final class Envelopes {
  public static final Schema KEY =
      SchemaBuilder.struct()
          .name("broker.cdc_lab.orders.Key")
          .field("id", Schema.INT32_SCHEMA)
          .build();

  public static final Schema ROW =
      SchemaBuilder.struct()
          .name("broker.cdc_lab.orders.Value")
          .optional()
          .field("id", Schema.INT32_SCHEMA)
          .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  public static final Schema SOURCE =
      SchemaBuilder.struct()
          .name("io.debezium.connector.mariadb.Source")
          .field("db", Schema.STRING_SCHEMA)
          .field("table", Schema.OPTIONAL_STRING_SCHEMA)
          .build();

  public static final Schema ENVELOPE = envelope(ROW);

  private Envelopes() {}

  /** {@code before, after, source, op, ts_ms} around {@code row}. */
  public static Schema envelope(Schema row) {
    return SchemaBuilder.struct()
        .name("broker.cdc_lab.orders.Envelope")
        .field("before", row)
        .field("after", row)
        .field("source", SOURCE)
        .field("op", Schema.STRING_SCHEMA)
        .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
        .build();
  }

  public static Struct key(int id) {
    return new Struct(KEY).put("id", id);
  }

  public static Struct row(int id, String customer) {
    return new Struct(ROW).put("id", id).put("customer", customer);
  }

  /** An envelope of schema {@code envelope}. */
  public static Struct change(Schema envelope, String op, Struct before, Struct after) {
    return new Struct(envelope)
        .put("before", before)
        .put("after", after)
        .put("source", new Struct(SOURCE).put("db", "cdc_lab").put("table", "orders"))
        .put("op", op)
        .put("ts_ms", 1_700_000_000_000L);
  }

  /** An envelope of schema {@code envelope} whose {@code source} names {@code db.table}. */
  public static Struct change(
      Schema envelope, String db, String table, String op, Struct before, Struct after) {
    Struct change = change(envelope, op, before, after);
    change.put("source", new Struct(SOURCE).put("db", db).put("table", table));
    return change;
  }

  public static Struct change(String op, Struct before, Struct after) {
    return change(ENVELOPE, op, before, after);
  }

  public static SinkRecord record(int partition, long offset, Struct key, Struct value) {
    return new SinkRecord(
        "broker.cdc_lab.orders.clean",
        partition,
        KEY,
        key,
        value == null ? null : value.schema(),
        value,
        offset);
  }
}
