package io.sluice.scenarios;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.TableOutcome;
import java.util.List;
import java.util.Locale;

/**
 * One table whose current table did not equal the source when a phase of the run last read it: an
 * entry of the report's {@code table_drift}. The differing rows are listed as the reconciliation's
 * {@code snapshot_diff} lists them (canonical lines), at most {@code --report-rows} per side;
 * {@code snapshot_diff_truncated} says whether the lists hold fewer than {@code
 * snapshot_diff_count} rows.
 *
 * @param icebergTable its current table; null for a table without a primary key
 * @param status {@code drift} (rows differ, or the current table is missing) or {@code failed} (the
 *     comparison could not run)
 * @param reason why it drifted beyond its rows (a missing current table) or failed; else null
 * @param mysqlRowCount rows of the source table; null when the comparison did not run
 * @param icebergRowCount rows of the current table (deletes applied); null likewise
 * @param snapshotDiffCount every missing plus every unexpected row; null likewise
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record TableDrift(
    String table,
    String icebergTable,
    String status,
    String reason,
    Long mysqlRowCount,
    Long icebergRowCount,
    Long snapshotDiffCount,
    List<String> missingFromActual,
    List<String> unexpectedInActual,
    boolean snapshotDiffTruncated) {

  /**
   * The tables of {@code outcomes} that are neither equal nor skipped, in their order.
   *
   * @param rows at most how many differing rows to list per side ({@code --report-rows})
   */
  public static List<TableDrift> drifting(List<TableOutcome> outcomes, int rows) {
    return outcomes.stream().filter(o -> !o.status().ok()).map(o -> of(o, rows)).toList();
  }

  /** {@code outcome} as the report lists it, at most {@code rows} differing rows per side. */
  public static TableDrift of(TableOutcome outcome, int rows) {
    String status = outcome.status().name().toLowerCase(Locale.ROOT);
    ReconcileResult r = outcome.result();
    if (r == null) {
      return new TableDrift(
          outcome.table(),
          outcome.icebergTable(),
          status,
          outcome.reason(),
          null,
          null,
          null,
          List.of(),
          List.of(),
          false);
    }
    return of(outcome.table(), outcome.icebergTable(), status, outcome.reason(), r, rows);
  }

  /** The drift of {@code table} against its current table {@code icebergTable}, as {@code r}. */
  public static TableDrift of(String table, String icebergTable, ReconcileResult r, int rows) {
    return of(table, icebergTable, "drift", null, r, rows);
  }

  private static TableDrift of(
      String table,
      String icebergTable,
      String status,
      String reason,
      ReconcileResult r,
      int rows) {
    List<String> missing = first(r.missingFromActual(), rows);
    List<String> unexpected = first(r.unexpectedInActual(), rows);
    return new TableDrift(
        table,
        icebergTable,
        status,
        reason,
        r.sourceRows(),
        r.actualRows(),
        r.diffCount(),
        missing,
        unexpected,
        missing.size() + unexpected.size() < r.diffCount());
  }

  private static List<String> first(List<String> lines, int rows) {
    return List.copyOf(lines.subList(0, Math.min(lines.size(), Math.max(rows, 0))));
  }
}
