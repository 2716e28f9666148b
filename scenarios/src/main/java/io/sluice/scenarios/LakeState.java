package io.sluice.scenarios;

import io.sluice.lake.IcebergRows;
import io.sluice.lake.LakeCatalog;
import io.sluice.tools.reconcile.AllTablesReconciler;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.Reconciler;
import io.sluice.tools.reconcile.SourceTables;
import io.sluice.tools.reconcile.TableOutcome;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The source table and its two Iceberg tables as a scenario checks them: the reconciliation of the
 * source with the current table, and the event ids of all three. Every call reads afresh (a new
 * JDBC transaction, the tables' current snapshots).
 */
public final class LakeState {
  static final String EVENT_ID = "event_id";

  /** Opens a JDBC connection in auto-commit mode, so every read sees the latest commit. */
  interface Source {
    Connection connect() throws SQLException;
  }

  private final Source source;
  private final LakeCatalog lake;
  private final String db;
  private final String table;
  private final String currentTable;
  private final String changelogTable;
  private final Reconciler reconciler;

  LakeState(
      Source source,
      LakeCatalog lake,
      String db,
      String table,
      String currentTable,
      String changelogTable,
      int reportRows) {
    this.source = source;
    this.lake = lake;
    this.db = db;
    this.table = table;
    this.currentTable = currentTable;
    this.changelogTable = changelogTable;
    this.reconciler = Reconciler.withDefaults(reportRows, line -> {});
  }

  /**
   * Source rows over JDBC against the current table through Iceberg's reader; the result keeps the
   * first report-rows lines of each side.
   */
  public ReconcileResult reconcile() throws SQLException {
    try (Connection c = source.connect()) {
      return reconciler.reconcile(c, db, table, lake.table(currentTable));
    }
  }

  /** The event-id audit of the changelog and current tables against the source. */
  public EventIdAudit audit() throws SQLException {
    return EventIdAudit.of(eventIds(changelogTable), sourceEventIds(), eventIds(currentTable));
  }

  /** The event id of every row of an Iceberg table (null for a row without one). */
  public List<Long> eventIds(String icebergTable) {
    List<Long> ids = new ArrayList<>();
    IcebergRows.read(lake.table(icebergTable), 0, r -> ids.add((Long) r.getField(EVENT_ID)));
    return ids;
  }

  public List<Long> sourceEventIds() throws SQLException {
    List<Long> ids = new ArrayList<>();
    try (Connection c = source.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT " + EVENT_ID + " FROM " + db + "." + table)) {
      while (rs.next()) {
        ids.add(rs.getLong(1));
      }
    }
    return ids;
  }

  /** How many rows of {@code db.table} belong to {@code seed}. */
  public long rowsOfSeed(int seed) throws SQLException {
    return rowsOfSeed(db + "." + table, seed);
  }

  /** The rows of {@code seed} in the lab table {@code qualifiedTable}; 0 when it does not exist. */
  public long rowsOfSeed(String qualifiedTable, int seed) throws SQLException {
    try (Connection c = source.connect();
        Statement s = c.createStatement()) {
      String[] parts = qualifiedTable.split("\\.", 2);
      try (ResultSet tables = c.getMetaData().getTables(parts[0], null, parts[1], null)) {
        if (!tables.next()) {
          return 0;
        }
      }
      try (ResultSet rs =
          s.executeQuery("SELECT COUNT(*) FROM " + qualifiedTable + " WHERE seed = " + seed)) {
        rs.next();
        return rs.getLong(1);
      }
    }
  }

  /**
   * Every base table of the source database against its current table, as {@code sluice reconcile
   * --all} does it: a table without a primary key is skipped (changelog-only).
   */
  public List<TableOutcome> reconcileAll() throws SQLException {
    try (Connection c = source.connect()) {
      return new AllTablesReconciler(reconciler, line -> {})
          .reconcile(c, lake.catalog(), SourceTables.discover(c, List.of(db)), outcome -> {});
    }
  }
}
