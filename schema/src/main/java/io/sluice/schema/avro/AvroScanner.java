package io.sluice.schema.avro;

/**
 * Checks that bytes are one complete value of a compiled schema, following the Avro binary
 * encoding, without building objects. It reads every item, so it accepts exactly what Avro's {@code
 * GenericDatumReader} reads without error, with two deliberate differences: a boolean byte must be
 * 0 or 1 (the spec; Avro's decoder takes any non-1 byte as false), and zero-byte items (nulls,
 * empty records) in arrays and maps are bounded by a budget of 8 items per input byte.
 *
 * <p>Bounded by construction: no allocation beyond the {@link Captures} slots, every length is
 * checked against the remaining bytes before use, array and map item counts are charged against the
 * budget, and nesting stops at {@link #MAX_DEPTH} (schemas can be recursive).
 */
public final class AvroScanner {
  /** Deepest nesting of records, unions, arrays and maps that is scanned. */
  public static final int MAX_DEPTH = 128;

  private static final long BUDGET_PER_BYTE = 8;
  private static final long BUDGET_BASE = 64;

  private final byte[] buf;
  private final int limit;
  private final Captures captures;
  private int pos;
  private long itemBudget;

  private AvroScanner(byte[] buf, int offset, int limit, Captures captures) {
    this.buf = buf;
    this.limit = limit;
    this.pos = offset;
    this.captures = captures;
    this.itemBudget = BUDGET_BASE + BUDGET_PER_BYTE * (limit - offset);
  }

  /**
   * Scans one value of {@code root} starting at {@code offset}.
   *
   * @return the position after the value; less than {@code buf.length} means trailing bytes
   * @throws AvroDecodeException when the bytes are not a value of the schema
   */
  public static int scan(ScanNode root, byte[] buf, int offset, Captures captures) {
    return scan(root, buf, offset, buf.length, captures);
  }

  /**
   * Scans one value of {@code root} in {@code buf[offset, limit)}; the bytes from {@code limit} on
   * are not read. Pass {@link Captures#NONE} for a plan compiled without captures.
   *
   * @return the position after the value; less than {@code limit} means trailing bytes
   * @throws AvroDecodeException when the bytes are not a value of the schema
   */
  public static int scan(ScanNode root, byte[] buf, int offset, int limit, Captures captures) {
    AvroScanner scanner = new AvroScanner(buf, offset, limit, captures);
    scanner.value(root, -1, 0);
    return scanner.pos;
  }

  private void value(ScanNode node, int slot, int depth) {
    switch (node.kind) {
      case ScanNode.NULL:
        if (slot >= 0) {
          captures.setNull(slot);
        }
        return;
      case ScanNode.BOOLEAN:
        {
          require(1, node);
          int b = buf[pos];
          if (b != 0 && b != 1) {
            throw fail("boolean byte is neither 0 nor 1");
          }
          pos++;
          if (slot >= 0) {
            captures.setScalar(slot, Captures.BOOLEAN, b);
          }
          return;
        }
      case ScanNode.INT:
        {
          int v = readInt();
          if (slot >= 0) {
            captures.setScalar(slot, Captures.INTEGER, v);
          }
          return;
        }
      case ScanNode.LONG:
        {
          long v = readLong();
          if (slot >= 0) {
            captures.setScalar(slot, Captures.INTEGER, v);
          }
          return;
        }
      case ScanNode.FLOAT:
        require(4, node);
        if (slot >= 0) {
          captures.setScalar(slot, Captures.FLOAT, littleEndian(4));
        }
        pos += 4;
        return;
      case ScanNode.DOUBLE:
        require(8, node);
        if (slot >= 0) {
          captures.setScalar(slot, Captures.DOUBLE, littleEndian(8));
        }
        pos += 8;
        return;
      case ScanNode.BYTES:
      case ScanNode.STRING:
        {
          int length = readLength(node);
          if (slot >= 0) {
            captures.setRange(slot, Captures.BYTES, pos, length);
          }
          pos += length;
          return;
        }
      case ScanNode.FIXED:
        require(node.fixedSize, node);
        if (slot >= 0) {
          captures.setRange(slot, Captures.BYTES, pos, node.fixedSize);
        }
        pos += node.fixedSize;
        return;
      case ScanNode.ENUM:
        {
          int start = pos;
          int index = readInt();
          if (index < 0 || index >= node.symbols.length) {
            throw new AvroDecodeException(
                "enum index "
                    + index
                    + " out of range for "
                    + node.typeName
                    + " ("
                    + node.symbols.length
                    + " symbols)",
                start);
          }
          if (slot >= 0) {
            captures.setEnum(slot, index, node.symbols);
          }
          return;
        }
      case ScanNode.UNION:
        {
          checkDepth(depth);
          int start = pos;
          int index = readInt();
          if (index < 0 || index >= node.children.length) {
            throw new AvroDecodeException(
                "union branch " + index + " out of range (" + node.children.length + " branches)",
                start);
          }
          value(node.children[index], slot, depth + 1);
          return;
        }
      case ScanNode.ARRAY:
      case ScanNode.MAP:
        {
          checkDepth(depth);
          int start = pos;
          blocks(node, depth);
          if (slot >= 0) {
            captures.setRange(slot, Captures.COMPLEX, start, pos - start);
          }
          return;
        }
      case ScanNode.RECORD:
        {
          checkDepth(depth);
          int start = pos;
          ScanNode[] fields = node.children;
          int[] slots = node.slots;
          for (int i = 0; i < fields.length; i++) {
            try {
              value(fields[i], slots == null ? -1 : slots[i], depth + 1);
            } catch (AvroDecodeException e) {
              throw e.inside(node.fieldNames[i]);
            }
          }
          if (slot >= 0) {
            captures.setRange(slot, Captures.COMPLEX, start, pos - start);
          }
          return;
        }
      default:
        throw new IllegalStateException("unknown node kind " + node.kind);
    }
  }

