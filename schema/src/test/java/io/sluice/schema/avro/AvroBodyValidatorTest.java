package io.sluice.schema.avro;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.schema.avro.AvroBodyException.Kind;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.junit.jupiter.api.Test;

class AvroBodyValidatorTest {
  private static final Schema EVERYTHING =
      new Schema.Parser()
          .parse(
              "{\"type\":\"record\",\"name\":\"E\",\"fields\":["
                  + "{\"name\":\"flag\",\"type\":\"boolean\"},"
                  + "{\"name\":\"i\",\"type\":\"int\"},"
                  + "{\"name\":\"l\",\"type\":\"long\"},"
                  + "{\"name\":\"f\",\"type\":\"float\"},"
                  + "{\"name\":\"d\",\"type\":\"double\"},"
                  + "{\"name\":\"s\",\"type\":[\"null\",\"string\"]},"
                  + "{\"name\":\"b\",\"type\":\"bytes\"},"
                  + "{\"name\":\"fx\",\"type\":{\"type\":\"fixed\",\"name\":\"F\",\"size\":3}},"
                  + "{\"name\":\"op\",\"type\":{\"type\":\"enum\",\"name\":\"Op\",\"symbols\":[\"c\",\"u\",\"d\"]}},"
                  + "{\"name\":\"tags\",\"type\":{\"type\":\"array\",\"items\":\"long\"}},"
                  + "{\"name\":\"attrs\",\"type\":{\"type\":\"map\",\"values\":\"string\"}}]}");

  private static final AvroBodyValidator VALIDATOR = AvroBodyValidator.of(EVERYTHING);

  @Test
  void aWellFormedDatumPasses() {
    byte[] bytes = encode(everything());

    VALIDATOR.validate(bytes, 0, bytes.length);

    byte[] framed = new byte[bytes.length + 7];
    System.arraycopy(bytes, 0, framed, 5, bytes.length);
    VALIDATOR.validate(framed, 5, bytes.length);
  }

  @Test
  void everyStrictPrefixIsTruncated() {
    byte[] bytes = encode(everything());

    for (int length = 0; length < bytes.length; length++) {
      int cut = length;
      assertThatThrownBy(() -> VALIDATOR.validate(bytes, 0, cut))
          .as("prefix of %d bytes", cut)
          .isInstanceOf(AvroBodyException.class)
          .hasMessageStartingWith("at byte ")
          .extracting(e -> ((AvroBodyException) e).kind())
          .isEqualTo(Kind.TRUNCATED);
    }
  }

  @Test
  void bytesAfterTheDatumAreTrailing() {
    byte[] bytes = Arrays.copyOf(encode(everything()), encode(everything()).length + 2);

    assertThatThrownBy(() -> VALIDATOR.validate(bytes, 0, bytes.length))
        .isInstanceOf(AvroBodyException.class)
        .hasMessage(
            "2 trailing bytes after the E datum, which ends at byte "
                + (bytes.length - 2)
                + " of "
                + bytes.length)
        .extracting(e -> ((AvroBodyException) e).kind())
        .isEqualTo(Kind.TRAILING_BYTES);
  }

  @Test
  void aHugeDeclaredStringLengthIsRefusedBeforeAnyAllocation() {
    Schema schema = record("{\"name\":\"s\",\"type\":\"string\"}");
    byte[] poison = longs(900_000_000L);

    assertThatThrownBy(() -> AvroBodyValidator.of(schema).validate(poison, 0, poison.length))
        .isInstanceOf(AvroBodyException.class)
        .hasMessage("at byte 0 (field s): string length 900000000 exceeds the 0 remaining bytes")
        .extracting(e -> ((AvroBodyException) e).kind())
        .isEqualTo(Kind.TRUNCATED);
  }

  @Test
  void aHugeArrayCountIsRefusedWithoutWalkingIt() {
    Schema longs = record("{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"long\"}}");
    Schema nulls = record("{\"name\":\"a\",\"type\":{\"type\":\"array\",\"items\":\"null\"}}");
    byte[] poison = longs(900_000_000L, 0);

    assertThatThrownBy(() -> AvroBodyValidator.of(longs).validate(poison, 0, poison.length))
        .isInstanceOf(AvroBodyException.class)
        .hasMessage(
            "at byte 5 (field a): array block of 900000000 items exceeds what 1 remaining bytes"
                + " can hold");
    assertThatThrownBy(() -> AvroBodyValidator.of(nulls).validate(poison, 0, poison.length))
        .isInstanceOf(AvroBodyException.class)
        .hasMessage(
            "at byte 5 (field a): array block of 900000000 items exceeds what 1 remaining bytes"
                + " can hold")
        .extracting(e -> ((AvroBodyException) e).kind())
        .isEqualTo(Kind.MALFORMED);
    byte[] fewNulls = longs(3, 0);
    AvroBodyValidator.of(nulls).validate(fewNulls, 0, fewNulls.length);
  }

