package io.sluice.tools.reconcile;

/**
 * How one table of {@code sluice reconcile --all} ended.
 *
 * @param table the source table {@code <db>.<table>}
 * @param icebergTable its current table, null when it has none (no primary key)
 * @param reason why it was skipped, why it drifted beyond its rows (a missing current table) or why
 *     it failed; null otherwise
 * @param result the reconciliation, null when the table was skipped or failed
 */
public record TableOutcome(
    String table, String icebergTable, Status status, String reason, ReconcileResult result) {

  /** In report order; the report writes the lower-case name. */
  public enum Status {
    /** Source and current table hold the same rows (or neither exists with rows). */
    EQUAL,
    /** They differ, or the source has rows and the current table does not exist. */
    DRIFT,
    /** No primary key: the table is changelog-only, there is nothing to upsert into. */
    SKIPPED,
    /** The comparison could not run (e.g. the current table lacks a key column). */
    FAILED;

    /** Whether the run can still exit 0 with a table in this state. */
    public boolean ok() {
      return this == EQUAL || this == SKIPPED;
    }
  }
}
