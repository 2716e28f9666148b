package io.sluice.schema.avro;

/**
 * The reads a compiled scan ({@link ScanClassGenerator}) calls, one call per value. Each is small,
 * so the JIT inlines it at every call site and each field of the schema gets branches of its own. A
 * step accepts exactly what the interpreter accepts for its value, or gives up: it throws {@link
 * #BAIL} (or the interpreter's own {@link AvroDecodeException}) and the whole value is scanned
 * again by {@link AvroScanner}'s interpreter, which finds and locates the problem. Uncommon but
 * valid encodings (a union index written in more than one byte) give up too.
 */
final class ScanSteps {
  /** Thrown to give up on a compiled scan; carries nothing and costs no stack trace. */
  static final class Bail extends RuntimeException {
    private Bail() {
      super(null, null, false, false);
    }
  }

  static final Bail BAIL = new Bail();

  private ScanSteps() {}

  static int intValue(byte[] buf, int pos, int limit) {
    if (pos < limit && buf[pos] >= 0) {
      return pos + 1;
    }
    return AvroScanner.skipVarint(buf, pos, limit, AvroScanner.INT_BYTES);
  }

  static int longValue(byte[] buf, int pos, int limit) {
    if (pos < limit && buf[pos] >= 0) {
      return pos + 1;
    }
    return AvroScanner.skipVarint(buf, pos, limit, AvroScanner.LONG_BYTES);
  }

  /** A string or bytes value: a length, then that many bytes. */
  static int bytesValue(byte[] buf, int pos, int limit) {
    if (pos < limit) {
      int b = buf[pos];
      int length = (b >>> 1) ^ -(b & 1);
      if (b >= 0 && length >= 0 && length < limit - pos) {
        return pos + 1 + length;
      }
    }
    int after = AvroScanner.skipVarint(buf, pos, limit, AvroScanner.LONG_BYTES);
    return after + AvroScanner.checkedLength(buf, pos, after, limit, "bytes");
  }

  /** A float, double or fixed value of {@code size} bytes. */
  static int sizedValue(byte[] buf, int pos, int limit, int size) {
    if (limit - pos >= size) {
      return pos + size;
    }
    throw BAIL;
  }

  static int booleanValue(byte[] buf, int pos, int limit) {
    if (pos < limit && (buf[pos] == 0 || buf[pos] == 1)) {
      return pos + 1;
    }
    throw BAIL;
  }

  /** An enum index below {@code symbols}, in one byte. */
  static int enumValue(byte[] buf, int pos, int limit, int symbols) {
    oneByteIndex(buf, pos, limit, symbols);
    return pos + 1;
  }

  /** The branch of a {@code ["null", X]} union: 0 for null, 1 for X (index in one byte). */
  static int optionalBranch(byte[] buf, int pos, int limit) {
    int b = pos < limit ? buf[pos] : -1;
    if (b == 0 || b == 2) {
      return b >> 1;
    }
    throw BAIL;
  }

  /** The branch of a union of {@code branches} types (index in one byte). */
  static int unionBranch(byte[] buf, int pos, int limit, int branches) {
    return oneByteIndex(buf, pos, limit, branches);
  }

  private static int oneByteIndex(byte[] buf, int pos, int limit, int bound) {
    int b = pos < limit ? buf[pos] : -1;
    if (b >= 0 && (b & 1) == 0 && (b >> 1) < bound) {
      return b >> 1;
    }
    throw BAIL;
  }

  static int capturedInt(byte[] buf, int pos, int limit, Captures captures, int slot) {
    captures.setScalar(slot, Captures.INTEGER, AvroScanner.readInt(buf, pos, limit));
    return AvroScanner.skipVarint(buf, pos, limit, AvroScanner.INT_BYTES);
  }

  static int capturedLong(byte[] buf, int pos, int limit, Captures captures, int slot) {
    captures.setScalar(slot, Captures.INTEGER, AvroScanner.readLong(buf, pos, limit));
    return AvroScanner.skipVarint(buf, pos, limit, AvroScanner.LONG_BYTES);
  }

  static int capturedBytes(byte[] buf, int pos, int limit, Captures captures, int slot) {
    int after = AvroScanner.skipVarint(buf, pos, limit, AvroScanner.LONG_BYTES);
    int length = AvroScanner.checkedLength(buf, pos, after, limit, "bytes");
    captures.setRange(slot, Captures.BYTES, after, length);
    return after + length;
  }

  static int capturedFloat(byte[] buf, int pos, int limit, Captures captures, int slot) {
    return capturedNumber(buf, pos, limit, captures, slot, Captures.FLOAT, 4);
  }

  static int capturedDouble(byte[] buf, int pos, int limit, Captures captures, int slot) {
    return capturedNumber(buf, pos, limit, captures, slot, Captures.DOUBLE, 8);
  }

  private static int capturedNumber(
      byte[] buf, int pos, int limit, Captures captures, int slot, byte kind, int size) {
    if (limit - pos < size) {
      throw BAIL;
    }
    captures.setScalar(slot, kind, AvroScanner.littleEndian(buf, pos, size));
    return pos + size;
  }

  static int capturedBoolean(byte[] buf, int pos, int limit, Captures captures, int slot) {
    int after = booleanValue(buf, pos, limit);
    captures.setScalar(slot, Captures.BOOLEAN, buf[pos]);
    return after;
  }

  static int capturedFixed(byte[] buf, int pos, int limit, int size, Captures captures, int slot) {
    int after = sizedValue(buf, pos, limit, size);
    captures.setRange(slot, Captures.BYTES, pos, size);
    return after;
  }
}
