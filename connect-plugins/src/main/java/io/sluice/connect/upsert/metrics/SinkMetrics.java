package io.sluice.connect.upsert.metrics;

import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.table.TableNames;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * One task's view of the sink's meters: its connector's tables, found by topic. Not thread-safe;
 * used on the task's thread (the meters it hands out are).
 */
public final class SinkMetrics {
  private final SinkMeters meters;
  private final String connector;
  private final TableNames names;
  private final Map<String, TableMeters> byTopic = new HashMap<>();

  public SinkMetrics(SinkMeters meters, String connector, TableNames names) {
    this.meters = meters;
    this.connector = connector;
    this.names = names;
  }

  /**
   * Counts a record of {@code topic} taken from Kafka.
   *
   * @param event its change, null for a tombstone
   */
  public void received(String topic, ChangeEvent event) {
    ofTopic(topic).received(event);
  }

  /** Counts a keyless record of {@code topic}, skipped: its table has no primary key. */
  public void keyless(String topic) {
    ofTopic(topic).keyless();
  }

  /** Counts a record of {@code topic} sent to the DLQ with {@code code}. */
  public void quarantined(String topic, String code) {
    ofTopic(topic).quarantined(code);
  }

  private TableMeters ofTopic(String topic) {
    TableMeters table = byTopic.get(topic);
    if (table == null) {
      table = table(names.table(topic));
      byTopic.put(topic, table);
    }
    return table;
  }

  /** The meters of {@code table}. */
  public TableMeters table(TableIdentifier table) {
    return meters.table(connector, table.toString());
  }
}