  @Test
  void impossibleUnionBranchesEnumSymbolsAndLengthsAreMalformed() {
    Schema union = record("{\"name\":\"u\",\"type\":[\"null\",\"long\"]}");
    Schema enumSchema =
        record("{\"name\":\"e\",\"type\":{\"type\":\"enum\",\"name\":\"Op\",\"symbols\":[\"c\"]}}");
    Schema bytes = record("{\"name\":\"b\",\"type\":\"bytes\"}");

    assertThatThrownBy(() -> AvroBodyValidator.of(union).validate(longs(2), 0, 1))
        .hasMessage("at byte 0 (field u): union branch 2 out of range (2 branches)");
    assertThatThrownBy(() -> AvroBodyValidator.of(enumSchema).validate(longs(-1), 0, 1))
        .hasMessage("at byte 0 (field e): enum index -1 out of range for enum Op (1 symbols)");
    assertThatThrownBy(() -> AvroBodyValidator.of(bytes).validate(longs(-3), 0, 1))
        .hasMessage("at byte 0 (field b): bytes length -3 is negative")
        .extracting(e -> ((AvroBodyException) e).kind())
        .isEqualTo(Kind.MALFORMED);
  }

  @Test
  void anOverlongVarintIsMalformed() {
    Schema schema = record("{\"name\":\"i\",\"type\":\"int\"}");
    byte[] overlong = {(byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 1};

    assertThatThrownBy(() -> AvroBodyValidator.of(schema).validate(overlong, 0, overlong.length))
        .hasMessage("at byte 0 (field i): int varint longer than 5 bytes");
  }

  @Test
  void recursiveSchemasAreWalkedAndTheirDepthBounded() {
    Schema list =
        new Schema.Parser()
            .parse(
                "{\"type\":\"record\",\"name\":\"Node\",\"fields\":[{\"name\":\"v\",\"type\":\"int\"},"
                    + "{\"name\":\"next\",\"type\":[\"null\",\"Node\"]}]}");
    AvroBodyValidator validator = AvroBodyValidator.of(list);
    byte[] three = {2, 2, 4, 2, 6, 0};
    validator.validate(three, 0, three.length);

    byte[] deep = new byte[2 * 200 + 2];
    for (int i = 0; i < deep.length - 2; i += 2) {
      deep[i] = 2;
      deep[i + 1] = 2;
    }
    assertThatThrownBy(() -> validator.validate(deep, 0, deep.length))
        .isInstanceOf(AvroBodyException.class)
        .hasMessageContaining("nesting deeper than 128 levels");
  }

  private static GenericRecord everything() {
    GenericRecord record = new GenericData.Record(EVERYTHING);
    record.put("flag", true);
    record.put("i", -70_000);
    record.put("l", Long.MAX_VALUE);
    record.put("f", 1.5f);
    record.put("d", 2.5);
    record.put("s", "héllo");
    record.put("b", ByteBuffer.wrap(new byte[] {1, 2, 3, 4}));
    record.put(
        "fx", new GenericData.Fixed(EVERYTHING.getField("fx").schema(), new byte[] {7, 8, 9}));
    record.put("op", new GenericData.EnumSymbol(EVERYTHING.getField("op").schema(), "u"));
    record.put("tags", List.of(1L, 300L, -5L));
    record.put("attrs", Map.of("k", "v", "key2", "value2"));
    return record;
  }

  private static byte[] encode(GenericRecord record) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
      new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
      encoder.flush();
      return out.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] longs(long... values) {
    try {
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
      for (long value : values) {
        encoder.writeLong(value);
      }
      encoder.flush();
      return out.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Schema record(String fields) {
    return new Schema.Parser()
        .parse("{\"type\":\"record\",\"name\":\"R\",\"fields\":[" + fields + "]}");
  }
}
