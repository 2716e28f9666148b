package io.sluice.schema.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.junit.jupiter.api.Test;

class AvroScannerTest {
  private static final Duration FAST = Duration.ofSeconds(2);

  private static Schema parse(String json) {
    return new Schema.Parser().parse(json);
  }

  private static Schema record(String fields) {
    return parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":[" + fields + "]}");
  }

  /** Scans {@code body} (no wire header) and returns the end position. */
  private static int scan(Schema schema, byte[] body) {
    return AvroScanner.scan(new ScanCompiler().compile(schema), body, 0, new Captures(body, 0));
  }

  /** True when Avro's own reader decodes {@code body} completely. */
  private static boolean avroReads(Schema schema, byte[] body) {
    BinaryDecoder decoder = DecoderFactory.get().binaryDecoder(body, null);
    try {
      new GenericDatumReader<Object>(schema).read(null, decoder);
      return decoder.isEnd();
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  /** Zig-zag varint of {@code value}, as Avro writes longs. */
  private static byte[] varint(long value) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    long n = (value << 1) ^ (value >> 63);
    while ((n & ~0x7FL) != 0) {
      out.write((int) ((n & 0x7F) | 0x80));
      n >>>= 7;
    }
    out.write((int) n);
    return out.toByteArray();
  }

  private static byte[] concat(byte[]... parts) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    for (byte[] part : parts) {
      out.writeBytes(part);
    }
    return out.toByteArray();
  }

  @Test
  void hugeArrayCountOfNullsFailsFastInsteadOfSpinning() {
    Schema schema = record("{\"name\":\"items\",\"type\":{\"type\":\"array\",\"items\":\"null\"}}");
    byte[] body = concat(varint(1L << 40), varint(0));
    assertTimeoutPreemptively(
        FAST,
        () ->
            assertThatThrownBy(() -> scan(schema, body))
                .isInstanceOf(AvroDecodeException.class)
                .hasMessageContaining("array block of 1099511627776 items exceeds")
                .hasMessageContaining("(field items)"));
  }

  @Test
  void arrayOfNullsWithinTheBudgetIsRead() {
    Schema schema = record("{\"name\":\"items\",\"type\":{\"type\":\"array\",\"items\":\"null\"}}");
    byte[] body = concat(varint(20), varint(0));
    assertThat(scan(schema, body)).isEqualTo(body.length);
  }

  @Test
  void hugeArrayCountOfIntsFailsAtTheEndOfTheBytes() {
    Schema schema = record("{\"name\":\"items\",\"type\":{\"type\":\"array\",\"items\":\"int\"}}");
    byte[] body = concat(varint(Integer.MAX_VALUE), varint(1), varint(2));
    assertTimeoutPreemptively(
        FAST,
        () ->
            assertThatThrownBy(() -> scan(schema, body))
                .isInstanceOf(AvroDecodeException.class)
                .hasMessageContaining("items"));
  }

  @Test
  void negativeBlockCountIsFollowedByASize() {
    Schema schema = record("{\"name\":\"items\",\"type\":{\"type\":\"array\",\"items\":\"int\"}}");
    byte[] body = concat(varint(-2), varint(2), varint(5), varint(6), varint(0));
    assertThat(scan(schema, body)).isEqualTo(body.length);
  }

  @Test
  void mapKeysAndValuesAreRead() {
    Schema schema = record("{\"name\":\"m\",\"type\":{\"type\":\"map\",\"values\":\"long\"}}");
    byte[] body = concat(varint(1), varint(1), new byte[] {'k'}, varint(42), varint(0));
    assertThat(scan(schema, body)).isEqualTo(body.length);
    byte[] badKey = concat(varint(1), varint(9), new byte[] {'k'}, varint(42), varint(0));
    assertThatThrownBy(() -> scan(schema, badKey))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("map key length 9 exceeds the")
        .hasMessageContaining("(field m.{})");
  }

  @Test
  void hugeStringLengthIsRejectedBeforeAnyCopy() {
    Schema schema = record("{\"name\":\"s\",\"type\":\"string\"}");
    byte[] body = concat(varint(Long.MAX_VALUE / 2), new byte[] {'a', 'b'});
    assertThatThrownBy(() -> scan(schema, body))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("string length 4611686018427387903 exceeds the 2 remaining bytes")
        .hasMessageContaining("at byte 0 (field s)");
  }

  @Test
  void negativeBytesLengthIsRejected() {
    Schema schema = record("{\"name\":\"b\",\"type\":\"bytes\"}");
    assertThatThrownBy(() -> scan(schema, varint(-3)))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("bytes length -3 is negative");
  }

  @Test
  void deepRecursionStopsAtTheDepthLimit() {
    Schema node =
        parse(
            "{\"type\":\"record\",\"name\":\"Node\",\"fields\":["
                + "{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}");
    byte[] deep = new byte[100_000];
    java.util.Arrays.fill(deep, (byte) 2); // union branch 1 = another Node, forever
    assertTimeoutPreemptively(
        FAST,
        () ->
            assertThatThrownBy(() -> scan(node, deep))
                .isInstanceOf(AvroDecodeException.class)
                .hasMessageContaining("nesting deeper than " + AvroScanner.MAX_DEPTH));
    byte[] shallow = new byte[41];
    java.util.Arrays.fill(shallow, (byte) 2);
    shallow[40] = 0;
    assertThat(scan(node, shallow)).isEqualTo(41);
  }

  @Test
  void recursionThatConsumesNoBytesStops() {
    Schema loop =
        parse("{\"type\":\"record\",\"name\":\"A\",\"fields\":[{\"name\":\"a\",\"type\":\"A\"}]}");
    assertThatThrownBy(() -> scan(loop, new byte[0]))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("nesting deeper than");
  }

  @Test
  void varintsLongerThanTheirTypeAllowsAreRejected() {
    Schema ints = record("{\"name\":\"i\",\"type\":\"int\"}");
    byte[] sixBytes = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01};
    assertThatThrownBy(() -> scan(ints, sixBytes))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("int varint longer than 5 bytes");
    Schema longs = record("{\"name\":\"l\",\"type\":\"long\"}");
    byte[] elevenBytes = new byte[11];
    java.util.Arrays.fill(elevenBytes, (byte) 0x80);
    assertThatThrownBy(() -> scan(longs, elevenBytes))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("long varint longer than 10 bytes");
    assertThatThrownBy(() -> scan(longs, new byte[] {(byte) 0x80}))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("truncated long");
  }

  @Test
  void varintsOfEveryLengthAreReadWithBytesAfterThem() {
    // Eight or more bytes from a varint on, its end is found with one 8-byte read: every length,
    // too long ones and ones cut off by the limit must come out as the byte-by-byte reading does.
    Schema pair = record("{\"name\":\"l\",\"type\":\"long\"},{\"name\":\"i\",\"type\":\"int\"}");
    byte[] padding = new byte[16];
    for (long value :
        new long[] {
          0,
          -1,
          63,
          64,
          8191,
          1L << 20,
          1L << 40,
          1L << 48,
          1L << 55,
          1L << 56,
          1L << 62,
          Long.MAX_VALUE,
          Long.MIN_VALUE
        }) {
      byte[] body = concat(varint(value), varint(Integer.MIN_VALUE), padding);
      int end = varint(value).length + varint(Integer.MIN_VALUE).length;
      assertThat(scan(pair, body)).as("long %d", value).isEqualTo(end);
    }
    Schema ints = record("{\"name\":\"i\",\"type\":\"int\"}");
    byte[] sixBytes = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x01};
    assertThatThrownBy(() -> scan(ints, concat(sixBytes, padding)))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("int varint longer than 5 bytes");
    byte[] threeBytes = concat(varint(1L << 20), padding);
    ScanPlan longPlan = new ScanCompiler().compile(record("{\"name\":\"l\",\"type\":\"long\"}"));
    assertThatThrownBy(
            () -> AvroScanner.scan(longPlan, threeBytes, 0, 2, new Captures(threeBytes, 0)))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("truncated long");
  }

  @Test
  void booleanMustBeZeroOrOne() {
    Schema schema = record("{\"name\":\"flag\",\"type\":\"boolean\"}");
    assertThat(scan(schema, new byte[] {1})).isEqualTo(1);
    assertThatThrownBy(() -> scan(schema, new byte[] {2}))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("boolean byte is neither 0 nor 1");
  }

  @Test
  void enumAndUnionIndexesMustBeInRange() {
    Schema enumSchema =
        record(
            "{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"E\",\"symbols\":[\"A\",\"B\"]}}");
    assertThatThrownBy(() -> scan(enumSchema, varint(2)))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("enum index 2 out of range for enum E (2 symbols)");
    Schema union = record("{\"name\":\"u\",\"type\":[\"null\",\"int\"]}");
    assertThatThrownBy(() -> scan(union, varint(-1)))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("union branch -1 out of range (2 branches)");
  }

  @Test
  void fixedFloatAndDoubleNeedTheirBytes() {
    Schema schema =
        record(
            "{\"name\":\"f\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}},"
                + "{\"name\":\"x\",\"type\":\"float\"},{\"name\":\"d\",\"type\":\"double\"}");
    assertThat(scan(schema, new byte[15])).isEqualTo(15);
    assertThatThrownBy(() -> scan(schema, new byte[14]))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("double needs 8 bytes, 7 remain")
        .hasMessageContaining("(field d)");
  }

  @Test
  void capturesCompareValuesAcrossBuffers() {
    Schema key =
        record("{\"name\":\"id\",\"type\":\"long\"},{\"name\":\"code\",\"type\":\"string\"}");
    Schema row =
        parse(
            "{\"type\":\"record\",\"name\":\"Row\",\"fields\":["
                + "{\"name\":\"code\",\"type\":[\"null\",\"string\"]},"
                + "{\"name\":\"id\",\"type\":\"int\"}]}");
    Map<String, Capture> keySlots = Map.of("id", Capture.slot(0), "code", Capture.slot(1));
    byte[] keyBytes = concat(varint(7), varint(2), new byte[] {'a', 'b'});
    byte[] rowBytes = concat(varint(1), varint(2), new byte[] {'a', 'b'}, varint(7));
    Captures k = new Captures(keyBytes, 2);
    Captures r = new Captures(rowBytes, 2);
    AvroScanner.scan(new ScanCompiler().compile(key, keySlots), keyBytes, 0, k);
    AvroScanner.scan(new ScanCompiler().compile(row, keySlots), rowBytes, 0, r);
    assertThat(k.sameValue(0, r, 0)).as("long 7 equals int 7").isTrue();
    assertThat(k.sameValue(1, r, 1)).as("string equals the union's string branch").isTrue();

    byte[] otherRow = concat(varint(0), varint(8));
    Captures o = new Captures(otherRow, 2);
    AvroScanner.scan(new ScanCompiler().compile(row, keySlots), otherRow, 0, o);
    assertThat(k.sameValue(0, o, 0)).isFalse();
    assertThat(o.kind(1)).isEqualTo(Captures.NULL);
    assertThat(k.sameValue(1, o, 1)).isFalse();
  }

  @Test
  void optionalFieldsAcceptTheLongFormOfTheirBranchIndex() {
    Schema schema =
        record(
            "{\"name\":\"n\",\"type\":[\"null\",\"long\"]},"
                + "{\"name\":\"s\",\"type\":[\"null\",\"string\"]}");
    // Branch 1 as the two-byte varint 0x82 0x00, branch 0 as 0x80 0x00: Avro reads both.
    byte[] body = concat(new byte[] {(byte) 0x82, 0x00}, varint(7), new byte[] {(byte) 0x80, 0});
    assertThat(avroReads(schema, body)).isTrue();
    assertThat(scan(schema, body)).isEqualTo(body.length);
    byte[] badBranch = concat(varint(0), varint(2));
    assertThatThrownBy(() -> scan(schema, badBranch))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("union branch 2 out of range (2 branches) at byte 1 (field s)");
  }

  @Test
  void failuresInsideRecursiveRecordsNameTheWholePath() {
    Schema node =
        parse(
            "{\"type\":\"record\",\"name\":\"Node\",\"fields\":["
                + "{\"name\":\"v\",\"type\":\"int\"},"
                + "{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}");
    byte[] twoNodes = concat(varint(1), varint(1), varint(2), varint(0));
    assertThat(scan(node, twoNodes)).isEqualTo(twoNodes.length);
    byte[] cut = concat(varint(1), varint(1), varint(2), varint(1));
    assertThatThrownBy(() -> scan(node, cut))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessage("truncated int at byte 4 (field next.next.v)");
  }

  @Test
  void nestingBeyondTheLimitFailsOnlyWhereTheBytesGo() {
    // Not recursive, but 70 records deep, each behind a union: 140 levels.
    StringBuilder schema = new StringBuilder();
    for (int level = 0; level < 70; level++) {
      schema.append("{\"type\":\"record\",\"name\":\"L").append(level).append("\",\"fields\":[");
      schema.append("{\"name\":\"x\",\"type\":[\"null\",");
    }
    schema.append("\"int\"");
    schema.append("]}]}".repeat(70));
    Schema deep = parse(schema.toString());
    assertThat(scan(deep, varint(0))).isEqualTo(1);
    byte[] allTheWay = new byte[71];
    java.util.Arrays.fill(allTheWay, (byte) 2);
    allTheWay[70] = 0;
    assertThat(avroReads(deep, allTheWay)).isTrue();
    assertThatThrownBy(() -> scan(deep, allTheWay))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining(
            "nesting deeper than " + AvroScanner.MAX_DEPTH + " levels at byte 64");
  }

  @Test
  void aRecordTypeRepeatedExponentiallyKeepsThePlanSmall() {
    // L0 has two fields of type L1, L1 two of L2, ... L15 one int: 2^15 ints when laid out inline.
    Schema leaf = record("{\"name\":\"i\",\"type\":\"int\"}");
    Schema level = leaf;
    for (int i = 15; i >= 0; i--) {
      level =
          parse(
              "{\"type\":\"record\",\"name\":\"L"
                  + i
                  + "\",\"fields\":[{\"name\":\"a\",\"type\":"
                  + level
                  + "},{\"name\":\"b\",\"type\":\""
                  + (i == 15 ? "R" : "L" + (i + 1))
                  + "\"}]}");
    }
    Schema top = level;
    ScanPlan plan = new ScanCompiler().compile(top);
    assertThat(plan.size()).isLessThan(2 * ScanCompiler.INLINE_LIMIT);
    byte[] zeros = new byte[1 << 16];
    assertThat(avroReads(top, zeros)).isTrue();
    assertThat(scan(top, zeros)).isEqualTo(zeros.length);
    assertThatThrownBy(() -> scan(top, java.util.Arrays.copyOf(zeros, zeros.length - 1)))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining(
            "truncated int at byte 65535 (field b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.b.i)");
  }

  @Test
  void capturesCanBeResetAndReusedForTheNextScan() {
    Schema row =
        parse(
            "{\"type\":\"record\",\"name\":\"Row\",\"fields\":["
                + "{\"name\":\"code\",\"type\":[\"null\",\"string\"]},"
                + "{\"name\":\"id\",\"type\":\"int\"}]}");
    ScanPlan plan =
        new ScanCompiler().compile(row, Map.of("code", Capture.slot(0), "id", Capture.slot(1)));
    byte[] first = concat(varint(1), varint(2), new byte[] {'a', 'b'}, varint(7));
    byte[] second = concat(varint(0), varint(8));
    Captures captures = new Captures(2);

    AvroScanner.scan(plan, first, 0, captures.reset(first));
    assertThat(captures.bytesEqual(0, new byte[] {'a', 'b'})).isTrue();

    AvroScanner.scan(plan, second, 0, captures.reset(second));
    assertThat(captures.kind(0)).isEqualTo(Captures.NULL);
    Captures expected = new Captures(second, 2);
    AvroScanner.scan(plan, second, 0, expected);
    assertThat(captures.sameValue(1, expected, 1)).as("id 8 of the second row").isTrue();

    captures.reset(first);
    assertThat(captures.kind(0)).isEqualTo(Captures.ABSENT);
    assertThat(captures.kind(1)).isEqualTo(Captures.ABSENT);
    assertThatThrownBy(() -> Captures.NONE.reset(first))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("Captures.NONE is shared");
  }

  @Test
  void everyScalarKindIsCapturedPlainOrOptional() {
    Schema row =
        record(
            "{\"name\":\"i\",\"type\":\"int\"},{\"name\":\"l\",\"type\":\"long\"},"
                + "{\"name\":\"f\",\"type\":\"float\"},{\"name\":\"d\",\"type\":\"double\"},"
                + "{\"name\":\"s\",\"type\":\"string\"},{\"name\":\"b\",\"type\":\"bytes\"},"
                + "{\"name\":\"oi\",\"type\":[\"null\",\"int\"]},"
                + "{\"name\":\"os\",\"type\":[\"null\",\"string\"]},"
                + "{\"name\":\"rec\",\"type\":[\"null\",{\"type\":\"record\",\"name\":\"In\","
                + "\"fields\":[{\"name\":\"x\",\"type\":\"int\"}]}]}");
    Map<String, Capture> slots = new java.util.HashMap<>();
    String[] names = {"i", "l", "f", "d", "s", "b", "oi", "os", "rec"};
    for (int slot = 0; slot < names.length; slot++) {
      slots.put(names[slot], Capture.slot(slot));
    }
    ScanPlan plan = new ScanCompiler().compile(row, slots);
    byte[] floatBytes = {0, 0, (byte) 0xc0, 0x3f}; // 1.5f
    byte[] doubleBytes = {0, 0, 0, 0, 0, 0, 4, 0x40}; // 2.5
    byte[] first =
        concat(
            varint(7),
            varint(7),
            floatBytes,
            doubleBytes,
            varint(2),
            new byte[] {'a', 'b'},
            varint(2),
            new byte[] {1, 2},
            varint(1),
            varint(7),
            new byte[] {(byte) 0x80, 0}, // os: null, its index in two bytes
            varint(1),
            varint(3));
    Captures a = new Captures(first, names.length);
    assertThat(AvroScanner.scan(plan, first, 0, a)).isEqualTo(first.length);
    assertThat(a.kind(0)).isEqualTo(Captures.INTEGER);
    assertThat(a.sameValue(0, a, 1)).as("int 7 equals long 7").isTrue();
    assertThat(a.sameValue(0, a, 6)).as("int 7 equals optional int 7").isTrue();
    assertThat(a.kind(2)).isEqualTo(Captures.FLOAT);
    assertThat(a.kind(3)).isEqualTo(Captures.DOUBLE);
    assertThat(a.bytesEqual(4, new byte[] {'a', 'b'})).isTrue();
    assertThat(a.bytesEqual(5, new byte[] {1, 2})).isTrue();
    assertThat(a.kind(7)).isEqualTo(Captures.NULL);
    assertThat(a.kind(8)).isEqualTo(Captures.COMPLEX);
    assertThat(a.length(8)).as("the In record: one varint").isEqualTo(1);

    byte[] second =
        concat(
            varint(8),
            varint(7),
            floatBytes,
            new byte[8],
            varint(0),
            varint(0),
            varint(0),
            varint(1),
            varint(1),
            new byte[] {'a'},
            varint(0));
    Captures b = new Captures(second, names.length);
    assertThat(AvroScanner.scan(plan, second, 0, b)).isEqualTo(second.length);
    assertThat(a.sameValue(0, b, 0)).isFalse();
    assertThat(a.sameValue(1, b, 1)).isTrue();
    assertThat(a.sameValue(2, b, 2)).as("same float bits").isTrue();
    assertThat(a.sameValue(3, b, 3)).as("2.5 is not 0.0").isFalse();
    assertThat(b.kind(6)).isEqualTo(Captures.NULL);
    assertThat(b.bytesEqual(7, new byte[] {'a'})).isTrue();
    assertThat(b.singleByte(7)).isEqualTo('a');
    assertThat(a.singleByte(4)).as("two bytes").isEqualTo(-1);
    assertThat(a.singleByte(0)).as("not bytes").isEqualTo(-1);
    assertThat(b.kind(8)).isEqualTo(Captures.NULL);
    assertThatThrownBy(() -> AvroScanner.scan(plan, first, 0, first.length - 1, a))
        .isInstanceOf(AvroDecodeException.class)
        .hasMessageContaining("truncated int at byte " + (first.length - 1) + " (field rec.x)");
  }
}
