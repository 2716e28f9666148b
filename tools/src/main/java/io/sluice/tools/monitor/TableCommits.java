package io.sluice.tools.monitor;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * Reads one table's metadata into a {@link TableReading}, counting as commits the snapshots that
 * appeared since the previous reading.
 *
 * <p>Only a watermark is kept, not the snapshot ids seen: the newest snapshot by (sequence number,
 * timestamp, id). Every commit to a format v2+ table gets the next sequence number, so a snapshot
 * above the watermark is new whatever its branch; a v1 table has none (all 0), so there the
 * timestamp decides, and a commit stamped earlier than the newest one seen (writers on skewed
 * clocks) is missed. The first reading counts nothing: commits made before the monitor started are
 * in the gauges, not the counters. A table dropped and created again under the same name (another
 * uuid) counts all its snapshots, which all appeared since the previous reading.
 */
final class TableCommits {
  private String uuid;
  private boolean read;
  private long sequenceNumber = -1;
  private long timestampMillis = Long.MIN_VALUE;
  private long snapshotId = Long.MIN_VALUE;

  /** Reads {@code table}'s current metadata (no data file, no manifest) and moves the watermark. */
  TableReading read(Table table) {
    String tableUuid = table.uuid() == null ? null : table.uuid().toString();
    boolean first = !read;
    if (read && !Objects.equals(uuid, tableUuid)) {
      resetWatermark();
    }
    uuid = tableUuid;
    read = true;
    Map<String, Long> newCommits = new TreeMap<>();
    int snapshots = 0;
    long topSequence = sequenceNumber;
    long topTimestamp = timestampMillis;
    long topId = snapshotId;
    for (Snapshot snapshot : table.snapshots()) {
      snapshots++;
      if (isAfter(snapshot, sequenceNumber, timestampMillis, snapshotId)) {
        if (!first) {
          newCommits.merge(TableReading.operation(snapshot), 1L, Long::sum);
        }
        if (isAfter(snapshot, topSequence, topTimestamp, topId)) {
          topSequence = snapshot.sequenceNumber();
          topTimestamp = snapshot.timestampMillis();
          topId = snapshot.snapshotId();
        }
      }
    }
    sequenceNumber = topSequence;
    timestampMillis = topTimestamp;
    snapshotId = topId;
    return TableReading.of(table.currentSnapshot(), snapshots, newCommits);
  }

  private void resetWatermark() {
    sequenceNumber = -1;
    timestampMillis = Long.MIN_VALUE;
    snapshotId = Long.MIN_VALUE;
  }

  private static boolean isAfter(Snapshot snapshot, long sequence, long timestamp, long id) {
    if (snapshot.sequenceNumber() != sequence) {
      return snapshot.sequenceNumber() > sequence;
    }
    if (snapshot.timestampMillis() != timestamp) {
      return snapshot.timestampMillis() > timestamp;
    }
    return snapshot.snapshotId() > id;
  }
}
