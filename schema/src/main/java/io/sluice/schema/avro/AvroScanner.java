package io.sluice.schema.avro;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Checks that bytes are one complete value of a compiled schema, following the Avro binary
 * encoding, without building objects. It reads every item, so it accepts exactly what Avro's {@code
 * GenericDatumReader} reads without error, with two deliberate differences: a boolean byte must be
 * 0 or 1 (the spec; Avro's decoder takes any non-1 byte as false), and zero-byte items (nulls,
 * empty records) in arrays and maps are bounded by a budget of 8 items per input byte.
 *
 * <p>Bounded by construction: no allocation beyond the {@link Captures} slots (and one budget
 * counter for plans with arrays or maps), every length is checked against the remaining bytes
 * before use, array and map item counts are charged against the budget, and nesting stops at {@link
 * #MAX_DEPTH} (schemas can be recursive).
 *
 * <p>A scan runs the {@link ScanPlan}'s instructions in one loop; only array and map items and
 * recursive records re-enter it. This is the router's per-record cost, so the common shapes (runs
 * of scalar fields, one-byte lengths and union indexes, {@code ["null", X]} unions) take the
 * shortest paths, and everything that builds a message is out of line.
 */
public final class AvroScanner {
  /** Deepest nesting of records, unions, arrays and maps that is scanned. */
  public static final int MAX_DEPTH = 128;

  private static final long BUDGET_PER_BYTE = 8;
  private static final long BUDGET_BASE = 64;
  static final int INT_BYTES = 5;
  static final int LONG_BYTES = 10;

  /** Eight bytes of an array at once, to find where a varint ends without a loop. */
  private static final VarHandle EIGHT_BYTES =
      MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

  /** The continuation bits of eight varint bytes. */
  private static final long CONTINUATION_BITS = 0x8080808080808080L;

  /** The zero-byte items that the arrays and maps of one scan may still read. */
  private static final class Budget {
    long items;

    Budget(long items) {
      this.items = items;
    }
  }

  private AvroScanner() {}

  /**
   * Scans one value of {@code plan} starting at {@code offset}.
   *
   * @return the position after the value; less than {@code buf.length} means trailing bytes
   * @throws AvroDecodeException when the bytes are not a value of the schema
   */
  public static int scan(ScanPlan plan, byte[] buf, int offset, Captures captures) {
    return scan(plan, buf, offset, buf.length, captures);
  }

  /**
   * Scans one value of {@code plan} in {@code buf[offset, limit)}; the bytes from {@code limit} on
   * do not change the result (they may be loaded, eight bytes at a time, but never decoded). Pass
   * {@link Captures#NONE} for a plan compiled without captures.
   *
   * @return the position after the value; less than {@code limit} means trailing bytes
   * @throws AvroDecodeException when the bytes are not a value of the schema
   */
  public static int scan(ScanPlan plan, byte[] buf, int offset, int limit, Captures captures) {
    CompiledScan compiled = plan.compiledForScan();
    if (compiled != null) {
      int end = compiled.scan(buf, offset, limit, captures);
      if (end >= 0) {
        return end;
      }
    }
    return interpret(plan, buf, offset, limit, captures);
  }

  /**
   * {@link #scan} by the interpreter alone, never the plan's compiled code (which must agree with
   * it).
   */
  static int interpret(ScanPlan plan, byte[] buf, int offset, int limit, Captures captures) {
    Budget budget =
        plan.needsBudget ? new Budget(BUDGET_BASE + BUDGET_PER_BYTE * (limit - offset)) : null;
    return run(plan, 0, buf, offset, limit, captures, 0, budget);
  }

