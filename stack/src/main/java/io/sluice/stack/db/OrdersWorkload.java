package io.sluice.stack.db;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * {@code cdc_lab.orders} (primary key {@code order_id}): the lab's main table, the one the verify
 * scenarios inject into.
 */
public final class OrdersWorkload extends TableWorkload {
  private static final List<String> STATUSES = List.of("NEW", "PAID", "PACKED", "SHIPPED");

  public OrdersWorkload(int seed) {
    super(seed);
  }

  /** The order id of row {@code index} of {@code seed}. */
  public static long orderId(int seed, long index) {
    return id(seed, index);
  }

  @Override
  public String table() {
    return OrdersTable.QUALIFIED_NAME;
  }

  @Override
  public String createSql() {
    return OrdersTable.CREATE_SQL;
  }

  @Override
  protected String insertSql() {
    return "INSERT INTO cdc_lab.orders (order_id, business_key, customer_id, amount_cents, status,"
        + " event_id, seed, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";
  }

  @Override
  protected void bindInsert(PreparedStatement ps, long index, long eventId) throws SQLException {
    ps.setLong(1, orderId(seed, index));
    ps.setString(2, "BK-" + seed + "-" + index);
    ps.setLong(3, 1 + random.nextInt(10_000));
    ps.setLong(4, 100 + random.nextInt(1_000_000));
    ps.setString(5, STATUSES.get(0));
    ps.setLong(6, eventId);
    ps.setInt(7, seed);
    ps.setObject(8, eventTime(eventId));
  }

  @Override
  protected String updateSql() {
    return "UPDATE cdc_lab.orders SET status = ?, amount_cents = ?, event_id = ?, updated_at = ?"
        + " WHERE order_id = ?";
  }

  @Override
  protected void bindUpdate(PreparedStatement ps, long index, long eventId) throws SQLException {
    ps.setString(1, STATUSES.get(1 + random.nextInt(STATUSES.size() - 1)));
    ps.setLong(2, 100 + random.nextInt(1_000_000));
    ps.setLong(3, eventId);
    ps.setObject(4, eventTime(eventId));
    ps.setLong(5, orderId(seed, index));
  }

  @Override
  protected String deleteSql() {
    return "DELETE FROM cdc_lab.orders WHERE order_id = ?";
  }

  @Override
  protected void bindDelete(PreparedStatement ps, long index) throws SQLException {
    ps.setLong(1, orderId(seed, index));
  }
}
