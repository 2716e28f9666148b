package io.sluice.connect.upsert.quarantine;

import io.sluice.lake.offsets.SnapshotOffsets;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.kafka.common.TopicPartition;

/**
 * Where a restarted task starts reading the DLQ to find what it already quarantined, as stored in
 * the snapshot summary next to the input offsets (a wire format Sluice owns, version {@value
 * #VERSION}; docs/design.md#offsets-in-the-snapshot-summary).
 *
 * <p>Summary entries: {@code sluice.dlq-offsets.<connector>} = {@code {"<dlq topic>-<partition>":
 * <offset>, ...}} (the JSON of {@link SnapshotOffsets#encode}) and {@code
 * sluice.dlq-offsets-version} = {@code 1}. Every DLQ record this connector wrote for an input
 * record the snapshot does not cover sits at or after that offset of its DLQ partition; a DLQ
 * partition that is not named must be read from its beginning.
 */
public final class DlqOffsets {
  public static final String KEY_PREFIX = "sluice.dlq-offsets.";
  public static final String VERSION_KEY = "sluice.dlq-offsets-version";
  public static final int VERSION = 1;

  private DlqOffsets() {}

  public static String key(String connector) {
    return KEY_PREFIX + connector;
  }

  /** The summary entries recording {@code bounds}. */
  public static Map<String, String> toSummary(String connector, Map<TopicPartition, Long> bounds) {
    Map<String, String> summary = new LinkedHashMap<>();
    summary.put(key(connector), SnapshotOffsets.encode(bounds));
    summary.put(VERSION_KEY, String.valueOf(VERSION));
    return summary;
  }

  /**
   * The DLQ start offsets a snapshot recorded for {@code connector}, empty when it has none.
   *
   * @throws IllegalStateException when the entry has an unknown version or is not valid
   */
  public static Optional<Map<TopicPartition, Long>> fromSummary(
      Map<String, String> summary, String connector) {
    String json = summary == null ? null : summary.get(key(connector));
    if (json == null) {
      return Optional.empty();
    }
    String version = summary.get(VERSION_KEY);
    if (!String.valueOf(VERSION).equals(version)) {
      throw new IllegalStateException(
          "snapshot summary "
              + key(connector)
              + " has DLQ offsets format version "
              + version
              + "; this Sluice reads version "
              + VERSION);
    }
    return Optional.of(SnapshotOffsets.decode(json));
  }

  /**
   * Where to read the DLQ from for input {@code partitions} of {@code table}: for each, the DLQ
   * offsets of the newest snapshot naming it (the one its input offset comes from), merged by
   * minimum; a DLQ partition one of those snapshots does not name is left out (read it from its
   * beginning).
   *
   * @return the start per DLQ partition; empty when some partition's snapshot recorded none (or the
   *     partition was never committed): then the DLQ must be read from its beginning
   */
  public static Optional<Map<TopicPartition, Long>> startFor(
      Table table, String connector, Collection<TopicPartition> partitions) {
    Set<TopicPartition> missing = new HashSet<>(partitions);
    Map<TopicPartition, Long> start = null;
    for (Snapshot snapshot : SnapshotUtil.currentAncestors(table)) {
      if (missing.isEmpty()) {
        break;
      }
      Optional<Map<TopicPartition, Long>> offsets =
          SnapshotOffsets.fromSummary(snapshot.summary(), connector);
      if (offsets.isEmpty() || !offsets.get().keySet().stream().anyMatch(missing::contains)) {
        continue;
      }
      Optional<Map<TopicPartition, Long>> bounds = fromSummary(snapshot.summary(), connector);
      if (bounds.isEmpty()) {
        return Optional.empty();
      }
      missing.removeAll(offsets.get().keySet());
      if (start == null) {
        start = new HashMap<>(bounds.get());
      } else {
        start.keySet().retainAll(bounds.get().keySet());
        for (Map.Entry<TopicPartition, Long> e : start.entrySet()) {
          e.setValue(Math.min(e.getValue(), bounds.get().get(e.getKey())));
        }
      }
    }
    return missing.isEmpty() && start != null ? Optional.of(start) : Optional.empty();
  }
}
