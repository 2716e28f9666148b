package io.sluice.connect.upsert.metrics;

import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.table.TableNames;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.catalog.TableIdentifier;

/**
 * One task's view of the sink's meters: its connector's tables, found by topic. Used by the task's
 * thread and its commit thread (the quarantine counts there too).
 */
public final class SinkMetrics {
  private final SinkMeters meters;
  private final String connector;
  private final TableNames names;
  private final Map<String, TableMeters> byTopic = new ConcurrentHashMap<>();

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
    return byTopic.computeIfAbsent(topic, t -> table(names.table(t)));
  }

  /** The meters of {@code table}. */
  public TableMeters table(TableIdentifier table) {
    return meters.table(connector, table.toString());
  }
}
