package io.sluice.tools.reconcile;

import io.sluice.tools.reconcile.TableOutcome.Status;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reconciles every keyed source table with its current table {@code <db>.<table>_current}, one
 * after the other: what {@code sluice reconcile --all} runs. A table that cannot be compared fails
 * on its own and the others still run; a lost JDBC connection ends the run.
 */
public final class AllTablesReconciler {
  private static final Logger log = LoggerFactory.getLogger(AllTablesReconciler.class);

  static final String NO_PRIMARY_KEY = "no primary key; changelog-only";
  static final String NO_CURRENT_TABLE_YET = "no current table yet, no source rows";

  private final Reconciler reconciler;
  private final Consumer<String> progress;

  public AllTablesReconciler(Reconciler reconciler, Consumer<String> progress) {
    this.reconciler = reconciler;
    this.progress = progress;
  }

  /**
   * One outcome per table of {@code tables}, in their order; {@code done} sees each as its table
   * finishes.
   *
   * @throws SQLException when the source connection fails: no table can be read any more
   */
  public List<TableOutcome> reconcile(
      Connection source, Catalog lake, List<SourceTable> tables, Consumer<TableOutcome> done)
      throws SQLException {
    List<TableOutcome> outcomes = new ArrayList<>(tables.size());
    for (int i = 0; i < tables.size(); i++) {
      SourceTable table = tables.get(i);
      progress.accept(
          "reconcile: [" + (i + 1) + "/" + tables.size() + "] " + table.qualifiedName());
      TableOutcome outcome = reconcile(source, lake, table);
      done.accept(outcome);
      outcomes.add(outcome);
    }
    return outcomes;
  }

  private TableOutcome reconcile(Connection source, Catalog lake, SourceTable table)
      throws SQLException {
    String name = table.qualifiedName();
    if (!table.keyed()) {
      return new TableOutcome(name, null, Status.SKIPPED, NO_PRIMARY_KEY, null);
    }
    String current = table.currentTable();
    TableIdentifier id = TableIdentifier.of(table.database(), table.name() + "_current");
    try {
      if (!lake.tableExists(id)) {
        ReconcileResult r = reconciler.reconcileAbsent(source, table.database(), table.name());
        return r.converged()
            ? new TableOutcome(name, current, Status.EQUAL, NO_CURRENT_TABLE_YET, r)
            : new TableOutcome(name, current, Status.DRIFT, missing(current), r);
      }
      ReconcileResult r =
          reconciler.reconcile(source, table.database(), table.name(), lake.loadTable(id));
      return new TableOutcome(name, current, r.converged() ? Status.EQUAL : Status.DRIFT, null, r);
    } catch (SQLException e) {
      throw e;
    } catch (RuntimeException e) {
      // One table that cannot be compared must not hide the state of the others.
      log.warn("Reconciling {} with {} failed", name, current, e);
      return new TableOutcome(name, current, Status.FAILED, e.getMessage(), null);
    }
  }

  static String missing(String current) {
    return "missing current table " + current + "; is the upsert sink following its clean topic?";
  }
}
