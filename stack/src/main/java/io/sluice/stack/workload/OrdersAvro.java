package io.sluice.stack.workload;

import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;

/**
 * Confluent-wire Avro records of the lab's {@code cdc_lab.orders} table, shaped as Debezium
 * publishes them: key {@code {order_id}}, value the Debezium envelope ({@code before}, {@code
 * after}, {@code source}, {@code op}, {@code ts_ms}). Schemas are those of {@code orders-key.avsc}
 * and {@code orders-envelope.avsc}.
 *
 * <p>An instance encodes with fixed schema ids and reuses its buffers: it is not thread-safe.
 */
public final class OrdersAvro {
  private static final Schema KEY_SCHEMA = parse("orders-key.avsc");
  private static final Schema VALUE_SCHEMA = parse("orders-envelope.avsc");
  private static final Schema ROW_SCHEMA =
      VALUE_SCHEMA.getField("after").schema().getTypes().get(1);
  private static final Schema SOURCE_SCHEMA = VALUE_SCHEMA.getField("source").schema();

  private final int keySchemaId;
  private final int valueSchemaId;
  private final GenericDatumWriter<GenericRecord> keyWriter = new GenericDatumWriter<>(KEY_SCHEMA);
  private final GenericDatumWriter<GenericRecord> valueWriter =
      new GenericDatumWriter<>(VALUE_SCHEMA);
  private final ByteArrayOutputStream buffer = new ByteArrayOutputStream(512);
  private BinaryEncoder encoder;

  public OrdersAvro(int keySchemaId, int valueSchemaId) {
    this.keySchemaId = keySchemaId;
    this.valueSchemaId = valueSchemaId;
  }

  /**
   * Registers the key and value schemas under {@code <topic>-key} and {@code <topic>-value}
   * (TopicNameStrategy) and returns an encoder using the ids the registry gave.
   */
  public static OrdersAvro register(SchemaRegistryClient registry, String topic) {
    return new OrdersAvro(
        registry.register(keySubject(topic), KEY_SCHEMA),
        registry.register(valueSubject(topic), VALUE_SCHEMA));
  }

  public static String keySubject(String topic) {
    return topic + "-key";
  }

  public static String valueSubject(String topic) {
    return topic + "-value";
  }

  public static Schema keySchema() {
    return KEY_SCHEMA;
  }

  public static Schema valueSchema() {
    return VALUE_SCHEMA;
  }

  /** The schema of {@code before}/{@code after}. */
  public static Schema rowSchema() {
    return ROW_SCHEMA;
  }

  public int keySchemaId() {
    return keySchemaId;
  }

  public int valueSchemaId() {
    return valueSchemaId;
  }

  public static GenericRecord keyRecord(long orderId) {
    GenericRecord key = new GenericData.Record(KEY_SCHEMA);
    key.put("order_id", orderId);
    return key;
  }

  public static GenericRecord rowRecord(OrderRow row) {
    GenericRecord r = new GenericData.Record(ROW_SCHEMA);
    r.put("order_id", row.orderId());
    r.put("business_key", row.businessKey());
    r.put("customer_id", row.customerId());
    r.put("amount_cents", row.amountCents());
    r.put("status", row.status());
    r.put("event_id", row.eventId());
    r.put("seed", row.seed());
    r.put("updated_at", row.updatedAtMs());
    return r;
  }

  /**
   * A Debezium envelope. {@code op} is one of c, u, d, r; {@code before} is null for c/r and {@code
   * after} is null for d. Source and event timestamps come from the newest row image.
   */
  public static GenericRecord envelope(String op, OrderRow before, OrderRow after) {
    OrderRow newest = after != null ? after : before;
    if (newest == null) {
      throw new IllegalArgumentException("an envelope needs a before or an after image");
    }
    GenericRecord envelope = new GenericData.Record(VALUE_SCHEMA);
    envelope.put("before", before == null ? null : rowRecord(before));
    envelope.put("after", after == null ? null : rowRecord(after));
    envelope.put("source", source(newest, "r".equals(op)));
    envelope.put("op", op);
    envelope.put("ts_ms", newest.updatedAtMs() + 5);
    return envelope;
  }

  /** The wire bytes of the key of {@code orderId}. */
  public byte[] key(long orderId) {
    return encode(keySchemaId, keyWriter, keyRecord(orderId));
  }

  /** The wire bytes of an insert ({@code op=c}) of {@code row}. */
  public byte[] created(OrderRow row) {
    return value(envelope("c", null, row));
  }

  /** The wire bytes of {@code envelope} (built by {@link #envelope}). */
  public byte[] value(GenericRecord envelope) {
    return encode(valueSchemaId, valueWriter, envelope);
  }

  private byte[] encode(int schemaId, GenericDatumWriter<GenericRecord> writer, GenericRecord r) {
    buffer.reset();
    buffer.write(WireFormat.MAGIC_BYTE);
    buffer.write(schemaId >>> 24);
    buffer.write(schemaId >>> 16);
    buffer.write(schemaId >>> 8);
    buffer.write(schemaId);
    encoder = EncoderFactory.get().directBinaryEncoder(buffer, encoder);
    try {
      writer.write(r, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot encode an orders record with schema " + schemaId, e);
    }
    return buffer.toByteArray();
  }

  private static GenericRecord source(OrderRow row, boolean snapshot) {
    GenericRecord source = new GenericData.Record(SOURCE_SCHEMA);
    source.put("version", "3.5.0.Final");
    source.put("connector", "mariadb");
    source.put("name", "broker");
    source.put("ts_ms", row.updatedAtMs());
    source.put("snapshot", snapshot ? "true" : "false");
    source.put("db", "cdc_lab");
    source.put("table", "orders");
    source.put("server_id", 1L);
    source.put("file", "mysql-bin.000001");
    source.put("pos", 4L + row.eventId() * 100);
    source.put("row", 0);
    return source;
  }

  private static Schema parse(String resource) {
    try (InputStream in = OrdersAvro.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IllegalStateException("schema resource " + resource + " is missing");
      }
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read schema resource " + resource, e);
    }
  }
}