  /**
   * Runs the plan from {@code pc} until a RET; {@code depth} is the nesting depth of the routine
   * that {@code pc} is in.
   */
  private static int run(
      ScanPlan plan,
      int pc,
      byte[] buf,
      int pos,
      int limit,
      Captures captures,
      int depth,
      Budget budget) {
    final int[] code = plan.code;
    try {
      while (true) {
        switch (code[pc]) {
          case ScanPlan.RET:
            return pos;
          case ScanPlan.RUN:
            pos = fields(plan, pc, buf, pos, limit, captures);
            pc += 2 + code[pc + 1];
            break;
          case ScanPlan.OPTIONAL:
            {
              checkDepth(depth + code[pc + 1], pos);
              int b = pos < limit ? buf[pos] : -1;
              if (b == 0) {
                pos++;
                pc = code[pc + 2];
              } else if (b == 2) {
                pos++;
                pc += 3;
              } else {
                int index = readInt(buf, pos, limit);
                checkBranch(index, 2, pos);
                pos = skipVarint(buf, pos, limit, INT_BYTES);
                pc = index == 0 ? code[pc + 2] : pc + 3;
              }
              break;
            }
          case ScanPlan.CAP_OPTIONAL:
            {
              checkDepth(depth + code[pc + 1], pos);
              int b = pos < limit ? buf[pos] : -1;
              int index = b == 0 || b == 2 ? b >> 1 : readInt(buf, pos, limit);
              checkBranch(index, 2, pos);
              pos = b == 0 || b == 2 ? pos + 1 : skipVarint(buf, pos, limit, INT_BYTES);
              if (index == 0) {
                captures.setNull(code[pc + 3]);
                pc = code[pc + 2];
              } else {
                captures.start(code[pc + 3], pos);
                pc += 4;
              }
              break;
            }
          case ScanPlan.UNION:
            {
              checkDepth(depth + code[pc + 1], pos);
              int index = readInt(buf, pos, limit);
              checkBranch(index, code[pc + 2], pos);
              pos = skipVarint(buf, pos, limit, INT_BYTES);
              pc = code[pc + 3 + index];
              break;
            }
          case ScanPlan.JMP:
            pc = code[pc + 1];
            break;
          case ScanPlan.BOOLEAN:
            require(pos, limit, 1, "boolean");
            checkBoolean(buf[pos], pos);
            pos++;
            pc++;
            break;
          case ScanPlan.FIXED:
            require(pos, limit, code[pc + 1], plan.names[code[pc + 2]]);
            pos += code[pc + 1];
            pc += 3;
            break;
          case ScanPlan.ENUM:
            enumIndex(plan, code[pc + 1], buf, pos, limit);
            pos = skipVarint(buf, pos, limit, INT_BYTES);
            pc += 2;
            break;
          case ScanPlan.ARRAY:
          case ScanPlan.MAP:
            checkDepth(depth + code[pc + 1], pos);
            pos = blocks(plan, pc, buf, pos, limit, captures, depth, budget);
            pc = code[pc + 2];
            break;
          case ScanPlan.CALL:
            try {
              pos =
                  run(plan, code[pc + 1], buf, pos, limit, captures, depth + code[pc + 2], budget);
            } catch (AvroDecodeException e) {
              throw e.within(plan.paths[pc]);
            }
            pc += 3;
            break;
          case ScanPlan.DEPTH:
            checkDepth(depth + code[pc + 1], pos);
            pc += 2;
            break;
          case ScanPlan.CAP_START:
            captures.start(code[pc + 1], pos);
            pc += 2;
            break;
          case ScanPlan.CAP_END:
            captures.endComplex(code[pc + 1], pos);
            pc += 2;
            break;
          case ScanPlan.CAP_NULL:
            captures.setNull(code[pc + 1]);
            pc += 2;
            break;
          default:
            pos = capture(plan, pc, buf, pos, limit, captures);
            pc += code[pc] == ScanPlan.CAP_FIXED ? 4 : code[pc] == ScanPlan.CAP_ENUM ? 3 : 2;
            break;
        }
      }
    } catch (AvroDecodeException e) {
      throw e.locate(plan.paths[pc]);
    }
  }

  /**
   * The fields of the RUN at {@code pc}: varints away from the end of the input, one-byte lengths
   * and {@code ["null", X]} indexes, the common case, are read inline; everything else (and every
   * failure) takes {@link #field}.
   */
  private static int fields(
      ScanPlan plan, int pc, byte[] buf, int pos, int limit, Captures captures) {
    int[] code = plan.code;
    int end = pc + 2 + code[pc + 1];
    for (int i = pc + 2; i < end; i++) {
      int kind = code[i];
      if (kind >= ScanPlan.F_CAPTURED) {
        pos = capturedField(plan, i, buf, pos, limit, captures);
        continue;
      }
      if (pos < limit) {
        int b = buf[pos];
        if (kind >= ScanPlan.F_OPTIONAL) {
          if (b == 0) {
            pos++; // null
            continue;
          }
          if (b != 2 || pos + 1 >= limit) {
            pos = field(plan, i, kind, buf, pos, limit);
            continue;
          }
          kind -= ScanPlan.F_OPTIONAL;
          b = buf[++pos];
        }
        if (kind <= ScanPlan.F_LONG) {
          if (b >= 0) {
            pos++;
            continue;
          }
          // Longer varints (ids, amounts, timestamps) end within the next eight bytes: found at
          // once.
          if (buf.length - pos >= 8) {
            int length = varintLength((long) EIGHT_BYTES.get(buf, pos));
            if (length <= (kind == ScanPlan.F_INT ? INT_BYTES : 8) && length <= limit - pos) {
              pos += length;
              continue;
            }
          }
        } else if (kind <= ScanPlan.F_BYTES) {
          int length = (b >>> 1) ^ -(b & 1);
          if (b >= 0 && length >= 0 && length < limit - pos) {
            pos += 1 + length;
            continue;
          }
        } else {
          int size = kind == ScanPlan.F_FLOAT ? 4 : 8;
          if (limit - pos >= size) {
            pos += size;
            continue;
          }
        }
      }
      pos = field(plan, i, kind, buf, pos, limit);
    }
    return pos;
  }

