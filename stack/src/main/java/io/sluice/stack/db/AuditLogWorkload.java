package io.sluice.stack.db;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

/**
 * {@code cdc_lab.audit_log}, a table without a primary key: Debezium emits its events with null
 * keys, so it has a changelog table in the lake and no current table
 * (docs/design.md#every-table-of-a-database).
 */
public final class AuditLogWorkload extends TableWorkload {
  public static final String TABLE = "cdc_lab.audit_log";

  private static final List<String> ACTIONS = List.of("login", "view", "checkout", "logout");

  public AuditLogWorkload(int seed) {
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
        + " ( entry_no BIGINT NOT NULL, action VARCHAR(16) NOT NULL, event_id BIGINT NOT NULL,"
        + " seed INT NOT NULL, logged_at DATETIME(3) NOT NULL)";
  }

  @Override
  protected String insertSql() {
    return "INSERT INTO "
        + TABLE
        + " (entry_no, action, event_id, seed, logged_at) VALUES (?, ?, ?, ?, ?)";
  }

  @Override
  protected void bindInsert(PreparedStatement ps, long index, long eventId) throws SQLException {
    ps.setLong(1, id(seed, index));
    ps.setString(2, ACTIONS.get(random.nextInt(ACTIONS.size())));
    ps.setLong(3, eventId);
    ps.setInt(4, seed);
    ps.setObject(5, eventTime(eventId));
  }

  @Override
  protected String updateSql() {
    return "UPDATE " + TABLE + " SET action = ?, event_id = ? WHERE entry_no = ?";
  }

  @Override
  protected void bindUpdate(PreparedStatement ps, long index, long eventId) throws SQLException {
    ps.setString(1, ACTIONS.get(random.nextInt(ACTIONS.size())));
    ps.setLong(2, eventId);
    ps.setLong(3, id(seed, index));
  }

  @Override
  protected String deleteSql() {
    return "DELETE FROM " + TABLE + " WHERE entry_no = ?";
  }

  @Override
  protected void bindDelete(PreparedStatement ps, long index) throws SQLException {
    ps.setLong(1, id(seed, index));
  }
}
