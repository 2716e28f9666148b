package io.sluice.schema.avro;

/**
 * One position of a compiled schema: what the scanner reads there. Built by {@link ScanCompiler};
 * immutable once built and safe to share between threads.
 */
public final class ScanNode {
  static final int NULL = 0;
  static final int BOOLEAN = 1;
  static final int INT = 2;
  static final int LONG = 3;
  static final int FLOAT = 4;
  static final int DOUBLE = 5;
  static final int BYTES = 6;
  static final int STRING = 7;
  static final int FIXED = 8;
  static final int ENUM = 9;
  static final int UNION = 10;
  static final int ARRAY = 11;
  static final int MAP = 12;
  static final int RECORD = 13;

  final int kind;
  final String typeName;

  /** FIXED: size in bytes. */
  int fixedSize;

  /** ENUM: the symbols. */
  String[] symbols;

  /** RECORD: field types; UNION: branches; ARRAY/MAP: one item type. */
  ScanNode[] children;

  /** RECORD: field names, for error paths. */
  String[] fieldNames;

  /** RECORD: capture slot per field, -1 for none; null when no field is captured. */
  int[] slots;

  ScanNode(int kind, String typeName) {
    this.kind = kind;
    this.typeName = typeName;
  }

  @Override
  public String toString() {
    return typeName;
  }
}
