package io.sluice.schema.avro;

import java.util.Arrays;

/**
 * What one scan recorded: for each slot, the kind of value found and where it is. Strings, bytes
 * and fixed values, and whole records/arrays/maps, are positions in the scanned array, so nothing
 * is copied.
 *
 * <p>Not thread-safe. One instance can serve scan after scan: {@link #reset} points it at the next
 * array and forgets what was recorded, so a hot path need not allocate one per record.
 */
public final class Captures {
  public static final byte ABSENT = 0;
  public static final byte NULL = 1;
  public static final byte BOOLEAN = 2;
  public static final byte INTEGER = 3;
  public static final byte FLOAT = 4;
  public static final byte DOUBLE = 5;
  public static final byte BYTES = 6;
  public static final byte ENUM = 7;
  public static final byte COMPLEX = 8;

  /** No slots: for plans compiled without captures, which never write one. */
  public static final Captures NONE = new Captures(new byte[0], 0);

  private byte[] buf;
  private final byte[] kinds;
  private final long[] values;
  private String[][] symbolTables;

  public Captures(byte[] buf, int slots) {
    this.buf = buf;
    this.kinds = new byte[slots];
    this.values = new long[slots];
  }

  /** Slots to be bound to an array later with {@link #reset}. */
  public Captures(int slots) {
    this(null, slots);
  }

  /** How many slots there are. */
  public int slots() {
    return kinds.length;
  }

  /**
   * Makes every slot {@link #ABSENT} and binds the slots to {@code buf}, the array of the next
   * scan.
   *
   * @return this
   */
  public Captures reset(byte[] buf) {
    if (this == NONE) {
      throw new IllegalStateException("Captures.NONE is shared and has no slots to reset");
    }
    this.buf = buf;
    Arrays.fill(kinds, ABSENT);
    return this;
  }

  /** The kind recorded in {@code slot}; {@link #ABSENT} when the scan never reached it. */
  public byte kind(int slot) {
    return kinds[slot];
  }

  /** True when a non-null value was recorded. */
  public boolean present(int slot) {
    return kinds[slot] > NULL;
  }

  /** True when the slot holds bytes equal to {@code expected}. */
  public boolean bytesEqual(int slot, byte[] expected) {
    if (kinds[slot] != BYTES) {
      return false;
    }
    int off = offset(slot);
    return Arrays.equals(buf, off, off + length(slot), expected, 0, expected.length);
  }

  /** The byte (0 to 255) of a one-byte {@link #BYTES} value; -1 for anything else. */
  public int singleByte(int slot) {
    return kinds[slot] == BYTES && length(slot) == 1 ? buf[offset(slot)] & 0xff : -1;
  }

  /** Length of a {@link #BYTES} or {@link #COMPLEX} value. */
  public int length(int slot) {
    return (int) values[slot];
  }

  /** Copy of a {@link #BYTES} value (for messages about short codes only). */
  public byte[] bytes(int slot) {
    int off = offset(slot);
    return Arrays.copyOfRange(buf, off, off + length(slot));
  }

  /**
   * True when this slot and {@code other}'s slot hold the same value: int and long compare as
   * numbers, string/bytes/fixed by content, enums by symbol, records/arrays/maps by their encoded
   * bytes, null equals null.
   */
  public boolean sameValue(int slot, Captures other, int otherSlot) {
    byte kind = kinds[slot];
    if (kind == ABSENT || kind != other.kinds[otherSlot]) {
      return false;
    }
    switch (kind) {
      case NULL:
        return true;
      case BYTES:
      case COMPLEX:
        int off = offset(slot);
        int otherOff = other.offset(otherSlot);
        return Arrays.equals(
            buf, off, off + length(slot), other.buf, otherOff, otherOff + other.length(otherSlot));
      case ENUM:
        return symbolTables[slot][(int) values[slot]].equals(
            other.symbolTables[otherSlot][(int) other.values[otherSlot]]);
      default:
        return values[slot] == other.values[otherSlot];
    }
  }

  void setNull(int slot) {
    kinds[slot] = NULL;
  }

  void setScalar(int slot, byte kind, long value) {
    kinds[slot] = kind;
    values[slot] = value;
  }

  void setRange(int slot, byte kind, int offset, int length) {
    kinds[slot] = kind;
    values[slot] = ((long) offset << 32) | length;
  }

  /** Marks where a record, array or map starts; {@link #endComplex} records it when it ends. */
  void start(int slot, int offset) {
    values[slot] = offset;
  }

  void endComplex(int slot, int end) {
    int start = (int) values[slot];
    setRange(slot, COMPLEX, start, end - start);
  }

  void setEnum(int slot, int index, String[] symbols) {
    if (symbolTables == null) {
      symbolTables = new String[kinds.length][];
    }
    kinds[slot] = ENUM;
    values[slot] = index;
    symbolTables[slot] = symbols;
  }

  private int offset(int slot) {
    return (int) (values[slot] >>> 32);
  }
}
