package io.sluice.stack.db;

import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * {@code cdc_lab.order_items}, a composite primary key {@code (order_id, line_no)}: row {@code i}
 * is line {@code 1 + (i - 1) % 3} of order {@code 1 + (i - 1) / 3}, so every order has up to three
 * lines and an update or delete of one line leaves its siblings alone.
 */
public final class OrderItemsWorkload extends TableWorkload {
  public static final String TABLE = "cdc_lab.order_items";

  /** Lines per order. */
  public static final int LINES = 3;

  public OrderItemsWorkload(int seed) {
    super(seed);
  }

  /** The order id of row {@code index}. */
  public static long orderId(int seed, long index) {
    return id(seed, 1 + (index - 1) / LINES);
  }

  /** The line number of row {@code index}. */
  public static int lineNo(long index) {
    return (int) (1 + (index - 1) % LINES);
  }

  @Override
  public String table() {
    return TABLE;
  }

  @Override
  public String createSql() {
    return "CREATE TABLE IF NOT EXISTS "
        + TABLE
        + " ( order_id BIGINT NOT NULL, line_no INT NOT NULL, sku VARCHAR(32) NOT NULL,"
        + " quantity INT NOT NULL, price_cents BIGINT NOT NULL, event_id BIGINT NOT NULL,"
        + " seed INT NOT NULL, updated_at DATETIME(3) NOT NULL, PRIMARY KEY (order_id, line_no))";
  }

  @Override
  protected String insertSql() {
    return "INSERT INTO "
        + TABLE
        + " (order_id, line_no, sku, quantity, price_cents, event_id, seed, updated_at)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  }

  @Override
  protected void bindInsert(PreparedStatement ps, long index, long eventId) throws SQLException {
    ps.setLong(1, orderId(seed, index));
    ps.setInt(2, lineNo(index));
    ps.setString(3, "SKU-" + (1 + random.nextInt(500)));
    ps.setInt(4, 1 + random.nextInt(5));
    ps.setLong(5, 100 + random.nextInt(100_000));
    ps.setLong(6, eventId);
    ps.setInt(7, seed);
    ps.setObject(8, eventTime(eventId));
  }

  @Override
  protected String updateSql() {
    return "UPDATE "
        + TABLE
        + " SET quantity = ?, price_cents = ?, event_id = ?, updated_at = ?"
        + " WHERE order_id = ? AND line_no = ?";
  }

  @Override
  protected void bindUpdate(PreparedStatement ps, long index, long eventId) throws SQLException {
    ps.setInt(1, 1 + random.nextInt(9));
    ps.setLong(2, 100 + random.nextInt(100_000));
    ps.setLong(3, eventId);
    ps.setObject(4, eventTime(eventId));
    ps.setLong(5, orderId(seed, index));
    ps.setInt(6, lineNo(index));
  }

  @Override
  protected String deleteSql() {
    return "DELETE FROM " + TABLE + " WHERE order_id = ? AND line_no = ?";
  }

  @Override
  protected void bindDelete(PreparedStatement ps, long index) throws SQLException {
    ps.setLong(1, orderId(seed, index));
    ps.setInt(2, lineNo(index));
  }
}
