package io.sluice.schema.avro;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A writer schema compiled by {@link ScanCompiler} for {@link AvroScanner}: a flat program of int
 * instructions that the scanner runs in one loop. Records are laid out inline (a record costs no
 * instruction of its own unless it is captured or recursive), {@code ["null", X]} unions take one
 * instruction, consecutive scalars share one instruction, and recursive records are subroutines.
 * Its program never changes once built, and a plan is safe to share between threads; once it has
 * been scanned often enough it also carries its bytecode form ({@link ScanClassGenerator}).
 *
 * <p>Instruction layouts ({@code pc} is the opcode's index, operands follow it):
 *
 * <pre>
 * RET                          end of the plan, an array/map item or a subroutine
 * RUN n kind*n                 n consecutive int/long/string/bytes/float/double values, each
 *                              maybe ["null", X] (F_OPTIONAL added to its kind) and maybe
 *                              captured (its slot encoded in the kind, see F_CAPTURED)
 * BOOLEAN
 * FIXED size name              name: index into names
 * ENUM symbols                 symbols: index into symbolTables (its name in names)
 * OPTIONAL rel end             ["null", X]: X's code follows; index 0 jumps to end
 * UNION rel n target*n         each branch's code ends with JMP to after the union
 * JMP target
 * ARRAY|MAP rel end            the item's code follows, ending with RET; end is after it
 * CALL entry rel               a recursive record, compiled once as a subroutine at entry
 * DEPTH rel                    nesting check of a record whose base depth is only known at run time
 * CAP_OPTIONAL rel end slot    a captured ["null", record/array/map]: X's code follows, ending
 *                              with CAP_END slot; index 0 records null and jumps to end
 * CAP_NULL|CAP_BOOLEAN|CAP_FIXED|CAP_ENUM ... slot  the same reads, recording into a slot
 * CAP_START slot / CAP_END slot  around a captured record, array or map
 * </pre>
 *
 * {@code rel} is the nesting depth of the instruction relative to its subroutine (the plan itself
 * is the subroutine at depth 0).
 */
public final class ScanPlan {
  private static final Logger log = LoggerFactory.getLogger(ScanPlan.class);

  static final int RET = 0;
  static final int RUN = 1;
  static final int OPTIONAL = 2;
  static final int UNION = 3;
  static final int JMP = 4;
  static final int BOOLEAN = 5;
  static final int FIXED = 6;
  static final int ENUM = 7;
  static final int ARRAY = 8;
  static final int MAP = 9;
  static final int CALL = 10;
  static final int DEPTH = 11;
  static final int CAP_OPTIONAL = 12;
  static final int CAP_NULL = 13;
  static final int CAP_BOOLEAN = 14;
  static final int CAP_FIXED = 15;
  static final int CAP_ENUM = 16;
  static final int CAP_START = 17;
  static final int CAP_END = 18;

  /** Field kinds in a RUN. */
  static final int F_INT = 0;

  static final int F_LONG = 1;
  static final int F_STRING = 2;
  static final int F_BYTES = 3;
  static final int F_FLOAT = 4;
  static final int F_DOUBLE = 5;

  /** Added to a field kind: the field is {@code ["null", kind]}. */
  static final int F_OPTIONAL = 8;

  /**
   * A captured field's word is its kind plus {@code (slot + 1) << F_SLOT_SHIFT}: words from {@link
   * #F_CAPTURED} on are captured.
   */
  static final int F_SLOT_SHIFT = 8;

  static final int F_CAPTURED = 1 << F_SLOT_SHIFT;

  /**
   * Whether plans are compiled to bytecode; {@code -Dsluice.scan.compile=false} leaves every plan
   * to the interpreter (to compare the two).
   */
  static final boolean COMPILE = !"false".equals(System.getProperty("sluice.scan.compile"));

  final int[] code;

  /**
   * Per instruction start (and per field of a RUN): the dotted field path of the value it reads,
   * within its routine.
   */
  final String[] paths;

  /** Type names of fixed and enum types, for messages. */
  final String[] names;

  /** Enum symbols, by the index in an ENUM instruction (its name at the same index of names). */
  final String[][] symbolTables;

  /** True when the plan has arrays, maps or subroutines: the scan then keeps an item budget. */
  final boolean needsBudget;

  /**
   * Scans a plan is interpreted for before it is compiled: a plan built for a few records (a tool
   * decoding one message) never pays for a class of its own.
   */
  public static final int SCANS_BEFORE_COMPILING = 1_000;

  /** The plan as bytecode of its own ({@link ScanClassGenerator}), once compiled. */
  private CompiledScan compiled;

  /**
   * Counts down to compiling; negative once compiled or tried. Racy on purpose: two threads may
   * both compile a plan, and one of the two results is kept; each is correct.
   */
  private int scansBeforeCompiling = COMPILE ? SCANS_BEFORE_COMPILING : -1;

  private final String description;

  ScanPlan(
      int[] code,
      String[] paths,
      String[] names,
      String[][] symbolTables,
      boolean needsBudget,
      String description) {
    this.code = code;
    this.paths = paths;
    this.names = names;
    this.symbolTables = symbolTables;
    this.needsBudget = needsBudget;
    this.description = description;
  }

  /**
   * The compiled form of this plan, counting one scan: null while it is interpreted (the first
   * {@value #SCANS_BEFORE_COMPILING} scans, and always for plans the generator does not take).
   */
  CompiledScan compiledForScan() {
    CompiledScan current = compiled;
    if (current == null && scansBeforeCompiling >= 0 && --scansBeforeCompiling < 0) {
      current = compile(code, symbolTables);
      compiled = current;
    }
    return current;
  }

  private static CompiledScan compile(int[] code, String[][] symbolTables) {
    try {
      return ScanClassGenerator.generate(code, symbolTables);
    } catch (LinkageError e) {
      // ASM missing from the class path: the interpreter reads every plan all the same.
      log.warn("Scan plans are interpreted only: cannot load the scan compiler ({})", e.toString());
      return null;
    }
  }

  /** Number of int instructions and operands; for tests and diagnostics. */
  public int size() {
    return code.length;
  }

  @Override
  public String toString() {
    return "scan plan of " + description + " (" + code.length + " ints)";
  }
}
