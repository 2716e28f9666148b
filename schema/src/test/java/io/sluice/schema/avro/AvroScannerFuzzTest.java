package io.sluice.schema.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.util.RandomData;
import org.junit.jupiter.api.Test;

/**
 * The scanner must accept exactly the bytes that Avro's own reader decodes completely (no
 * exception, no leftover bytes): valid records, every truncation, random byte mutations,
 * insertions, deletions and random noise, for the orders envelope and a schema with the other Avro
 * types. {@link AvroBodyValidator}, the same scan over a slice of a larger array, must agree too.
 */
class AvroScannerFuzzTest {
  /** The lab's orders table as Debezium (MariaDB connector) publishes it. */
  private static final Schema ENVELOPE = AvroInputs.load("/orders-envelope.avsc");

  private static final Schema ROW = ENVELOPE.getField("after").schema().getTypes().get(1);

  /** Every other Avro type, except booleans (see {@link AvroScanner}) and zero-byte items. */
  private static final Schema KITCHEN_SINK =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "Sink", "fields": [
                {"name": "i", "type": "int"},
                {"name": "f", "type": "float"},
                {"name": "d", "type": ["null", "double"]},
                {"name": "b", "type": "bytes"},
                {"name": "fx", "type": {"type": "fixed", "name": "Fx", "size": 4}},
                {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B", "C"]}},
                {"name": "tags", "type": {"type": "array", "items": "string"}},
                {"name": "attrs", "type": {"type": "map", "values": ["null", "long"]}},
                {"name": "kids", "type": {"type": "array", "items": {"type": "record",
                  "name": "Kid", "fields": [{"name": "n", "type": "int"},
                  {"name": "e2", "type": "E"}]}}},
                {"name": "choice", "type": ["null", "string", "Kid", "Fx"]}
              ]}
              """);

  /** A recursive record: through an array, a union and map values. */
  private static final Schema TREE =
      new Schema.Parser()
          .parse(
              """
              {"type": "record", "name": "Tree", "fields": [
                {"name": "id", "type": "long"},
                {"name": "label", "type": ["null", "string"]},
                {"name": "kids", "type": {"type": "array", "items": "Tree"}},
                {"name": "parent", "type": ["null", "Tree"]},
                {"name": "attrs", "type": {"type": "map", "values": ["null", "double", "Tree"]}}
              ]}
              """);

  private final Random random = new Random(20261129L);

  /** Apart from {@link #random}, so the fuzzed inputs stay those of the seed above. */
  private final Random frameNoise = new Random(5L);

  private int compared;
  private Schema schema;
  private ScanPlan plain;
  private ScanPlan capturing;
  private AvroBodyValidator validator;

  @Test
  void scannerAgreesWithAvroOnTheOrdersEnvelope() {
    List<byte[]> valid = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      valid.add(AvroInputs.body(randomEnvelope(i)));
    }
    fuzz(
        ENVELOPE,
        Map.of(
            "op", Capture.slot(0),
            "before", new Capture(1, Map.of("id", Capture.slot(3))),
            "after", new Capture(2, Map.of("id", Capture.slot(4)))),
        valid);
  }

  @Test
  void scannerAgreesWithAvroOnArraysMapsEnumsAndFixed() {
    List<byte[]> valid = new ArrayList<>();
    for (Object record : new RandomData(KITCHEN_SINK, 300, 42L)) {
      valid.add(AvroInputs.body((GenericRecord) record));
    }
    fuzz(KITCHEN_SINK, Map.of("i", Capture.slot(0), "choice", Capture.slot(1)), valid);
  }

  @Test
  void scannerAgreesWithAvroOnRecursiveRecords() {
    List<byte[]> valid = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      valid.add(AvroInputs.body(randomTree(3)));
    }
    fuzz(
        TREE,
        Map.of("id", Capture.slot(0), "parent", new Capture(1, Map.of("id", Capture.slot(2)))),
        valid);
  }

  /** Valid records, every truncation of some, random mutations and noise. */
  private void fuzz(Schema schema, Map<String, Capture> captures, List<byte[]> valid) {
    this.schema = schema;
    this.plain = new ScanCompiler().compile(schema);
    this.capturing = new ScanCompiler().compile(schema, captures);
    this.validator = AvroBodyValidator.of(schema);
    for (byte[] body : valid) {
      assertThat(scannerAccepts(body)).as("valid record accepted").isTrue();
      compare(body);
    }
    for (int i = 0; i < 40; i++) {
      byte[] body = valid.get(i);
      for (int length = 0; length < body.length; length++) {
        compare(Arrays.copyOf(body, length));
      }
    }
    for (int i = 0; i < 20_000; i++) {
      byte[] body = valid.get(random.nextInt(valid.size()));
      compare(AvroInputs.mutate(body, random));
    }
    for (int i = 0; i < 5_000; i++) {
      byte[] noise = new byte[random.nextInt(200)];
      random.nextBytes(noise);
      compare(noise);
    }
    assertThat(compared).isGreaterThan(25_000);
  }

  private void compare(byte[] body) {
    compared++;
    boolean avro = avroDecodesCompletely(body);
    boolean scanner = scannerAccepts(body);
    if (avro != scanner) {
      fail(
          "Avro %s but the scanner %s: %s",
          avro ? "accepts" : "rejects",
          scanner ? "accepts" : "rejects",
          HexFormat.of().formatHex(body));
    }
  }

  private boolean scannerAccepts(byte[] body) {
    boolean withoutCaptures = accepts(plain, body, 0);
    boolean withCaptures = accepts(capturing, body, 5);
    assertThat(withCaptures).as("captures do not change the verdict").isEqualTo(withoutCaptures);
    assertThat(validatorAccepts(body))
        .as("the validator's verdict on the same bytes inside a larger array")
        .isEqualTo(withoutCaptures);
    return withoutCaptures;
  }

  /** {@code body} between 5 header-like bytes and 3 bytes of noise the validator must not read. */
  private boolean validatorAccepts(byte[] body) {
    byte[] framed = new byte[5 + body.length + 3];
    frameNoise.nextBytes(framed);
    System.arraycopy(body, 0, framed, 5, body.length);
    try {
      validator.validate(framed, 5, body.length);
      return true;
    } catch (AvroBodyException e) {
      return false;
    }
  }

  private static boolean accepts(ScanPlan root, byte[] body, int slots) {
    try {
      return AvroScanner.scan(root, body, 0, new Captures(body, slots)) == body.length;
    } catch (AvroDecodeException e) {
      return false;
    }
  }

  private boolean avroDecodesCompletely(byte[] body) {
    BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(body, null);
    try {
      new GenericDatumReader<GenericRecord>(schema).read(null, decoder);
      return decoder.isEnd();
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private GenericRecord randomTree(int depth) {
    GenericRecord tree = new GenericData.Record(TREE);
    tree.put("id", random.nextLong() >> random.nextInt(64));
    tree.put("label", random.nextBoolean() ? null : randomString());
    List<GenericRecord> kids = new ArrayList<>();
    for (int n = depth == 0 ? 0 : random.nextInt(3); n > 0; n--) {
      kids.add(randomTree(depth - 1));
    }
    tree.put("kids", kids);
    tree.put("parent", depth > 0 && random.nextInt(3) == 0 ? randomTree(depth - 1) : null);
    Map<String, Object> attrs = new java.util.HashMap<>();
    for (int n = random.nextInt(3); n > 0; n--) {
      int kind = random.nextInt(3);
      attrs.put(
          randomString(),
          kind == 0 ? null : kind == 1 || depth == 0 ? random.nextDouble() : randomTree(depth - 1));
    }
    tree.put("attrs", attrs);
    return tree;
  }

  private GenericRecord randomEnvelope(int i) {
    String[] ops = {"c", "u", "d", "r"};
    String op = ops[random.nextInt(ops.length)];
    GenericRecord before = op.equals("c") || op.equals("r") ? null : randomRow(i);
    GenericRecord after = op.equals("d") ? null : randomRow(i);
    GenericRecord envelope = envelope(op, before, after);
    if (random.nextBoolean()) {
      envelope.put("ts_ms", null);
    }
    return envelope;
  }

  private GenericRecord randomRow(int i) {
    GenericRecord row = row(random.nextInt(Integer.MAX_VALUE) - random.nextInt(1000));
    row.put("status", randomString());
    row.put("amount_cents", random.nextLong());
    row.put("note", random.nextBoolean() ? null : randomString());
    row.put("price", random.nextBoolean() ? null : random.nextDouble() * i);
    return row;
  }

  private String randomString() {
    StringBuilder s = new StringBuilder();
    for (int n = random.nextInt(12); n > 0; n--) {
      s.append(random.nextInt(10) == 0 ? '\u00e9' : (char) ('a' + random.nextInt(26)));
    }
    return s.toString();
  }

  /** An order row with every field set. */
  private static GenericRecord row(int id) {
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
  private static GenericRecord envelope(String op, GenericRecord before, GenericRecord after) {
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
}
