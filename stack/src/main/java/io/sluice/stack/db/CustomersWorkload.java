package io.sluice.stack.db;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/** {@code cdc_lab.customers} (primary key {@code customer_id}). */
public final class CustomersWorkload extends TableWorkload {
  public static final String TABLE = "cdc_lab.customers";

  private static final List<String> TIERS = List.of("BRONZE", "SILVER", "GOLD");

  public CustomersWorkload(int seed) {
    super(seed);
  }

  @Override
  public String table() {
    return TABLE;
  }

  @Override
  public String createSql() {
    return "CREATE TABLE IF NOT EXISTS "
        + TABLE
        + " ( customer_id BIGINT NOT NULL PRIMARY KEY, name VARCHAR(64) NOT NULL,"
        + " email VARCHAR(128), tier VARCHAR(16) NOT NULL, event_id BIGINT NOT NULL,"
        + " seed INT NOT NULL, updated_at DATETIME(3) NOT NULL)";
  }

  @Override
  protected String insertSql() {
    return "INSERT INTO "
        + TABLE
        + " (customer_id, name, email, tier, event_id, seed, updated_at)"
        + " VALUES (?, ?, ?, ?, ?, ?, ?)";
  }

  @Override
  protected void bindInsert(PreparedStatement ps, long index, long eventId) throws SQLException {
    ps.setLong(1, id(seed, index));
    ps.setString(2, "customer " + seed + "-" + index);
    // Every seventh customer left no e-mail: nulls reach the lake too.
    ps.setString(3, index % 7 == 0 ? null : "c" + seed + "-" + index + "@example.com");
    ps.setString(4, TIERS.get(random.nextInt(TIERS.size())));
    ps.setLong(5, eventId);
    ps.setInt(6, seed);
    ps.setObject(7, eventTime(eventId));
  }

  @Override
  protected String updateSql() {
    return "UPDATE " + TABLE + " SET tier = ?, event_id = ?, updated_at = ? WHERE customer_id = ?";
  }

  @Override
  protected void bindUpdate(PreparedStatement ps, long index, long eventId) throws SQLException {
    ps.setString(1, TIERS.get(random.nextInt(TIERS.size())));
    ps.setLong(2, eventId);
    ps.setObject(3, eventTime(eventId));
    ps.setLong(4, id(seed, index));
  }

  @Override
  protected String deleteSql() {
    return "DELETE FROM " + TABLE + " WHERE customer_id = ?";
  }

  @Override
  protected void bindDelete(PreparedStatement ps, long index) throws SQLException {
    ps.setLong(1, id(seed, index));
  }
}
