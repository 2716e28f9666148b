package io.sluice.tools.reconcile;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * The verification report's {@code reconciliation} object: what {@code sluice reconcile --output}
 * writes and what {@code sluice verify} puts in its report, in one place. {@code mysql_rows} and
 * {@code iceberg_rows} are row counts (the names of the reference report), as are the two {@code
 * *_snapshot_row_count} keys.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ReconciliationReport(
    long mysqlRows,
    long icebergRows,
    long sourceSnapshotRowCount,
    long icebergSnapshotRowCount,
    String sourceSnapshotSha256,
    String icebergSnapshotSha256,
    SnapshotDiff snapshotDiff,
    long snapshotDiffCount) {

  /** Canonical lines on one side only (at most the reconciler's listing limit each). */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record SnapshotDiff(List<String> missingFromActual, List<String> unexpectedInActual) {}

  /** The {@code reconciliation} object for {@code r}. */
  public static ReconciliationReport of(ReconcileResult r) {
    return new ReconciliationReport(
        r.sourceRows(),
        r.actualRows(),
        r.sourceRows(),
        r.actualRows(),
        r.sourceSha256(),
        r.actualSha256(),
        new SnapshotDiff(r.missingFromActual(), r.unexpectedInActual()),
        r.diffCount());
  }
}
