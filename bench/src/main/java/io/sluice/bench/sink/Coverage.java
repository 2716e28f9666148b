package io.sluice.bench.sink;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * When the records of a topic became visible in one Iceberg table: per partition, the commits (a
 * snapshot's commit time) and the offset up to which each made the partition visible. A record is
 * visible from the first commit whose offset exceeds its own. Thread-safe: one poller adds, the
 * benchmark reads.
 */
public final class Coverage {
  private record Commit(long timeMs, long nextOffset) {}

  private final Map<Integer, List<Commit>> commits = new HashMap<>();
  private int snapshots;
  private int advancing;

  /**
   * Records a snapshot committed at {@code timeMs} covering, per partition, every offset below the
   * given one. Offsets never go back: a lower one than already seen changes nothing.
   */
  synchronized void add(long timeMs, Map<Integer, Long> nextOffsets) {
    snapshots++;
    boolean advanced = false;
    for (Map.Entry<Integer, Long> entry : nextOffsets.entrySet()) {
      List<Commit> list = commits.computeIfAbsent(entry.getKey(), p -> new ArrayList<>());
      long next = entry.getValue();
      if (list.isEmpty() || next > list.get(list.size() - 1).nextOffset()) {
        list.add(new Commit(timeMs, next));
        advanced = true;
      }
    }
    if (advanced) {
      advancing++;
    }
  }

  /** Commit time of the first snapshot that made {@code offset} visible, or -1 if none did yet. */
  public synchronized long visibleAt(int partition, long offset) {
    List<Commit> list = commits.get(partition);
    if (list == null) {
      return -1;
    }
    int low = 0;
    int high = list.size() - 1;
    int found = -1;
    while (low <= high) {
      int mid = (low + high) >>> 1;
      if (list.get(mid).nextOffset() > offset) {
        found = mid;
        high = mid - 1;
      } else {
        low = mid + 1;
      }
    }
    return found < 0 ? -1 : list.get(found).timeMs();
  }

  /** Records below {@code ends} that are visible, summed over partitions. */
  public synchronized long visibleRecords(Map<Integer, Long> starts, Map<Integer, Long> ends) {
    long visible = 0;
    for (Map.Entry<Integer, Long> end : ends.entrySet()) {
      long start = starts.getOrDefault(end.getKey(), 0L);
      visible += Math.max(0, Math.min(next(end.getKey()), end.getValue()) - start);
    }
    return visible;
  }

  /**
   * When every record below {@code ends} had become visible (the latest of the partitions' times),
   * or -1 while some are not.
   */
  public synchronized long allVisibleAt(Map<Integer, Long> ends) {
    long latest = 0;
    for (Map.Entry<Integer, Long> end : ends.entrySet()) {
      if (end.getValue() == 0) {
        continue;
      }
      long at = visibleAt(end.getKey(), end.getValue() - 1);
      if (at < 0) {
        return -1;
      }
      latest = Math.max(latest, at);
    }
    return latest;
  }

  /** How many snapshots were added. */
  public synchronized int snapshots() {
    return snapshots;
  }

  /**
   * How many of the snapshots made more records visible: the sink's commits, leaving out snapshots
   * that carry no offsets or none beyond the last (a table's maintenance).
   */
  public synchronized int commits() {
    return advancing;
  }

  private long next(int partition) {
    List<Commit> list = commits.get(partition);
    return list == null || list.isEmpty() ? 0 : list.get(list.size() - 1).nextOffset();
  }
}
