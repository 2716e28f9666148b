package io.sluice.bench.sink;

import io.sluice.lake.IcebergRows;
import io.sluice.stack.workload.OrderRow;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Table;

/**
 * A current table against the state the changes leave behind, read with Iceberg's own reader
 * (deletes applied).
 *
 * @param rows the rows the table holds
 * @param expectedRows the live keys the changes leave
 * @param wrongKeys keys whose row is missing, extra or has another {@code event_id}
 * @param duplicateKeys rows beyond the first of their key
 */
public record TableCheck(long rows, long expectedRows, long wrongKeys, long duplicateKeys) {
  public boolean passed() {
    return rows == expectedRows && wrongKeys == 0 && duplicateKeys == 0;
  }

  /** Reads {@code table} and compares it with {@code expected}, by order id. */
  public static TableCheck of(Table table, Map<Long, OrderRow> expected) {
    Map<Long, Long> eventIds = new HashMap<>();
    long[] rows = {0};
    long[] duplicates = {0};
    IcebergRows.read(
        table,
        0,
        r -> {
          rows[0]++;
          if (eventIds.put((Long) r.getField("order_id"), (Long) r.getField("event_id")) != null) {
            duplicates[0]++;
          }
        });
    long wrongKeys = 0;
    Set<Long> keys = new HashSet<>(expected.keySet());
    keys.addAll(eventIds.keySet());
    for (Long key : keys) {
      OrderRow row = expected.get(key);
      Long eventId = eventIds.get(key);
      if (row == null || eventId == null || row.eventId() != eventId) {
        wrongKeys++;
      }
    }
    return new TableCheck(rows[0], expected.size(), wrongKeys, duplicates[0]);
  }
}
