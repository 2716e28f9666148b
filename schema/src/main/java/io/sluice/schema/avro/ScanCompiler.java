package io.sluice.schema.avro;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Deque;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * Compiles an Avro writer schema into a {@link ScanPlan}. Records are laid out inline, so the same
 * row type can capture into different slots under {@code before} and {@code after}; a record that
 * contains itself (or any record once the plan has grown past {@link #INLINE_LIMIT} ints) becomes a
 * subroutine compiled once, which ties the knot of recursive schemas and bounds the plan's size.
 */
public final class ScanCompiler {
  /** Past this many ints of code, capture-free records are called rather than laid out inline. */
  static final int INLINE_LIMIT = 1 << 14;

  /** A plan that reads {@code schema} and captures nothing. */
  public ScanPlan compile(Schema schema) {
    return compile(schema, Map.of());
  }

  /** A plan that reads {@code schema} and captures the named top-level (and inner) fields. */
  public ScanPlan compile(Schema schema, Map<String, Capture> captures) {
    return new Emitter().plan(schema, captures);
  }

  /** The state of one compilation. */
  private static final class Emitter {
    private int[] code = new int[64];
    private String[] paths = new String[64];
    private int size;
    private final List<String> names = new ArrayList<>();
    private final List<String[]> symbolTables = new ArrayList<>();
    private final Map<Schema, Integer> routines = new IdentityHashMap<>();
    private final List<Schema> routineSchemas = new ArrayList<>();
    private final List<int[]> calls = new ArrayList<>(); // {operand pc, routine index}
    private final Deque<Integer> pending = new ArrayDeque<>();
    private final Set<Schema> enclosing = Collections.newSetFromMap(new IdentityHashMap<>());
    private boolean needsBudget;
    private boolean inRoutine;

    /** Simple fields waiting to become one RUN instruction: their kinds and paths. */
    private int[] runKinds = new int[16];

    private String[] runPaths = new String[16];
    private int runSize;

    ScanPlan plan(Schema schema, Map<String, Capture> captures) {
      value(schema, captures, -1, "", 0);
      emit(ScanPlan.RET, "");
      // Subroutines: each recursive (or late) record once, its depth checked against the caller's.
      inRoutine = true;
      List<Integer> entries = new ArrayList<>();
      while (!pending.isEmpty()) {
        int index = pending.removeFirst();
        entries.add(here());
        enclosing.clear();
        emit(ScanPlan.DEPTH, "", 0);
        fields(routineSchemas.get(index), Map.of(), "", 0);
        emit(ScanPlan.RET, "");
      }
      here();
      for (int[] call : calls) {
        code[call[0]] = entries.get(call[1]);
      }
      return new ScanPlan(
          Arrays.copyOf(code, size),
          Arrays.copyOf(paths, size),
          names.toArray(new String[0]),
          symbolTables.toArray(new String[0][]),
          needsBudget,
          schema.getType() == Schema.Type.RECORD
              ? "record " + schema.getFullName()
              : schema.getType().getName());
    }

    /** Emits the reads of one value at nesting depth {@code rel}, captured into {@code slot}. */
    private void value(
        Schema schema, Map<String, Capture> captures, int slot, String path, int rel) {
      boolean captured = slot >= 0;
      switch (schema.getType()) {
        case NULL -> {
          if (captured) {
            emit(ScanPlan.CAP_NULL, path, slot);
          }
        }
        case BOOLEAN -> scalar(ScanPlan.BOOLEAN, ScanPlan.CAP_BOOLEAN, slot, path);
        case INT, LONG, FLOAT, DOUBLE, STRING, BYTES ->
            field(fieldKind(schema.getType()) + slotBits(slot), path);
        case FIXED -> {
          int name = typeName("fixed " + schema.getFullName(), null);
          if (captured) {
            emit(ScanPlan.CAP_FIXED, path, schema.getFixedSize(), name, slot);
          } else {
            emit(ScanPlan.FIXED, path, schema.getFixedSize(), name);
          }
        }
        case ENUM -> {
          int table =
              typeName(
                  "enum " + schema.getFullName(), schema.getEnumSymbols().toArray(new String[0]));
          if (captured) {
            emit(ScanPlan.CAP_ENUM, path, table, slot);
          } else {
            emit(ScanPlan.ENUM, path, table);
          }
        }
        case UNION -> union(schema, captures, slot, path, rel);
        case ARRAY -> items(ScanPlan.ARRAY, schema.getElementType(), slot, path, "[]", rel);
        case MAP -> items(ScanPlan.MAP, schema.getValueType(), slot, path, "{}", rel);
        case RECORD -> record(schema, captures, slot, path, rel);
        default -> throw new IllegalArgumentException("unsupported Avro type " + schema.getType());
      }
    }

    private void scalar(int op, int capturingOp, int slot, String path) {
      if (slot >= 0) {
        emit(capturingOp, path, slot);
      } else {
        emit(op, path);
      }
    }

    private static int fieldKind(Schema.Type type) {
      return switch (type) {
        case INT -> ScanPlan.F_INT;
        case LONG -> ScanPlan.F_LONG;
        case STRING -> ScanPlan.F_STRING;
        case BYTES -> ScanPlan.F_BYTES;
        case FLOAT -> ScanPlan.F_FLOAT;
        case DOUBLE -> ScanPlan.F_DOUBLE;
        default -> -1;
      };
    }

    /** What a RUN field word adds for a capture into {@code slot} (nothing for -1). */
    private static int slotBits(int slot) {
      return (slot + 1) << ScanPlan.F_SLOT_SHIFT;
    }

    private void union(
        Schema schema, Map<String, Capture> captures, int slot, String path, int rel) {
      List<Schema> branches = schema.getTypes();
      if (branches.size() == 2
          && branches.get(0).getType() == Schema.Type.NULL
          && branches.get(1).getType() != Schema.Type.NULL) {
        Schema present = branches.get(1);
        int kind = fieldKind(present.getType());
        // In a RUN the union's depth is not checked: only where it is known to pass.
        if (kind >= 0 && !inRoutine && rel <= AvroScanner.MAX_DEPTH) {
          field(kind + ScanPlan.F_OPTIONAL + slotBits(slot), path);
          return;
        }
        if (slot < 0) {
          int at = emit(ScanPlan.OPTIONAL, path, rel, 0);
          value(present, captures, -1, path, rel + 1);
          patch(at + 2, here());
          return;
        }
        if (isComplex(present)) {
          int at = emit(ScanPlan.CAP_OPTIONAL, path, rel, 0, slot);
          value(present, captures, -1, path, rel + 1);
          emit(ScanPlan.CAP_END, path, slot);
          patch(at + 2, here());
          return;
        }
      }
      int at = emit(ScanPlan.UNION, path, rel, branches.size());
      for (int i = 0; i < branches.size(); i++) {
        emit(0, path); // branch target, patched below
      }
      int[] jumps = new int[branches.size()];
      for (int i = 0; i < branches.size(); i++) {
        Schema branch = branches.get(i);
        if (branch.getType() == Schema.Type.NULL && slot < 0) {
          jumps[i] = -1; // reads nothing: the target is the end of the union
          continue;
        }
        patch(at + 3 + i, here());
        value(branch, captures, slot, path, rel + 1);
        jumps[i] = emit(ScanPlan.JMP, path, 0);
      }
      for (int i = 0; i < branches.size(); i++) {
        if (jumps[i] < 0) {
          patch(at + 3 + i, here());
        } else {
          patch(jumps[i] + 1, here());
        }
      }
    }

    private void items(int op, Schema item, int slot, String path, String segment, int rel) {
      needsBudget = true;
      if (slot >= 0) {
        emit(ScanPlan.CAP_START, path, slot);
      }
      int at = emit(op, path, rel, 0);
      value(item, Map.of(), -1, join(path, segment), rel + 1);
      emit(ScanPlan.RET, join(path, segment));
      patch(at + 2, here());
      if (slot >= 0) {
        emit(ScanPlan.CAP_END, path, slot);
      }
    }

    private void record(
        Schema schema, Map<String, Capture> captures, int slot, String path, int rel) {
      if (captures.isEmpty()
          && (enclosing.contains(schema)
              || (size + runSize > INLINE_LIMIT && !isEmptyRecord(schema)))) {
        if (slot >= 0) {
          emit(ScanPlan.CAP_START, path, slot);
        }
        int at = emit(ScanPlan.CALL, path, 0, rel);
        calls.add(new int[] {at + 1, routine(schema)});
        if (slot >= 0) {
          emit(ScanPlan.CAP_END, path, slot);
        }
        return;
      }
      if (inRoutine || rel > AvroScanner.MAX_DEPTH) {
        emit(ScanPlan.DEPTH, path, rel);
        if (!inRoutine) {
          return; // always fails when reached: nothing after it runs
        }
      }
      if (slot >= 0) {
        emit(ScanPlan.CAP_START, path, slot);
      }
      fields(schema, captures, path, rel);
      if (slot >= 0) {
        emit(ScanPlan.CAP_END, path, slot);
      }
    }

    /** The fields of a record at depth {@code rel}, in order. */
    private void fields(Schema schema, Map<String, Capture> captures, String path, int rel) {
      boolean added = enclosing.add(schema);
      for (Schema.Field field : schema.getFields()) {
        Capture capture = captures.get(field.name());
        value(
            field.schema(),
            capture == null ? Map.of() : capture.inner(),
            capture == null ? -1 : capture.slot(),
            join(path, field.name()),
            rel + 1);
      }
      if (added) {
        enclosing.remove(schema);
      }
    }

    /** Captured as a byte range: records, arrays and maps. */
    private static boolean isComplex(Schema schema) {
      return switch (schema.getType()) {
        case RECORD, ARRAY, MAP -> true;
        default -> false;
      };
    }

    private static boolean isEmptyRecord(Schema schema) {
      return schema.getFields().isEmpty();
    }

    private int routine(Schema schema) {
      Integer known = routines.get(schema);
      if (known != null) {
        return known;
      }
      int index = routineSchemas.size();
      routineSchemas.add(schema);
      routines.put(schema, index);
      pending.addLast(index);
      return index;
    }

    private int typeName(String name, String[] symbols) {
      names.add(name);
      symbolTables.add(symbols);
      return names.size() - 1;
    }

    /** Queues a simple field for the next RUN instruction. */
    private void field(int kind, String path) {
      if (runSize == runKinds.length) {
        runKinds = Arrays.copyOf(runKinds, runSize * 2);
        runPaths = Arrays.copyOf(runPaths, runSize * 2);
      }
      runKinds[runSize] = kind;
      runPaths[runSize] = path;
      runSize++;
    }

    /**
     * Sets {@code code[at]} to {@code target}. A patch must not be written as {@code code[at] =
     * here()}: Java takes the array before it runs {@code here()}, and when that flush grows the
     * array the write lands in the old one, leaving the jump at 0 (the plan's start).
     */
    private void patch(int at, int target) {
      code[at] = target;
    }

    /** The pc of the next instruction, once the queued fields are emitted. */
    private int here() {
      if (runSize > 0) {
        int n = runSize;
        runSize = 0;
        int at = emit(ScanPlan.RUN, runPaths[0], n);
        ensure(size + n);
        System.arraycopy(runKinds, 0, code, size, n);
        System.arraycopy(runPaths, 0, paths, size, n);
        size += n;
        paths[at + 1] = runPaths[0];
      }
      return size;
    }

    /** Appends an instruction; returns its pc. */
    private int emit(int op, String path, int... operands) {
      int at = here();
      ensure(size + 1 + operands.length);
      code[size] = op;
      paths[size] = path;
      size++;
      for (int operand : operands) {
        code[size] = operand;
        paths[size] = path;
        size++;
      }
      return at;
    }

    private void ensure(int capacity) {
      if (capacity > code.length) {
        int grown = Math.max(capacity, code.length * 2);
        code = Arrays.copyOf(code, grown);
        paths = Arrays.copyOf(paths, grown);
      }
    }

    private static String join(String path, String segment) {
      return path.isEmpty() ? segment : path + "." + segment;
    }
  }
}