  private void blocks(ScanNode node, int depth) {
    ScanNode item = node.children[0];
    boolean map = node.kind == ScanNode.MAP;
    long count = readLong();
    while (count != 0) {
      if (count < 0) {
        if (count == Long.MIN_VALUE) {
          throw fail("invalid " + node.typeName + " block count");
        }
        count = -count;
        readLong(); // block size in bytes: Avro readers ignore it, so does the scanner
      }
      if (count > itemBudget) {
        throw fail(
            node.typeName
                + " block of "
                + count
                + " items exceeds what "
                + (limit - pos)
                + " remaining bytes can hold");
      }
      itemBudget -= count;
      for (long i = 0; i < count; i++) {
        try {
          if (map) {
            int keyLength = readLength(null); // read before adding: pos moves past the length
            pos += keyLength;
          }
          value(item, -1, depth + 1);
        } catch (AvroDecodeException e) {
          throw e.inside(map ? "{}" : "[]");
        }
      }
      count = readLong();
    }
  }

  private int readInt() {
    int start = pos;
    int value = 0;
    for (int shift = 0; shift < 32; shift += 7) {
      if (pos >= limit) {
        throw new AvroDecodeException("truncated int", start, true);
      }
      int b = buf[pos++] & 0xff;
      value |= (b & 0x7f) << shift;
      if (b < 0x80) {
        return (value >>> 1) ^ -(value & 1);
      }
    }
    throw new AvroDecodeException("int varint longer than 5 bytes", start);
  }

  private long readLong() {
    int start = pos;
    long value = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      if (pos >= limit) {
        throw new AvroDecodeException("truncated long", start, true);
      }
      int b = buf[pos++] & 0xff;
      value |= (long) (b & 0x7f) << shift;
      if (b < 0x80) {
        return (value >>> 1) ^ -(value & 1);
      }
    }
    throw new AvroDecodeException("long varint longer than 10 bytes", start);
  }

  /** A bytes/string length, checked against the remaining bytes. */
  private int readLength(ScanNode node) {
    int start = pos;
    long length = readLong();
    String what = node == null ? "map key" : node.typeName;
    if (length < 0) {
      throw new AvroDecodeException(what + " length " + length + " is negative", start);
    }
    if (length > limit - pos) {
      throw new AvroDecodeException(
          what + " length " + length + " exceeds the " + (limit - pos) + " remaining bytes",
          start,
          true);
    }
    return (int) length;
  }

  private void require(int bytes, ScanNode node) {
    if (limit - pos < bytes) {
      throw new AvroDecodeException(
          node.typeName + " needs " + bytes + " bytes, " + (limit - pos) + " remain (truncated)",
          pos,
          true);
    }
  }

  private long littleEndian(int bytes) {
    long v = 0;
    for (int i = bytes - 1; i >= 0; i--) {
      v = (v << 8) | (buf[pos + i] & 0xff);
    }
    return v;
  }

  private void checkDepth(int depth) {
    if (depth > MAX_DEPTH) {
      throw fail("nesting deeper than " + MAX_DEPTH + " levels");
    }
  }

  private AvroDecodeException fail(String reason) {
    return new AvroDecodeException(reason, pos);
  }
}
