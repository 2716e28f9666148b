package io.sluice.scenarios;

import io.sluice.lake.IcebergRows;
import io.sluice.stack.db.OrdersWorkload;
import io.sluice.stack.workload.OrderRow;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The rows a scenario writes beside its workload: poison-dlq's intended row of the poison record
 * (order {@code baseline + 1} of the seed) and the row inserted after capture resumes (order {@code
 * baseline + 2}), sink-poison's intended and following rows, registry-outage's rows of an unseen
 * schema version. Each derives from the seed and the order id only ({@link OrderRow#generate}); its
 * event id is its order id, which is also the event id {@link OrdersWorkload} gives the n-th change
 * of a seed, so ids stay in one sequence.
 */
public final class ScenarioRows {
  private static final String INSERT =
      "INSERT INTO cdc_lab.orders (order_id, business_key, customer_id, amount_cents, status,"
          + " event_id, seed, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)";

  private ScenarioRows() {}

  /** Order {@code index} of {@code seed} (1-based, as the workload counts). */
  public static OrderRow row(int seed, long index) {
    return OrderRow.generate(OrdersWorkload.orderId(seed, index), seed);
  }

  /** Inserts {@code row} in its own transaction. */
  public static void insert(Connection c, OrderRow row) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(INSERT)) {
      ps.setLong(1, row.orderId());
      ps.setString(2, row.businessKey());
      ps.setLong(3, row.customerId());
      ps.setLong(4, row.amountCents());
      ps.setString(5, row.status());
      ps.setLong(6, row.eventId());
      ps.setInt(7, row.seed());
      // DATETIME has no zone: UTC here, as capture and the repair's JSON read it.
      ps.setObject(8, updatedAt(row));
      ps.executeUpdate();
    }
    if (!c.getAutoCommit()) {
      c.commit();
    }
  }

  /**
   * The row as the columns of {@code cdc_lab.orders}, timestamps as {@code yyyy-MM-dd
   * HH:mm:ss.SSS}.
   */
  public static Map<String, Object> columns(OrderRow row) {
    Map<String, Object> columns = new LinkedHashMap<>();
    columns.put("order_id", row.orderId());
    columns.put("business_key", row.businessKey());
    columns.put("customer_id", row.customerId());
    columns.put("amount_cents", row.amountCents());
    columns.put("status", row.status());
    columns.put("event_id", row.eventId());
    columns.put("seed", row.seed());
    columns.put("updated_at", IcebergRows.timestamp(updatedAt(row)));
    return columns;
  }

  /** The poison payload's JSON object: the repair strategy {@code json-intended-row} reads it. */
  public static Map<String, Object> intendedPayload(OrderRow row) {
    Map<String, Object> payload = new LinkedHashMap<>();
    payload.put("intended_after", columns(row));
    payload.put("intended_operation", "c");
    return payload;
  }

  private static LocalDateTime updatedAt(OrderRow row) {
    return LocalDateTime.ofInstant(Instant.ofEpochMilli(row.updatedAtMs()), ZoneOffset.UTC);
  }
}
