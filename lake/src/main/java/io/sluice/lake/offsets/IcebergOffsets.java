package io.sluice.lake.offsets;

import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.kafka.common.TopicPartition;

/**
 * The Kafka offsets a table holds for a connector: per partition, the offset recorded by the newest
 * snapshot of the current ancestry that names it ({@link SnapshotOffsets}).
 */
public final class IcebergOffsets {
  private IcebergOffsets() {}

  /** Offsets of every partition the connector ever committed to {@code table}'s main branch. */
  public static Map<TopicPartition, Long> all(Table table, String connector) {
    return find(SnapshotUtil.currentAncestors(table), connector, null);
  }

  /** Offsets of {@code partitions} that {@code table} holds; absent partitions have none. */
  public static Map<TopicPartition, Long> of(
      Table table, String connector, Collection<TopicPartition> partitions) {
    return find(SnapshotUtil.currentAncestors(table), connector, Set.copyOf(partitions));
  }

  /**
   * Walks {@code ancestry} (newest first) until every wanted partition is found.
   *
   * @param wanted the partitions to find, or null for all
   */
  public static Map<TopicPartition, Long> find(
      Iterable<Snapshot> ancestry, String connector, Set<TopicPartition> wanted) {
    Map<TopicPartition, Long> found = new HashMap<>();
    Set<TopicPartition> missing = wanted == null ? null : new HashSet<>(wanted);
    for (Snapshot snapshot : ancestry) {
      if (missing != null && missing.isEmpty()) {
        break;
      }
      SnapshotOffsets.fromSummary(snapshot.summary(), connector)
          .ifPresent(
              offsets ->
                  offsets.forEach(
                      (tp, offset) -> {
                        if ((missing == null || missing.remove(tp)) && !found.containsKey(tp)) {
                          found.put(tp, offset);
                        }
                      }));
    }
    return found;
  }
}
