package io.sluice.schema.avro;

import io.sluice.schema.avro.AvroBodyException.Kind;
import java.util.IdentityHashMap;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Checks that Avro binary is exactly one datum of a writer schema, without building it and without
 * allocating. Every length and count is checked against the bytes left before it is trusted, so a
 * few poison bytes cannot make the caller allocate gigabytes (Avro's own reader allocates a
 * declared string length or array size first) or spin over billions of empty items.
 *
 * <p>Once {@link #validate} passes, decoding the same bytes with a {@code GenericDatumReader}
 * allocates at most a small multiple of their size. Immutable and thread-safe: build one per writer
 * schema and reuse it.
 */
public final class AvroBodyValidator {
  /** Items that take no bytes (null, empty records) allowed in one datum, all arrays together. */
  public static final int MAX_EMPTY_ITEMS = 65_536;

  /** Deepest nesting of records, arrays, maps and unions walked. */
  public static final int MAX_DEPTH = 256;

  private final Schema schema;
  private final Map<Schema, Integer> minSizes;

  private AvroBodyValidator(Schema schema) {
    this.schema = schema;
    this.minSizes = new IdentityHashMap<>();
    minSize(schema, minSizes);
  }

  public static AvroBodyValidator of(Schema writer) {
    return new AvroBodyValidator(writer);
  }

  public Schema schema() {
    return schema;
  }

  /**
   * @throws AvroBodyException when {@code data[offset, offset+length)} is not exactly one datum
   */
  public void validate(byte[] data, int offset, int length) {
    if (offset < 0 || length < 0 || offset + length > data.length) {
      throw new IndexOutOfBoundsException(
          "offset " + offset + " length " + length + " in " + data.length + " bytes");
    }
    Walk walk = new Walk(data, offset, offset + length);
    walk.datum(schema, 0);
    if (walk.pos != walk.end) {
      throw new AvroBodyException(
          Kind.TRAILING_BYTES,
          (walk.end - walk.pos)
              + " trailing bytes after the "
              + schema.getFullName()
              + " datum, which ends at byte "
              + (walk.pos - offset)
              + " of "
              + length);
    }
  }

  /** The fewest bytes a datum of {@code s} can take; 0 while a recursive type is computed. */
  private static int minSize(Schema s, Map<Schema, Integer> memo) {
    Integer known = memo.get(s);
    if (known != null) {
      return known;
    }
    memo.put(s, 0);
    int size =
        switch (s.getType()) {
          case NULL -> 0;
          case BOOLEAN, INT, LONG, ENUM, STRING, BYTES -> 1;
          case ARRAY -> {
            minSize(s.getElementType(), memo);
            yield 1;
          }
          case MAP -> {
            minSize(s.getValueType(), memo);
            yield 1;
          }
          case FLOAT -> 4;
          case DOUBLE -> 8;
          case FIXED -> s.getFixedSize();
          case UNION -> {
            int min = Integer.MAX_VALUE;
            for (Schema branch : s.getTypes()) {
              min = Math.min(min, minSize(branch, memo));
            }
            yield 1 + (min == Integer.MAX_VALUE ? 0 : min);
          }
          case RECORD -> {
            long sum = 0;
            for (Schema.Field field : s.getFields()) {
              sum += minSize(field.schema(), memo);
            }
            yield (int) Math.min(sum, Integer.MAX_VALUE);
          }
        };
    memo.put(s, size);
    return size;
  }

  /** One pass over one byte range. */
  private final class Walk {
    private final byte[] data;
    private final int start;
    private final int end;
    private int pos;
    private long emptyItems;

    Walk(byte[] data, int start, int end) {
      this.data = data;
      this.start = start;
      this.end = end;
      this.pos = start;
    }

    void datum(Schema s, int depth) {
      if (depth > MAX_DEPTH) {
        throw malformed("nesting deeper than " + MAX_DEPTH + " levels");
      }
      switch (s.getType()) {
        case NULL -> {}
        case BOOLEAN -> skip(1, "boolean");
        case INT -> varint(5, "int");
        case LONG -> varint(10, "long");
        case FLOAT -> skip(4, "float");
        case DOUBLE -> skip(8, "double");
        case FIXED -> skip(s.getFixedSize(), s.getFullName());
        case STRING, BYTES -> skip(length(s.getType().getName()), s.getType().getName());
        case ENUM -> index(s.getEnumSymbols().size(), "enum " + s.getFullName() + " symbol");
        case UNION -> {
          int branch = index(s.getTypes().size(), "union branch");
          datum(s.getTypes().get(branch), depth + 1);
        }
        case RECORD -> {
          for (Schema.Field field : s.getFields()) {
            datum(field.schema(), depth + 1);
          }
        }
        case ARRAY -> blocks(false, s.getElementType(), depth);
        case MAP -> blocks(true, s.getValueType(), depth);
      }
    }

    /** Array or map blocks: a count (negative: followed by a byte size), items, until 0. */
    private void blocks(boolean withKeys, Schema item, int depth) {
      int itemMin = (withKeys ? 1 : 0) + minSizes.getOrDefault(item, 0);
      while (true) {
        int at = pos;
        long count = readLong("block count");
        if (count == 0) {
          return;
        }
        if (count < 0) {
          count = -count;
          long size = readLong("block size");
          if (size < 0) {
            throw malformedAt(at, "block size " + size);
          }
          if (size > end - pos) {
            throw truncatedAt(
                at, "block of " + size + " bytes with " + (end - pos) + " bytes left");
          }
        }
        if (itemMin > 0 && count > (end - pos) / itemMin) {
          throw truncatedAt(
              at,
              count
                  + " items of at least "
                  + itemMin
                  + " bytes with "
                  + (end - pos)
                  + " bytes left");
        }
        if (itemMin == 0) {
          emptyItems += count;
          if (emptyItems > MAX_EMPTY_ITEMS) {
            throw malformedAt(at, "more than " + MAX_EMPTY_ITEMS + " items that take no bytes");
          }
        }
        for (long i = 0; i < count; i++) {
          if (withKeys) {
            skip(length("map key"), "map key");
          }
          datum(item, depth + 1);
        }
      }
    }

    private int length(String what) {
      int at = pos;
      long length = readLong(what + " length");
      if (length < 0) {
        throw malformedAt(at, what + " length " + length);
      }
      if (length > end - pos) {
        throw truncatedAt(
            at, what + " of " + length + " bytes with " + (end - pos) + " bytes left");
      }
      return (int) length;
    }

    private int index(int size, String what) {
      int at = pos;
      long index = readLong(what);
      if (index < 0 || index >= size) {
        throw malformedAt(at, what + " " + index + " of " + size);
      }
      return (int) index;
    }

    private void skip(int n, String what) {
      if (n > end - pos) {
        throw truncatedAt(pos, what + " needs " + n + " bytes, " + (end - pos) + " left");
      }
      pos += n;
    }

    private void varint(int maxBytes, String what) {
      int at = pos;
      for (int i = 0; i < maxBytes; i++) {
        if (pos >= end) {
          throw truncatedAt(at, what + " cut off");
        }
        if ((data[pos++] & 0x80) == 0) {
          return;
        }
      }
      throw malformedAt(at, what + " longer than " + maxBytes + " bytes");
    }

    /** A zig-zag varint long. */
    private long readLong(String what) {
      int at = pos;
      long raw = 0;
      for (int shift = 0; shift < 70; shift += 7) {
        if (pos >= end) {
          throw truncatedAt(at, what + " cut off");
        }
        int b = data[pos++] & 0xff;
        raw |= (long) (b & 0x7f) << shift;
        if ((b & 0x80) == 0) {
          return (raw >>> 1) ^ -(raw & 1);
        }
      }
      throw malformedAt(at, what + " longer than 10 bytes");
    }

    private AvroBodyException truncatedAt(int at, String detail) {
      return new AvroBodyException(Kind.TRUNCATED, "at byte " + (at - start) + ": " + detail);
    }

    private AvroBodyException malformedAt(int at, String detail) {
      return new AvroBodyException(Kind.MALFORMED, "at byte " + (at - start) + ": " + detail);
    }

    private AvroBodyException malformed(String detail) {
      return malformedAt(pos, detail);
    }
  }
}
