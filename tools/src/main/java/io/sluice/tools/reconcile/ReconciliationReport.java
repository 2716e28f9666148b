package io.sluice.tools.reconcile;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * The verification report's {@code reconciliation} object: what {@code sluice reconcile --output}
 * writes and what {@code sluice verify} puts in its report, in one place. {@code mysql_rows} and
 * {@code iceberg_rows} are, as in the reference report, the rows themselves: canonical row objects
 * (column to string, null stays null) in primary-key order, at most the reconciler's row limit
 * each; {@code *_row_count} count every row and {@code *_rows_truncated} say whether the list holds
 * fewer. Each object is the canonical line the sha256 is computed over, parsed.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record ReconciliationReport(
    List<Map<String, String>> mysqlRows,
    List<Map<String, String>> icebergRows,
    long mysqlRowCount,
    long icebergRowCount,
    boolean mysqlRowsTruncated,
    boolean icebergRowsTruncated,
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
        rows(r.sourceLines()),
        rows(r.actualLines()),
        r.sourceRows(),
        r.actualRows(),
        r.sourceLines().size() < r.sourceRows(),
        r.actualLines().size() < r.actualRows(),
        r.sourceRows(),
        r.actualRows(),
        r.sourceSha256(),
        r.actualSha256(),
        new SnapshotDiff(r.missingFromActual(), r.unexpectedInActual()),
        r.diffCount());
  }

  private static List<Map<String, String>> rows(List<String> lines) {
    return lines.stream().map(CanonicalRows::row).toList();
  }
}
