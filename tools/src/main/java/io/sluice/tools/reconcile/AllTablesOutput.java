package io.sluice.tools.reconcile;

import io.sluice.tools.reconcile.TableOutcome.Status;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;

/** The console lines of {@code sluice reconcile --all}: one per table, then the summary. */
final class AllTablesOutput {
  private AllTablesOutput() {}

  static void print(PrintWriter out, TableOutcome o) {
    ReconcileResult r = o.result();
    String head = String.format("%-40s ", o.table());
    switch (o.status()) {
      case SKIPPED -> out.println(head + "skipped: " + o.reason());
      case FAILED -> out.println(head + "FAILED: " + o.reason());
      default -> {
        String rows =
            String.format("source %d rows, lake %d rows: ", r.sourceRows(), r.actualRows());
        String verdict =
            o.status() == Status.EQUAL ? "equal" : "DRIFT, " + r.diffCount() + " differing rows";
        out.println(head + rows + verdict + (o.reason() != null ? " (" + o.reason() + ")" : ""));
        r.missingFromActual().forEach(line -> out.println("  missing from iceberg: " + line));
        r.unexpectedInActual().forEach(line -> out.println("  unexpected in iceberg: " + line));
      }
    }
  }

  static void summary(PrintWriter out, List<TableOutcome> outcomes, double seconds) {
    Map<Status, Integer> n = AllTablesReport.counts(outcomes);
    out.printf(
        "%s: %d tables, %d equal, %d drift, %d skipped, %d failed (%.1f s)%n",
        AllTablesReport.converged(outcomes) ? "CONVERGED" : "DIFFERENT",
        outcomes.size(),
        n.get(Status.EQUAL),
        n.get(Status.DRIFT),
        n.get(Status.SKIPPED),
        n.get(Status.FAILED),
        seconds);
  }
}
