package io.sluice.schema.avro;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.Type;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns a {@link ScanPlan} into a hidden class whose one method does the plan's reads in order, one
 * {@link ScanSteps} call per value, with the plan's jumps as branches.
 *
 * <p>Why: the interpreter runs every field through the same few branches, whose outcome changes
 * from field to field. In a tight loop the CPU learns the sequence; on a stream thread, where
 * Kafka's own code runs between two records, it does not. Code of its own per field keeps each
 * branch's history apart, which makes the stream thread's validation cheaper than the interpreter's
 * (docs/benchmarks.md).
 *
 * <p>Only flat plans are compiled: records, scalars, enums, fixed and unions, which is what
 * Debezium writes for a table row. Plans with arrays, maps or recursive records, and plans too
 * large for the JIT to compile ({@value #MAX_CODE_BYTES} bytes of bytecode), stay with the
 * interpreter.
 */
final class ScanClassGenerator {
  private static final Logger log = LoggerFactory.getLogger(ScanClassGenerator.class);

  /** HotSpot never compiles a method of more than 8,000 bytes of bytecode: stay well below. */
  static final int MAX_CODE_BYTES = 7_000;

  /**
   * Plans longer than this are not tried: most of a plan's ints are fields, each 7 to 20 bytes of
   * bytecode.
   */
  private static final int MAX_PLAN_INTS = MAX_CODE_BYTES / 8;

  private static final String STEPS = Type.getInternalName(ScanSteps.class);
  private static final String CAPTURES = Type.getInternalName(Captures.class);
  private static final String CLASS_NAME =
      Type.getInternalName(ScanClassGenerator.class).replace("ScanClassGenerator", "CompiledPlan");

  private static final String READ = "([BII)I";
  private static final String READ_SIZED = "([BIII)I";
  private static final String CAPTURE = "([BIIL" + CAPTURES + ";I)I";
  private static final String CAPTURE_SIZED = "([BIIIL" + CAPTURES + ";I)I";

  // Locals of the scan method.
  private static final int BUF = 1;
  private static final int POS = 2;
  private static final int LIMIT = 3;
  private static final int CAPTURED = 4;

  private final int[] code;
  private final String[][] symbolTables;
  private final Label[] labels;
  private MethodVisitor mv;

  private ScanClassGenerator(int[] code, String[][] symbolTables) {
    this.code = code;
    this.symbolTables = symbolTables;
    this.labels = new Label[code.length + 1];
  }

  /**
   * Compiled code by plan code, shared by every plan with the same code (topics with one schema, a
   * router started again in the same JVM): the JIT compiles each only once. Bounded: emptied when
   * full.
   */
  private static final Map<PlanCode, Optional<CompiledScan>> CACHE = new ConcurrentHashMap<>();

  static final int CACHE_SIZE = 512;

  /** A plan's code and the symbol count of each of its enums: all its compiled code depends on. */
  private record PlanCode(int[] code, int[] symbolCounts) {
    @Override
    public boolean equals(Object o) {
      return o instanceof PlanCode other
          && Arrays.equals(code, other.code)
          && Arrays.equals(symbolCounts, other.symbolCounts);
    }

    @Override
    public int hashCode() {
      return 31 * Arrays.hashCode(code) + Arrays.hashCode(symbolCounts);
    }
  }

  /**
   * The compiled form of a plan's {@code code}, or null when it stays with the interpreter (not a
   * flat plan, too large, or the class could not be defined).
   */
  static CompiledScan generate(int[] code, String[][] symbolTables) {
    if (code.length > MAX_PLAN_INTS || !isFlat(code)) {
      return null;
    }
    int[] symbolCounts = new int[symbolTables.length];
    for (int i = 0; i < symbolTables.length; i++) {
      symbolCounts[i] = symbolTables[i] == null ? -1 : symbolTables[i].length;
    }
    PlanCode key = new PlanCode(code, symbolCounts);
    Optional<CompiledScan> known = CACHE.get(key);
    if (known != null) {
      return known.orElse(null);
    }
    CompiledScan compiled = define(code, symbolTables);
    if (CACHE.size() >= CACHE_SIZE) {
      CACHE.clear();
    }
    CACHE.put(key, Optional.ofNullable(compiled));
    return compiled;
  }

  private static CompiledScan define(int[] code, String[][] symbolTables) {
    try {
      byte[] bytes = new ScanClassGenerator(code, symbolTables).classBytes();
      if (bytes == null) {
        return null;
      }
      MethodHandles.Lookup lookup = MethodHandles.lookup().defineHiddenClass(bytes, true);
      return (CompiledScan)
          lookup.findConstructor(lookup.lookupClass(), MethodType.methodType(void.class)).invoke();
    } catch (Throwable e) {
      if (e instanceof Error && !(e instanceof LinkageError)) {
        throw (Error) e;
      }
      // A bug here must not stop validation: the interpreter reads every plan.
      log.warn("Cannot compile a scan plan; it is interpreted", e);
      return null;
    }
  }

  /** True when every instruction is one the generator lays out. */
  private static boolean isFlat(int[] code) {
    for (int pc = 0; pc < code.length; pc = next(code, pc)) {
      switch (code[pc]) {
        case ScanPlan.ARRAY, ScanPlan.MAP, ScanPlan.CALL, ScanPlan.DEPTH, ScanPlan.CAP_ENUM -> {
          return false;
        }
        case ScanPlan.OPTIONAL, ScanPlan.CAP_OPTIONAL, ScanPlan.UNION -> {
          if (code[pc + 1] > AvroScanner.MAX_DEPTH) {
            return false;
          }
        }
        default -> {}
      }
    }
    return true;
  }

  /** The pc of the instruction after the one at {@code pc}. */
  private static int next(int[] code, int pc) {
    return switch (code[pc]) {
      case ScanPlan.RET, ScanPlan.BOOLEAN -> pc + 1;
      case ScanPlan.RUN -> pc + 2 + code[pc + 1];
      case ScanPlan.UNION -> pc + 3 + code[pc + 2];
      case ScanPlan.JMP,
          ScanPlan.ENUM,
          ScanPlan.DEPTH,
          ScanPlan.CAP_NULL,
          ScanPlan.CAP_BOOLEAN,
          ScanPlan.CAP_START,
          ScanPlan.CAP_END ->
          pc + 2;
      case ScanPlan.OPTIONAL,
          ScanPlan.FIXED,
          ScanPlan.ARRAY,
          ScanPlan.MAP,
          ScanPlan.CALL,
          ScanPlan.CAP_ENUM ->
          pc + 3;
      case ScanPlan.CAP_OPTIONAL, ScanPlan.CAP_FIXED -> pc + 4;
      default -> throw new IllegalStateException("unknown scan instruction " + code[pc]);
    };
  }

  /** The class file, or null when its scan method would be too large to be JIT-compiled. */
  private byte[] classBytes() {
    ClassWriter cw =
        new ClassWriter(ClassWriter.COMPUTE_FRAMES | ClassWriter.COMPUTE_MAXS) {
          @Override
          protected String getCommonSuperClass(String type1, String type2) {
            return "java/lang/Object"; // never needed: locals keep one type throughout
          }
        };
    cw.visit(
        Opcodes.V17,
        Opcodes.ACC_FINAL | Opcodes.ACC_SUPER,
        CLASS_NAME,
        null,
        "java/lang/Object",
        new String[] {Type.getInternalName(CompiledScan.class)});
    MethodVisitor init = cw.visitMethod(0, "<init>", "()V", null, null);
    init.visitCode();
    init.visitVarInsn(Opcodes.ALOAD, 0);
    init.visitMethodInsn(Opcodes.INVOKESPECIAL, "java/lang/Object", "<init>", "()V", false);
    init.visitInsn(Opcodes.RETURN);
    init.visitMaxs(0, 0);
    init.visitEnd();

    mv = cw.visitMethod(Opcodes.ACC_PUBLIC, "scan", "([BIIL" + CAPTURES + ";)I", null, null);
    mv.visitCode();
    Label start = new Label();
    Label end = new Label();
    Label giveUp = new Label();
    mv.visitTryCatchBlock(start, end, giveUp, Type.getInternalName(ScanSteps.Bail.class));
    mv.visitTryCatchBlock(start, end, giveUp, Type.getInternalName(AvroDecodeException.class));
    mv.visitLabel(start);
    for (int pc = 0; pc < code.length; pc = next(code, pc)) {
      mv.visitLabel(label(pc));
      instruction(pc);
    }
    // Past the last RET: never reached, but a jump target may point here.
    mv.visitLabel(label(code.length));
    bail();
    mv.visitLabel(end);
    mv.visitLabel(giveUp);
    mv.visitInsn(Opcodes.POP);
    mv.visitInsn(Opcodes.ICONST_M1);
    mv.visitInsn(Opcodes.IRETURN);
    Label last = new Label();
    mv.visitLabel(last);
    mv.visitMaxs(0, 0);
    mv.visitEnd();
    cw.visitEnd();
    return last.getOffset() > MAX_CODE_BYTES ? null : cw.toByteArray();
  }

  private void instruction(int pc) {
    switch (code[pc]) {
      case ScanPlan.RET -> {
        mv.visitVarInsn(Opcodes.ILOAD, POS);
        mv.visitInsn(Opcodes.IRETURN);
      }
      case ScanPlan.RUN -> {
        for (int i = pc + 2; i < pc + 2 + code[pc + 1]; i++) {
          field(code[i]);
        }
      }
      case ScanPlan.OPTIONAL -> {
        optionalBranch();
        mv.visitJumpInsn(Opcodes.IFEQ, label(code[pc + 2]));
      }
      case ScanPlan.CAP_OPTIONAL -> {
        Label present = new Label();
        optionalBranch();
        mv.visitJumpInsn(Opcodes.IFNE, present);
        capture("setNull", "(I)V", code[pc + 3], false);
        mv.visitJumpInsn(Opcodes.GOTO, label(code[pc + 2]));
        mv.visitLabel(present);
        capture("start", "(II)V", code[pc + 3], true);
      }
      case ScanPlan.UNION -> {
        int branches = code[pc + 2];
        read();
        push(branches);
        step("unionBranch", READ_SIZED);
        mv.visitIincInsn(POS, 1);
        Label[] targets = new Label[branches];
        for (int i = 0; i < branches; i++) {
          targets[i] = label(code[pc + 3 + i]);
        }
        Label other = new Label();
        mv.visitTableSwitchInsn(0, branches - 1, other, targets);
        mv.visitLabel(other);
        bail();
      }
      case ScanPlan.JMP -> mv.visitJumpInsn(Opcodes.GOTO, label(code[pc + 1]));
      case ScanPlan.BOOLEAN -> advance("booleanValue", READ);
      case ScanPlan.FIXED -> sized("sizedValue", code[pc + 1]);
      case ScanPlan.ENUM -> sized("enumValue", symbolTables[code[pc + 1]].length);
      case ScanPlan.CAP_NULL -> capture("setNull", "(I)V", code[pc + 1], false);
      case ScanPlan.CAP_BOOLEAN -> captureStep("capturedBoolean", code[pc + 1]);
      case ScanPlan.CAP_FIXED -> {
        read();
        push(code[pc + 1]);
        mv.visitVarInsn(Opcodes.ALOAD, CAPTURED);
        push(code[pc + 3]);
        step("capturedFixed", CAPTURE_SIZED);
        mv.visitVarInsn(Opcodes.ISTORE, POS);
      }
      case ScanPlan.CAP_START -> capture("start", "(II)V", code[pc + 1], true);
      case ScanPlan.CAP_END -> capture("endComplex", "(II)V", code[pc + 1], true);
      default -> throw new IllegalStateException("not a flat plan: instruction " + code[pc]);
    }
  }

  /** One field of a RUN. */
  private void field(int word) {
    boolean captured = word >= ScanPlan.F_CAPTURED;
    int slot = (word >>> ScanPlan.F_SLOT_SHIFT) - 1;
    int kind = word & (ScanPlan.F_CAPTURED - 1);
    Label next = null;
    if (kind >= ScanPlan.F_OPTIONAL) {
      kind -= ScanPlan.F_OPTIONAL;
      next = new Label();
      optionalBranch();
      if (captured) {
        Label present = new Label();
        mv.visitJumpInsn(Opcodes.IFNE, present);
        capture("setNull", "(I)V", slot, false);
        mv.visitJumpInsn(Opcodes.GOTO, next);
        mv.visitLabel(present);
      } else {
        mv.visitJumpInsn(Opcodes.IFEQ, next);
      }
    }
    if (captured) {
      captureStep(
          switch (kind) {
            case ScanPlan.F_INT -> "capturedInt";
            case ScanPlan.F_LONG -> "capturedLong";
            case ScanPlan.F_STRING, ScanPlan.F_BYTES -> "capturedBytes";
            case ScanPlan.F_FLOAT -> "capturedFloat";
            default -> "capturedDouble";
          },
          slot);
    } else {
      switch (kind) {
        case ScanPlan.F_INT -> advance("intValue", READ);
        case ScanPlan.F_LONG -> advance("longValue", READ);
        case ScanPlan.F_STRING, ScanPlan.F_BYTES -> advance("bytesValue", READ);
        case ScanPlan.F_FLOAT -> sized("sizedValue", 4);
        default -> sized("sizedValue", 8);
      }
    }
    if (next != null) {
      mv.visitLabel(next);
    }
  }

  /** Leaves the branch of a {@code ["null", X]} union (0 or 1) on the stack, past its index. */
  private void optionalBranch() {
    read();
    step("optionalBranch", READ);
    mv.visitIincInsn(POS, 1);
  }

  /** pos = step(buf, pos, limit). */
  private void advance(String name, String descriptor) {
    read();
    step(name, descriptor);
    mv.visitVarInsn(Opcodes.ISTORE, POS);
  }

  /** pos = step(buf, pos, limit, size). */
  private void sized(String name, int size) {
    read();
    push(size);
    step(name, READ_SIZED);
    mv.visitVarInsn(Opcodes.ISTORE, POS);
  }

  /** pos = step(buf, pos, limit, captures, slot). */
  private void captureStep(String name, int slot) {
    read();
    mv.visitVarInsn(Opcodes.ALOAD, CAPTURED);
    push(slot);
    step(name, CAPTURE);
    mv.visitVarInsn(Opcodes.ISTORE, POS);
  }

  /** captures.method(slot) or captures.method(slot, pos). */
  private void capture(String method, String descriptor, int slot, boolean withPos) {
    mv.visitVarInsn(Opcodes.ALOAD, CAPTURED);
    push(slot);
    if (withPos) {
      mv.visitVarInsn(Opcodes.ILOAD, POS);
    }
    mv.visitMethodInsn(Opcodes.INVOKEVIRTUAL, CAPTURES, method, descriptor, false);
  }

  private void read() {
    mv.visitVarInsn(Opcodes.ALOAD, BUF);
    mv.visitVarInsn(Opcodes.ILOAD, POS);
    mv.visitVarInsn(Opcodes.ILOAD, LIMIT);
  }

  private void step(String name, String descriptor) {
    mv.visitMethodInsn(Opcodes.INVOKESTATIC, STEPS, name, descriptor, false);
  }

  private void bail() {
    mv.visitFieldInsn(Opcodes.GETSTATIC, STEPS, "BAIL", Type.getDescriptor(ScanSteps.Bail.class));
    mv.visitInsn(Opcodes.ATHROW);
  }

  private void push(int value) {
    if (value >= Short.MIN_VALUE && value <= Short.MAX_VALUE) {
      mv.visitIntInsn(Opcodes.SIPUSH, value);
    } else {
      mv.visitLdcInsn(value);
    }
  }

  private Label label(int pc) {
    if (labels[pc] == null) {
      labels[pc] = new Label();
    }
    return labels[pc];
  }
}
