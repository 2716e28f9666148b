package io.sluice.lab.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * Deterministic changes to {@code cdc_lab.orders}: the same seed gives the same rows, the same
 * updates and deletes, and the same event ids, so two runs can be compared byte for byte. Order ids
 * and event ids are offset by the seed so loads with different seeds do not collide.
 */
public final class OrdersWorkload {
  /** Order ids of a seed live in [seed * ID_SPAN + 1, (seed + 1) * ID_SPAN). */
  public static final long ID_SPAN = 100_000_000L;

  private static final List<String> STATUSES = List.of("NEW", "PAID", "PACKED", "SHIPPED");
  private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
  private static final int BATCH = 500;

  /** What a run did. */
  public record Result(long inserted, long updated, long deleted, long lastEventId) {}

  private final int seed;
  private final Random random;
  private long eventCounter;

  public OrdersWorkload(int seed) {
    if (seed < 0) {
      throw new IllegalArgumentException("--seed must be >= 0, got " + seed);
    }
    this.seed = seed;
    this.random = new Random(seed);
  }

  public static long orderId(int seed, long index) {
    return seed * ID_SPAN + index;
  }

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
    long inserted = insert(c, rows, progress);
    long updated = update(c, rows, updates, progress);
    long deleted = delete(c, rows, deletes, progress);
    return new Result(inserted, updated, deleted, currentEventId());
  }

  private long insert(Connection c, long rows, Consumer<String> progress) throws SQLException {
    String sql =
        "INSERT INTO cdc_lab.orders (order_id, business_key, customer_id, amount_cents, status,"
            + " event_id, seed, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (long i = 1; i <= rows; i++) {
        long eventId = nextEventId();
        ps.setLong(1, orderId(seed, i));
        ps.setString(2, "BK-" + seed + "-" + i);
        ps.setLong(3, 1 + random.nextInt(10_000));
        ps.setLong(4, 100 + random.nextInt(1_000_000));
        ps.setString(5, STATUSES.get(0));
        ps.setLong(6, eventId);
        ps.setInt(7, seed);
        ps.setObject(8, eventTime(eventId));
        ps.addBatch();
        flushEvery(c, ps, i, rows, "inserted", progress);
      }
    }
    return rows;
  }

  private long update(Connection c, long rows, long updates, Consumer<String> progress)
      throws SQLException {
    String sql =
        "UPDATE cdc_lab.orders SET status = ?, amount_cents = ?, event_id = ?, updated_at = ?"
            + " WHERE order_id = ?";
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      // Rows 1..updates in a seeded shuffle would need memory; a stride visits distinct rows.
      long stride = coprimeStride(rows);
      for (long n = 0; n < updates; n++) {
        long index = 1 + (n * stride) % rows;
        long eventId = nextEventId();
        ps.setString(1, STATUSES.get(1 + random.nextInt(STATUSES.size() - 1)));
        ps.setLong(2, 100 + random.nextInt(1_000_000));
        ps.setLong(3, eventId);
        ps.setObject(4, eventTime(eventId));
        ps.setLong(5, orderId(seed, index));
        ps.addBatch();
        flushEvery(c, ps, n + 1, updates, "updated", progress);
      }
    }
    return updates;
  }

  private long delete(Connection c, long rows, long deletes, Consumer<String> progress)
      throws SQLException {
    try (PreparedStatement ps =
        c.prepareStatement("DELETE FROM cdc_lab.orders WHERE order_id = ?")) {
      for (long n = 0; n < deletes; n++) {
        nextEventId(); // a delete is an event too: keep ids aligned with the event stream
        ps.setLong(1, orderId(seed, rows - n));
        ps.addBatch();
        flushEvery(c, ps, n + 1, deletes, "deleted", progress);
      }
    }
    return deletes;
  }

  private static void flushEvery(
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
        progress.accept(verb + " " + done + "/" + total);
      }
    }
  }

  private long nextEventId() {
    return seed * ID_SPAN + ++eventCounter;
  }

  private long currentEventId() {
    return seed * ID_SPAN + eventCounter;
  }

  // DATETIME has no zone: a LocalDateTime keeps the value the same whatever the JVM's zone.
  private static LocalDateTime eventTime(long eventId) {
    return LocalDateTime.ofInstant(EPOCH.plusMillis((eventId % ID_SPAN) * 1_000L), ZoneOffset.UTC);
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
