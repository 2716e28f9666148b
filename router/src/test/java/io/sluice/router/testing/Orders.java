package io.sluice.router.testing;

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
 * The orders table of the lab as Debezium publishes it: key {@code {id}}, value the envelope with
 * before/after row images. Builds Confluent-wire records with Avro's own writer.
 */
public final class Orders {
  public static final String TOPIC = "broker.cdc_lab.orders";
  public static final Schema ENVELOPE = load("/orders-envelope.avsc");
  public static final Schema KEY = load("/orders-key.avsc");
  public static final Schema ROW = ENVELOPE.getField("after").schema().getTypes().get(1);

  private Orders() {}

  /** An order row with every field set. */
  public static GenericRecord row(int id) {
    GenericRecord row = new GenericData.Record(ROW);
    row.put("id", id);
    row.put("customer_id", 1000 + id);
    row.put("status", "NEW");
    row.put("amount_cents", 1999L * id);
    row.put("currency", "EUR");
    row.put("note", id % 2 == 0 ? null : "gift wrap " + id);
    row.put("price", id % 3 == 0 ? null : 19.99 * id);
    row.put("created_at", 1_760_000_000_000L + id);
    row.put("updated_at", id % 2 == 0 ? 1_760_000_100_000L + id : null);
    return row;
  }

  /** An envelope: op with the given images (either may be null). */
  public static GenericRecord envelope(String op, GenericRecord before, GenericRecord after) {
    GenericRecord source = new GenericData.Record(ENVELOPE.getField("source").schema());
    source.put("version", "3.5.0.Final");
    source.put("connector", "mariadb");
    source.put("name", "broker");
    source.put("ts_ms", 1_760_000_000_000L);
    source.put("snapshot", "false");
    source.put("db", "cdc_lab");
    source.put("table", "orders");
    source.put("server_id", 1L);
    source.put("gtid", "0-1-42");
    source.put("file", "mysql-bin.000001");
    source.put("pos", 1234L);
    source.put("row", 0);
    GenericRecord envelope = new GenericData.Record(ENVELOPE);
    envelope.put("before", before);
    envelope.put("after", after);
    envelope.put("source", source);
    envelope.put("op", op);
    envelope.put("ts_ms", 1_760_000_000_500L);
    return envelope;
  }

  /** A create event for row {@code id}. */
  public static GenericRecord create(int id) {
    return envelope("c", null, row(id));
  }

  public static GenericRecord key(int id) {
    GenericRecord key = new GenericData.Record(KEY);
    key.put("id", id);
    return key;
  }

  /**
   * {@code schema} with field {@code field}'s type {@code from} (JSON, e.g. {@code "long"})
   * replaced by {@code to}: the new version a DBA's column-type change registers.
   */
  public static Schema retyped(Schema schema, String field, String from, String to) {
    String json = schema.toString();
    String old = "{\"name\":\"" + field + "\",\"type\":" + from;
    if (!json.contains(old)) {
      throw new IllegalArgumentException("no field " + field + " of type " + from);
    }
    return new Schema.Parser()
        .parse(json.replace(old, "{\"name\":\"" + field + "\",\"type\":" + to));
  }

  /** The Avro binary body of {@code record} (no wire header). */
  public static byte[] body(GenericRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    try {
      new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }

  /** {@code record} in the Confluent wire format with {@code schemaId}. */
  public static byte[] wire(int schemaId, GenericRecord record) {
    return WireFormat.encode(schemaId, body(record));
  }

  private static Schema load(String resource) {
    try (InputStream in = Orders.class.getResourceAsStream(resource)) {
      return new Schema.Parser().parse(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