  /** Reads captured field {@code i} of a RUN into its slot; failures name the field. */
  private static int capturedField(
      ScanPlan plan, int i, byte[] buf, int pos, int limit, Captures captures) {
    try {
      int slot = (plan.code[i] >>> ScanPlan.F_SLOT_SHIFT) - 1;
      int kind = plan.code[i] & (ScanPlan.F_CAPTURED - 1);
      if (kind >= ScanPlan.F_OPTIONAL) {
        int index = readInt(buf, pos, limit);
        checkBranch(index, 2, pos);
        pos = skipVarint(buf, pos, limit, INT_BYTES);
        if (index == 0) {
          captures.setNull(slot);
          return pos;
        }
        kind -= ScanPlan.F_OPTIONAL;
      }
      switch (kind) {
        case ScanPlan.F_INT:
          captures.setScalar(slot, Captures.INTEGER, readInt(buf, pos, limit));
          return skipVarint(buf, pos, limit, INT_BYTES);
        case ScanPlan.F_LONG:
          captures.setScalar(slot, Captures.INTEGER, readLong(buf, pos, limit));
          return skipVarint(buf, pos, limit, LONG_BYTES);
        case ScanPlan.F_STRING:
        case ScanPlan.F_BYTES:
          {
            int after = skipVarint(buf, pos, limit, LONG_BYTES);
            String what = kind == ScanPlan.F_STRING ? "string" : "bytes";
            int length = checkedLength(buf, pos, after, limit, what);
            captures.setRange(slot, Captures.BYTES, after, length);
            return after + length;
          }
        default:
          {
            boolean isFloat = kind == ScanPlan.F_FLOAT;
            int size = isFloat ? 4 : 8;
            require(pos, limit, size, isFloat ? "float" : "double");
            captures.setScalar(
                slot, isFloat ? Captures.FLOAT : Captures.DOUBLE, littleEndian(buf, pos, size));
            return pos + size;
          }
      }
    } catch (AvroDecodeException e) {
      throw e.locate(plan.paths[i]);
    }
  }

  /**
   * Reads field {@code i} of a RUN as {@code kind} whatever its bytes (with F_OPTIONAL: from its
   * union index; without: its value, the index already read), with every check; failures name the
   * field.
   */
  private static int field(ScanPlan plan, int i, int kind, byte[] buf, int pos, int limit) {
    try {
      if (kind >= ScanPlan.F_OPTIONAL) {
        int index = readInt(buf, pos, limit);
        checkBranch(index, 2, pos);
        pos = skipVarint(buf, pos, limit, INT_BYTES);
        if (index == 0) {
          return pos;
        }
        kind -= ScanPlan.F_OPTIONAL;
      }
      switch (kind) {
        case ScanPlan.F_INT:
          return skipVarint(buf, pos, limit, INT_BYTES);
        case ScanPlan.F_LONG:
          return skipVarint(buf, pos, limit, LONG_BYTES);
        case ScanPlan.F_STRING:
        case ScanPlan.F_BYTES:
          {
            int after = skipVarint(buf, pos, limit, LONG_BYTES);
            String what = kind == ScanPlan.F_STRING ? "string" : "bytes";
            return after + checkedLength(buf, pos, after, limit, what);
          }
        default:
          {
            boolean isFloat = kind == ScanPlan.F_FLOAT;
            require(pos, limit, isFloat ? 4 : 8, isFloat ? "float" : "double");
            return pos + (isFloat ? 4 : 8);
          }
      }
    } catch (AvroDecodeException e) {
      throw e.locate(plan.paths[i]);
    }
  }

