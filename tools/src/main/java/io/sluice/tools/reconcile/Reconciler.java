package io.sluice.tools.reconcile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Collections;
import java.util.Iterator;
import java.util.function.Consumer;
import org.apache.iceberg.Table;

/**
 * Source rows over JDBC against an Iceberg table through Iceberg's own reader: both reduced to
 * canonical lines (see {@link CanonicalRows}), sorted by primary key, hashed and diffed in one
 * pass. Memory stays bounded: the source streams in key order, Iceberg rows go through an external
 * sort, and a result keeps at most the row limit's first lines of each side.
 */
public final class Reconciler {
  public static final int DEFAULT_RUN_SIZE = 200_000;
  public static final int DEFAULT_LIST_LIMIT = 100;
  public static final int DEFAULT_ROW_LIMIT = 1000;

  private final Path tempDir;
  private final int runSize;
  private final int listLimit;
  private final int rowLimit;
  private final Consumer<String> progress;

  /**
   * @param listLimit at most how many differing lines a result lists per side
   * @param rowLimit at most how many lines in key order a result keeps per side (the report's
   *     {@code mysql_rows} and {@code iceberg_rows}); 0 keeps none
   */
  public Reconciler(
      Path tempDir, int runSize, int listLimit, int rowLimit, Consumer<String> progress) {
    if (rowLimit < 0) {
      throw new IllegalArgumentException("rowLimit must be >= 0, got " + rowLimit);
    }
    this.tempDir = tempDir;
    this.runSize = runSize;
    this.listLimit = listLimit;
    this.rowLimit = rowLimit;
    this.progress = progress;
  }

  /** With a temporary dir of the JVM and the default run size, listing limit and row limit. */
  public static Reconciler withDefaults(Consumer<String> progress) {
    return withDefaults(DEFAULT_ROW_LIMIT, progress);
  }

  /** With a temporary dir of the JVM, the default run size and listing limit. */
  public static Reconciler withDefaults(int rowLimit, Consumer<String> progress) {
    return new Reconciler(
        Path.of(System.getProperty("java.io.tmpdir")),
        DEFAULT_RUN_SIZE,
        DEFAULT_LIST_LIMIT,
        rowLimit,
        progress);
  }

  /**
   * Compares {@code db.table} on {@code source} with an Iceberg table that does not exist yet:
   * every source row is missing from it, and an empty source converges.
   *
   * @throws IllegalArgumentException when the source table is missing or has no primary key
   */
  public ReconcileResult reconcileAbsent(Connection source, String db, String table)
      throws SQLException {
    Path dir = createTempDir();
    try (JdbcRows rows = JdbcRows.open(source, db, table);
        ExternalSorter sourceSorter = new ExternalSorter(dir, runSize)) {
      return new SortedDiff(
              listLimit, rowLimit, n -> progress.accept("reconcile: compared " + n + " rows"))
          .diff(
              rows.columns(),
              rows.primaryKey(),
              inKeyOrder(rows, sourceSorter, db + "." + table),
              Collections.emptyIterator());
    } finally {
      deleteTempDir(dir);
    }
  }

  /**
   * Compares {@code db.table} on {@code source} with {@code actual}.
   *
   * @throws IllegalArgumentException when the source table is missing or has no primary key, or the
   *     Iceberg table lacks a primary-key column
   */
  public ReconcileResult reconcile(Connection source, String db, String table, Table actual)
      throws SQLException {
    Path dir = createTempDir();
    try (JdbcRows rows = JdbcRows.open(source, db, table);
        ExternalSorter sorter = new ExternalSorter(dir, runSize);
        ExternalSorter sourceSorter = new ExternalSorter(dir, runSize)) {
      for (String key : rows.primaryKey()) {
        if (actual.schema().findField(key) == null) {
          throw new IllegalArgumentException(
              "Iceberg table " + actual.name() + " has no primary-key column " + key);
        }
      }
      long read =
          IcebergRows.readInto(
              actual,
              rows.columns(),
              rows.primaryKey(),
              sorter,
              n -> progress.accept("reconcile: read " + n + " Iceberg rows"));
      progress.accept(
          "reconcile: " + read + " Iceberg rows read, comparing with " + db + "." + table);
      Iterator<KeyedLine> sourceRows = inKeyOrder(rows, sourceSorter, db + "." + table);
      return new SortedDiff(
              listLimit, rowLimit, n -> progress.accept("reconcile: compared " + n + " rows"))
          .diff(rows.columns(), rows.primaryKey(), sourceRows, sorter.sorted());
    } finally {
      deleteTempDir(dir);
    }
  }

  // The source streams in key order unless its key has a text column: the server's collation
  // then orders it otherwise, and the rows go through an external sort like Iceberg's.
  private Iterator<KeyedLine> inKeyOrder(JdbcRows rows, ExternalSorter sorter, String name) {
    if (rows.inKeyOrder()) {
      return rows;
    }
    progress.accept("reconcile: sorting " + name + " by key " + rows.primaryKey());
    rows.forEachRemaining(sorter::add);
    return sorter.sorted();
  }

  private Path createTempDir() {
    try {
      Files.createDirectories(tempDir);
      return Files.createTempDirectory(tempDir, "sluice-reconcile-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary dir under " + tempDir, e);
    }
  }

  private static void deleteTempDir(Path dir) {
    try {
      Files.deleteIfExists(dir);
    } catch (IOException e) {
      // the sorters removed their runs; an empty leftover dir is harmless
    }
  }
}
