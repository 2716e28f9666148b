package io.sluice.tools.reconcile;

import java.util.List;

/**
 * What a reconciliation found. Field names follow the report's {@code reconciliation} object.
 *
 * @param sourceRows rows read from the source table
 * @param actualRows rows read from the Iceberg table (deletes applied)
 * @param sourceLines the source's first canonical lines in key order, at most the reconciler's row
 *     limit: the first lines {@link #sourceSha256} is computed over; {@link #sourceRows} counts all
 * @param actualLines the same for the Iceberg rows
 * @param sourceSha256 sha256 over the source's sorted canonical lines, each ending in a newline
 * @param actualSha256 the same over the Iceberg rows
 * @param missingFromActual canonical source lines Iceberg lacks or holds differently (at most the
 *     listing limit; {@link #diffCount} counts all)
 * @param unexpectedInActual canonical Iceberg lines the source lacks (extra keys, duplicates, or
 *     different values)
 * @param diffCount every missing plus every unexpected line
 */
public record ReconcileResult(
    List<String> columns,
    List<String> primaryKey,
    long sourceRows,
    long actualRows,
    List<String> sourceLines,
    List<String> actualLines,
    String sourceSha256,
    String actualSha256,
    List<String> missingFromActual,
    List<String> unexpectedInActual,
    long diffCount) {

  public boolean converged() {
    return diffCount == 0 && sourceSha256.equals(actualSha256);
  }
}
