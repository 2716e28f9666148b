package io.sluice.lake.offsets;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
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
   * How deep into {@code ancestry} (newest first) a lookup may have to walk: the index of the
   * oldest snapshot that is, for some connector and partition it records, the newest snapshot
   * naming that partition. {@link #find} for any partition the ancestry records, the sink's offset
   * fence and the DLQ offsets stored beside the offsets never read past it, so snapshot expiry
   * keeps it and every newer one. A snapshot whose offsets cannot be read counts as needed.
   *
   * @return the index, -1 when no snapshot records offsets
   */
  public static int oldestNeeded(List<Snapshot> ancestry) {
    return oldestNeeded(ancestry, Long.MIN_VALUE);
  }

  /**
   * {@link #oldestNeeded(List)} of the entries still in use: a (connector, partition) whose newest
   * naming snapshot was committed before {@code cutoffMs} no longer counts ({@link #retired}), nor
   * does a snapshot older than that whose offsets cannot be read. A task re-records every partition
   * it holds at least every idle-commit interval, so only partitions nobody holds any more (a topic
   * retired, a connector renamed) grow that old; their offsets may then expire with their snapshot.
   *
   * @param cutoffMs the horizon: now minus how long an entry counts without being recorded again
   */
  public static int oldestNeeded(List<Snapshot> ancestry, long cutoffMs) {
    return oldestNeeded(ancestry, cutoffMs, (connector, partition) -> false);
  }

  /**
   * {@link #oldestNeeded(List, long)}, where the entries {@code kept} accepts count whatever their
   * age: the partitions the connector asking still subscribes to, which its tasks re-record as long
   * as they run, so that an outage of the connector longer than the horizon costs no offsets.
   */
  public static int oldestNeeded(
      List<Snapshot> ancestry, long cutoffMs, BiPredicate<String, TopicPartition> kept) {
    int oldest = -1;
    for (Newest entry : newest(ancestry)) {
      if (!retired(entry, cutoffMs, kept)) {
        oldest = Math.max(oldest, entry.index());
      }
    }
    return oldest;
  }

  /**
   * The (connector, partition) entries of {@code ancestry} (newest first) that {@link
   * #oldestNeeded(List, long)} no longer counts, oldest snapshot last.
   */
  public static List<Retired> retired(List<Snapshot> ancestry, long cutoffMs) {
    return retired(ancestry, cutoffMs, (connector, partition) -> false);
  }

  /** {@link #retired(List, long)} but for the entries {@code kept} accepts. */
  public static List<Retired> retired(
      List<Snapshot> ancestry, long cutoffMs, BiPredicate<String, TopicPartition> kept) {
    List<Retired> retired = new ArrayList<>();
    for (Newest entry : newest(ancestry)) {
      if (entry.partition() != null && retired(entry, cutoffMs, kept)) {
        retired.add(
            new Retired(
                entry.connector(),
                entry.partition(),
                entry.snapshot().snapshotId(),
                entry.snapshot().timestampMillis()));
      }
    }
    return retired;
  }

  /**
   * A connector's partition that no task recorded again since {@code timestampMillis}.
   *
   * @param snapshotId the newest snapshot naming it
   */
  public record Retired(
      String connector, TopicPartition partition, long snapshotId, long timestampMillis) {}

  /**
   * The newest snapshot naming a connector's partition, at {@code index} of the ancestry; {@code
   * partition} null for a snapshot whose offsets cannot be read.
   */
  private record Newest(String connector, TopicPartition partition, Snapshot snapshot, int index) {}

  private static List<Newest> newest(List<Snapshot> ancestry) {
    Set<String> named = new HashSet<>();
    List<Newest> newest = new ArrayList<>();
    for (int i = 0; i < ancestry.size(); i++) {
      Snapshot snapshot = ancestry.get(i);
      Map<String, String> summary = snapshot.summary();
      for (String connector : SnapshotOffsets.connectors(summary)) {
        try {
          Map<TopicPartition, Long> offsets =
              SnapshotOffsets.fromSummary(summary, connector).orElse(Map.of());
          for (TopicPartition tp : offsets.keySet()) {
            if (named.add(connector + '\u0000' + tp)) {
              newest.add(new Newest(connector, tp, snapshot, i));
            }
          }
        } catch (IllegalStateException e) {
          newest.add(new Newest(connector, null, snapshot, i));
        }
      }
    }
    return newest;
  }

  private static boolean retired(
      Newest entry, long cutoffMs, BiPredicate<String, TopicPartition> kept) {
    return entry.snapshot().timestampMillis() < cutoffMs
        && (entry.partition() == null || !kept.test(entry.connector(), entry.partition()));
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
