package io.sluice.connect.guard;

/**
 * Why a record cannot be written to its table: the column, its type in the table and in the record
 * (types only, never a value), and what would make it fit.
 *
 * @param column the column's path, e.g. {@code amount_cents} or {@code _cdc.key.id}; null while the
 *     check that found it has not yet named it
 * @param tableType the column's Iceberg type in the table
 * @param recordType the type the record brings ({@code absent} when it has no such field)
 * @param reason one sentence: what does not fit and what would
 */
record Misfit(String column, String tableType, String recordType, String reason) {
  /** A misfit of a value that is not yet named: the caller names it. */
  static Misfit of(Object tableType, Object recordType, String reason) {
    return new Misfit(null, String.valueOf(tableType), String.valueOf(recordType), reason);
  }

  /** This misfit one level up: its column path under {@code parent}. */
  Misfit under(String parent) {
    return new Misfit(
        column == null ? parent : parent + "." + column, tableType, recordType, reason);
  }

  /** e.g. {@code column amount_cents is long in the table but string in the record: ...}. */
  String describe() {
    return "column "
        + column
        + " is "
        + tableType
        + " in the table but "
        + recordType
        + " in the record: "
        + reason;
  }
}
