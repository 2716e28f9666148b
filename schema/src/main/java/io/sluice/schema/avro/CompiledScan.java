package io.sluice.schema.avro;

/**
 * One {@link ScanPlan} turned into JVM bytecode of its own by {@link ScanClassGenerator}: the same
 * reads as the interpreter, laid out field by field.
 */
interface CompiledScan {
  /**
   * Scans one value in {@code buf[pos, limit)} into {@code captures}.
   *
   * @return the position after the value, or -1 when the bytes need the interpreter (invalid, or
   *     valid in a form the compiled code does not take)
   */
  int scan(byte[] buf, int pos, int limit, Captures captures);
}