  /**
   * The rarer capturing instructions: the same reads as their plain forms, recorded into a slot.
   */
  private static int capture(
      ScanPlan plan, int pc, byte[] buf, int pos, int limit, Captures captures) {
    int[] code = plan.code;
    switch (code[pc]) {
      case ScanPlan.CAP_BOOLEAN:
        require(pos, limit, 1, "boolean");
        checkBoolean(buf[pos], pos);
        captures.setScalar(code[pc + 1], Captures.BOOLEAN, buf[pos]);
        return pos + 1;
      case ScanPlan.CAP_FIXED:
        {
          int size = code[pc + 1];
          require(pos, limit, size, plan.names[code[pc + 2]]);
          captures.setRange(code[pc + 3], Captures.BYTES, pos, size);
          return pos + size;
        }
      case ScanPlan.CAP_ENUM:
        {
          int index = enumIndex(plan, code[pc + 1], buf, pos, limit);
          captures.setEnum(code[pc + 2], index, plan.symbolTables[code[pc + 1]]);
          return skipVarint(buf, pos, limit, INT_BYTES);
        }
      default:
        throw new IllegalStateException("unknown scan instruction " + code[pc] + " at " + pc);
    }
  }

  /** The blocks of an array or map whose instruction is at {@code pc}; its item's code follows. */
  private static int blocks(
      ScanPlan plan,
      int pc,
      byte[] buf,
      int pos,
      int limit,
      Captures captures,
      int depth,
      Budget budget) {
    boolean map = plan.code[pc] == ScanPlan.MAP;
    int item = pc + 3;
    long count = readLong(buf, pos, limit);
    pos = skipVarint(buf, pos, limit, LONG_BYTES);
    while (count != 0) {
      if (count < 0) {
        if (count == Long.MIN_VALUE) {
          throw new AvroDecodeException("invalid " + typeName(map) + " block count", pos);
        }
        count = -count;
        // The block size in bytes: Avro readers ignore it, so does the scanner.
        pos = skipVarint(buf, pos, limit, LONG_BYTES);
      }
      if (count > budget.items) {
        throw new AvroDecodeException(
            typeName(map)
                + " block of "
                + count
                + " items exceeds what "
                + (limit - pos)
                + " remaining bytes can hold",
            pos);
      }
      budget.items -= count;
      for (long i = 0; i < count; i++) {
        if (map) {
          pos = mapKey(plan, pc, buf, pos, limit);
        }
        pos = run(plan, item, buf, pos, limit, captures, depth, budget);
      }
      count = readLong(buf, pos, limit);
      pos = skipVarint(buf, pos, limit, LONG_BYTES);
    }
    return pos;
  }

  private static int mapKey(ScanPlan plan, int pc, byte[] buf, int pos, int limit) {
    try {
      int after = skipVarint(buf, pos, limit, LONG_BYTES);
      return after + checkedLength(buf, pos, after, limit, "map key");
    } catch (AvroDecodeException e) {
      String path = plan.paths[pc];
      throw e.locate(path.isEmpty() ? "{}" : path + ".{}");
    }
  }

  private static String typeName(boolean map) {
    return map ? "map" : "array";
  }

  /**
   * The position after a varint of at most {@code maxBytes} bytes at {@code pos}, without decoding
   * it.
   */
  static int skipVarint(byte[] buf, int pos, int limit, int maxBytes) {
    // Varint lengths differ from record to record: a byte loop would mispredict its exit on most
    // varints. The first byte without a continuation bit among the next eight, found at once:
    if (buf.length >= 8) {
      int length = varintLength(eightBytes(buf, pos));
      if (length <= maxBytes && length <= limit - pos) {
        return pos + length;
      }
    }
    return skipVarintByBytes(buf, pos, limit, maxBytes);
  }

  /**
   * The eight bytes from {@code pos} (little-endian), zeros past the end of the array; needs an
   * array of at least eight bytes. Near the end (a key's last field, a value's last) they are the
   * array's last eight, shifted so that {@code pos} comes first.
   */
  private static long eightBytes(byte[] buf, int pos) {
    int available = buf.length - pos;
    if (available >= 8) {
      return (long) EIGHT_BYTES.get(buf, pos);
    }
    return available <= 0
        ? 0
        : (long) EIGHT_BYTES.get(buf, buf.length - 8) >>> ((8 - available) * 8);
  }

