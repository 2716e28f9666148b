package io.sluice.stack.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Deterministic changes to one source table: {@code rows} inserts of row 1..rows, then {@code
 * updates} updates and {@code deletes} deletes of distinct rows, committed in batches. The same
 * seed gives the same rows, values and event ids; ids of seed S live in [S * ID_SPAN + 1, (S + 1) *
 * ID_SPAN), so loads with different seeds do not collide. A subclass says how row {@code index} is
 * written.
 */
public abstract class TableWorkload {
  /** Ids of a seed live in [seed * ID_SPAN + 1, (seed + 1) * ID_SPAN). */
  public static final long ID_SPAN = 100_000_000L;

  private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
  private static final int BATCH = 500;

  /** What a run did. */
  public record Result(String table, long inserted, long updated, long deleted, long lastEventId) {}

  protected final int seed;
  protected final Random random;
  private long eventCounter;

  protected TableWorkload(int seed) {
    if (seed < 0) {
      throw new IllegalArgumentException("--seed must be >= 0, got " + seed);
    }
    this.seed = seed;
    this.random = new Random(seed);
  }

  /** The qualified source table, e.g. {@code cdc_lab.orders}. */
  public abstract String table();

  /** {@code CREATE TABLE IF NOT EXISTS} of {@link #table()}. */
  public abstract String createSql();

  protected abstract String insertSql();

  protected abstract void bindInsert(PreparedStatement ps, long index, long eventId)
      throws SQLException;

  protected abstract String updateSql();

  protected abstract void bindUpdate(PreparedStatement ps, long index, long eventId)
      throws SQLException;

  protected abstract String deleteSql();

  protected abstract void bindDelete(PreparedStatement ps, long index) throws SQLException;

  /**
   * Inserts {@code rows} rows, then updates {@code updates} of them and deletes {@code deletes}
   * (distinct rows, chosen by the seed), committing every batch; {@code progress} receives a line
   * now and then.
   */
  public Result run(Connection c, long rows, long updates, long deletes, Consumer<String> progress)
      throws SQLException {
    if (rows < 0 || updates < 0 || deletes < 0) {
      throw new IllegalArgumentException("--rows, --updates and --deletes must be >= 0");
    }
    if (updates > rows || deletes > rows) {
      throw new IllegalArgumentException(
          "--updates and --deletes cannot exceed --rows (" + rows + ")");
    }
    c.setAutoCommit(false);
    try (PreparedStatement ps = c.prepareStatement(insertSql())) {
      for (long i = 1; i <= rows; i++) {
        bindInsert(ps, i, nextEventId());
        ps.addBatch();
        flushEvery(c, ps, i, rows, "inserted", progress);
      }
    }
    try (PreparedStatement ps = c.prepareStatement(updateSql())) {
      // Rows 1..updates in a seeded shuffle would need memory; a stride visits distinct rows.
      long stride = coprimeStride(rows);
      for (long n = 0; n < updates; n++) {
        bindUpdate(ps, 1 + (n * stride) % rows, nextEventId());
        ps.addBatch();
        flushEvery(c, ps, n + 1, updates, "updated", progress);
      }
    }
    try (PreparedStatement ps = c.prepareStatement(deleteSql())) {
      for (long n = 0; n < deletes; n++) {
        nextEventId(); // a delete is an event too: keep ids aligned with the event stream
        bindDelete(ps, rows - n);
        ps.addBatch();
        flushEvery(c, ps, n + 1, deletes, "deleted", progress);
      }
    }
    return new Result(table(), rows, updates, deletes, seed * ID_SPAN + eventCounter);
  }

  /** The id of row {@code index} of {@code seed}. */
  public static long id(int seed, long index) {
    return seed * ID_SPAN + index;
  }

  // DATETIME has no zone: a LocalDateTime keeps the value the same whatever the JVM's zone.
  protected static LocalDateTime eventTime(long eventId) {
    return LocalDateTime.ofInstant(EPOCH.plusMillis((eventId % ID_SPAN) * 1_000L), ZoneOffset.UTC);
  }

  private void flushEvery(
      Connection c,
      PreparedStatement ps,
      long done,
      long total,
      String verb,
      Consumer<String> progress)
      throws SQLException {
    if (done % BATCH == 0 || done == total) {
      ps.executeBatch();
      c.commit();
      if (done % (BATCH * 20L) == 0 || done == total) {
        progress.accept(table() + ": " + verb + " " + done + "/" + total);
      }
    }
  }

  private long nextEventId() {
    return seed * ID_SPAN + ++eventCounter;
  }

  private static long coprimeStride(long rows) {
    if (rows <= 1) {
      return 1;
    }
    long stride = Math.max(1, (long) (rows * 0.618));
    while (gcd(stride, rows) != 1) {
      stride++;
    }
    return stride;
  }

  private static long gcd(long a, long b) {
    return b == 0 ? a : gcd(b, a % b);
  }
}
