package io.sluice.router.validate.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.sluice.router.testing.Orders;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.apache.avro.Schema;
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
 * types.
 */
class AvroScannerFuzzTest {
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

  private final Random random = new Random(20261129L);
  private int compared;
  private Schema schema;
  private ScanNode plain;
  private ScanNode capturing;

  @Test
  void scannerAgreesWithAvroOnTheOrdersEnvelope() {
    List<byte[]> valid = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      valid.add(Orders.body(randomEnvelope(i)));
    }
    fuzz(
        Orders.ENVELOPE,
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
      valid.add(Orders.body((GenericRecord) record));
    }
    fuzz(KITCHEN_SINK, Map.of("i", Capture.slot(0), "choice", Capture.slot(1)), valid);
  }

  /** Valid records, every truncation of some, random mutations and noise. */
  private void fuzz(Schema schema, Map<String, Capture> captures, List<byte[]> valid) {
    this.schema = schema;
    this.plain = new ScanCompiler().compile(schema);
    this.capturing = new ScanCompiler().compile(schema, captures);
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
      compare(mutate(body));
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
    return withoutCaptures;
  }

  private static boolean accepts(ScanNode root, byte[] body, int slots) {
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

  private byte[] mutate(byte[] body) {
    byte[] copy = body.clone();
    switch (random.nextInt(5)) {
      case 0 -> {
        for (int n = 1 + random.nextInt(3); n > 0 && copy.length > 0; n--) {
          copy[random.nextInt(copy.length)] = (byte) random.nextInt(256);
        }
        return copy;
      }
      case 1 -> {
        if (copy.length > 0) {
          int at = random.nextInt(copy.length);
          copy[at] = (byte) (copy[at] ^ (1 << random.nextInt(8)));
        }
        return copy;
      }
      case 2 -> {
        int at = random.nextInt(copy.length + 1);
        byte[] longer = new byte[copy.length + 1];
        System.arraycopy(copy, 0, longer, 0, at);
        longer[at] = (byte) random.nextInt(256);
        System.arraycopy(copy, at, longer, at + 1, copy.length - at);
        return longer;
      }
      case 3 -> {
        if (copy.length == 0) {
          return copy;
        }
        int at = random.nextInt(copy.length);
        byte[] shorter = new byte[copy.length - 1];
        System.arraycopy(copy, 0, shorter, 0, at);
        System.arraycopy(copy, at + 1, shorter, at, copy.length - at - 1);
        return shorter;
      }
      default -> {
        byte[] longer = Arrays.copyOf(copy, copy.length + 1 + random.nextInt(4));
        return longer;
      }
    }
  }

  private GenericRecord randomEnvelope(int i) {
    String[] ops = {"c", "u", "d", "r"};
    String op = ops[random.nextInt(ops.length)];
    GenericRecord before = op.equals("c") || op.equals("r") ? null : randomRow(i);
    GenericRecord after = op.equals("d") ? null : randomRow(i);
    GenericRecord envelope = Orders.envelope(op, before, after);
    if (random.nextBoolean()) {
      envelope.put("ts_ms", null);
    }
    return envelope;
  }

  private GenericRecord randomRow(int i) {
    GenericRecord row = Orders.row(random.nextInt(Integer.MAX_VALUE) - random.nextInt(1000));
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
}