  /**
   * How many of {@code bytes} a varint starting at the first takes; {@link Integer#MAX_VALUE} when
   * it does not end within them. A zero byte from past the end of the array reads as an end, but
   * such a varint is longer than the bytes left, which callers check.
   */
  private static int varintLength(long bytes) {
    long stops = ~bytes & CONTINUATION_BITS;
    return stops == 0 ? Integer.MAX_VALUE : (Long.numberOfTrailingZeros(stops) >>> 3) + 1;
  }

  /** {@link #skipVarint} one byte at a time, for what it does not decide: and every failure. */
  private static int skipVarintByBytes(byte[] buf, int pos, int limit, int maxBytes) {
    if (limit - pos >= maxBytes) {
      int end = pos + maxBytes;
      for (int p = pos; p < end; p++) {
        if (buf[p] >= 0) {
          return p + 1;
        }
      }
      throw tooLong(maxBytes, pos);
    }
    for (int p = pos; p < limit; p++) {
      if (buf[p] >= 0) {
        return p + 1;
      }
    }
    throw truncated(maxBytes, pos);
  }

  static int readInt(byte[] buf, int pos, int limit) {
    int value = 0;
    int p = pos;
    for (int shift = 0; shift < 32; shift += 7) {
      if (p >= limit) {
        throw truncated(INT_BYTES, pos);
      }
      int b = buf[p++] & 0xff;
      value |= (b & 0x7f) << shift;
      if (b < 0x80) {
        return (value >>> 1) ^ -(value & 1);
      }
    }
    throw tooLong(INT_BYTES, pos);
  }

  static long readLong(byte[] buf, int pos, int limit) {
    long value = 0;
    int p = pos;
    for (int shift = 0; shift < 64; shift += 7) {
      if (p >= limit) {
        throw truncated(LONG_BYTES, pos);
      }
      int b = buf[p++] & 0xff;
      value |= (long) (b & 0x7f) << shift;
      if (b < 0x80) {
        return (value >>> 1) ^ -(value & 1);
      }
    }
    throw tooLong(LONG_BYTES, pos);
  }

  private static AvroDecodeException truncated(int maxBytes, int start) {
    return new AvroDecodeException(
        maxBytes == INT_BYTES ? "truncated int" : "truncated long", start, true);
  }

  private static AvroDecodeException tooLong(int maxBytes, int start) {
    return new AvroDecodeException(
        maxBytes == INT_BYTES
            ? "int varint longer than 5 bytes"
            : "long varint longer than 10 bytes",
        start);
  }

  /**
   * The length whose varint spans {@code [start, after)}, checked against the bytes left after it;
   * {@code what} names what it is the length of.
   */
  static int checkedLength(byte[] buf, int start, int after, int limit, String what) {
    long length = readLong(buf, start, limit);
    if (length < 0) {
      throw new AvroDecodeException(what + " length " + length + " is negative", start);
    }
    if (length > limit - after) {
      throw new AvroDecodeException(
          what + " length " + length + " exceeds the " + (limit - after) + " remaining bytes",
          start,
          true);
    }
    return (int) length;
  }

  private static int enumIndex(ScanPlan plan, int table, byte[] buf, int pos, int limit) {
    int index = readInt(buf, pos, limit);
    String[] symbols = plan.symbolTables[table];
    if (index < 0 || index >= symbols.length) {
      throw new AvroDecodeException(
          "enum index "
              + index
              + " out of range for "
              + plan.names[table]
              + " ("
              + symbols.length
              + " symbols)",
          pos);
    }
    return index;
  }

  private static void checkBranch(int index, int branches, int start) {
    if (index < 0 || index >= branches) {
      throw new AvroDecodeException(
          "union branch " + index + " out of range (" + branches + " branches)", start);
    }
  }

  private static void checkBoolean(byte b, int pos) {
    if (b != 0 && b != 1) {
      throw new AvroDecodeException("boolean byte is neither 0 nor 1", pos);
    }
  }

  private static void require(int pos, int limit, int bytes, String typeName) {
    if (limit - pos < bytes) {
      throw new AvroDecodeException(
          typeName + " needs " + bytes + " bytes, " + (limit - pos) + " remain (truncated)",
          pos,
          true);
    }
  }

  private static void checkDepth(int depth, int pos) {
    if (depth > MAX_DEPTH) {
      throw new AvroDecodeException("nesting deeper than " + MAX_DEPTH + " levels", pos);
    }
  }

  static long littleEndian(byte[] buf, int pos, int bytes) {
    long v = 0;
    for (int i = bytes - 1; i >= 0; i--) {
      v = (v << 8) | (buf[pos + i] & 0xff);
    }
    return v;
  }
}
