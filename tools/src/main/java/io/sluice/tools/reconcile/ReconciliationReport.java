package io.sluice.tools.reconcile;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The verification report's {@code reconciliation} object: what {@code sluice reconcile --output}
 * writes and what {@code sluice verify} puts in its report, in one place.
 */
public final class ReconciliationReport {
  private ReconciliationReport() {}

  /** The {@code reconciliation} object for {@code r}, keys in the report's order. */
  public static Map<String, Object> of(ReconcileResult r) {
    Map<String, Object> diff = new LinkedHashMap<>();
    diff.put("missing_from_actual", r.missingFromActual());
    diff.put("unexpected_in_actual", r.unexpectedInActual());
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("mysql_rows", r.sourceRows());
    report.put("iceberg_rows", r.actualRows());
    report.put("source_snapshot_row_count", r.sourceRows());
    report.put("iceberg_snapshot_row_count", r.actualRows());
    report.put("source_snapshot_sha256", r.sourceSha256());
    report.put("iceberg_snapshot_sha256", r.actualSha256());
    report.put("snapshot_diff", diff);
    report.put("snapshot_diff_count", r.diffCount());
    return report;
  }
}
