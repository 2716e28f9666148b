package io.sluice.stack.db;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.BitSet;
import java.util.Random;

/**
 * Deletes and re-inserts of the same keys of {@code cdc_lab.orders}: a pool of keys, all inserted
 * by the first round; every later round deletes about half of the keys present (Debezium sends a
 * delete and a tombstone for each), updates about a quarter, and re-inserts about half of the keys
 * absent with new values. A lake that resurrects a deleted row, or loses a re-insert behind a
 * delete of the same key, differs from the source afterwards. Deterministic from the seed: the same
 * seed, the same statements in the same order.
 */
public final class DeleteStormWorkload {
  private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");

  private final int seed;
  private final int keys;
  private final Random random;
  private final BitSet present = new BitSet();
  private long events;

  /**
   * @param seed the keys are {@link TableWorkload#id}{@code (seed, 1..keys)}, the event ids {@code
   *     seed * ID_SPAN + keys + n}
   */
  public DeleteStormWorkload(int seed, int keys) {
    if (keys < 1 || keys >= TableWorkload.ID_SPAN / 2) {
      throw new IllegalArgumentException("the delete storm needs 1 or more keys, got " + keys);
    }
    this.seed = seed;
    this.keys = keys;
    this.random = new Random(seed);
  }

  /** What one round did. */
  public record Round(int inserted, int updated, int deleted, long lastEventId) {}

  /** Runs the next round in one transaction. */
  public Round round(Connection c) throws SQLException {
    boolean first = events == 0;
    int inserted = 0;
    int updated = 0;
    int deleted = 0;
    c.setAutoCommit(false);
    try (PreparedStatement insert =
            c.prepareStatement(
                "INSERT INTO "
                    + OrdersTable.QUALIFIED_NAME
                    + " (order_id, business_key, customer_id, amount_cents, status, event_id,"
                    + " seed, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
        PreparedStatement update =
            c.prepareStatement(
                "UPDATE "
                    + OrdersTable.QUALIFIED_NAME
                    + " SET amount_cents = ?, status = ?, event_id = ?, updated_at = ?"
                    + " WHERE order_id = ?");
        PreparedStatement delete =
            c.prepareStatement(
                "DELETE FROM " + OrdersTable.QUALIFIED_NAME + " WHERE order_id = ?")) {
      for (int k = 1; k <= keys; k++) {
        long id = TableWorkload.id(seed, k);
        double dice = random.nextDouble();
        if (!present.get(k) && (first || dice < 0.5)) {
          long event = nextEvent();
          insert.setLong(1, id);
          insert.setString(2, "BK-" + seed + "-" + k);
          insert.setLong(3, 1 + random.nextInt(10_000));
          insert.setLong(4, 100 + random.nextInt(1_000_000));
          insert.setString(5, "NEW");
          insert.setLong(6, event);
          insert.setInt(7, seed);
          insert.setObject(8, time(event));
          insert.executeUpdate();
          present.set(k);
          inserted++;
        } else if (present.get(k) && !first && dice < 0.5) {
          nextEvent(); // a delete is an event too
          delete.setLong(1, id);
          delete.executeUpdate();
          present.clear(k);
          deleted++;
        } else if (present.get(k) && !first && dice < 0.75) {
          long event = nextEvent();
          update.setLong(1, 100 + random.nextInt(1_000_000));
          update.setString(2, "PAID");
          update.setLong(3, event);
          update.setObject(4, time(event));
          update.setLong(5, id);
          update.executeUpdate();
          updated++;
        }
      }
      c.commit();
    } catch (SQLException e) {
      c.rollback();
      throw e;
    }
    return new Round(inserted, updated, deleted, seed * TableWorkload.ID_SPAN + keys + events);
  }

  /** The keys present in the source after the rounds so far. */
  public int presentKeys() {
    return present.cardinality();
  }

  /** Whether key {@code k} (1-based) is present after the rounds so far. */
  public boolean present(int k) {
    return present.get(k);
  }

  private long nextEvent() {
    events++;
    return seed * TableWorkload.ID_SPAN + keys + events;
  }

  private static LocalDateTime time(long eventId) {
    return LocalDateTime.ofInstant(
        EPOCH.plusMillis((eventId % TableWorkload.ID_SPAN) * 1_000L), ZoneOffset.UTC);
  }
}
