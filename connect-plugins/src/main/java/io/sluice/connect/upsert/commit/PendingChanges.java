package io.sluice.connect.upsert.commit;

import io.sluice.connect.upsert.event.ChangeEvent;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The records a task received since its last commit, per partition in offset order: their change
 * events and the next offset to read (tombstones move the offset without an event).
 */
public final class PendingChanges {
  private final Map<TopicPartition, Partition> partitions = new LinkedHashMap<>();

  /**
   * One partition's pending events, the offset of the first record received and the offset after
   * the last one.
   */
  public static final class Partition {
    private final List<ChangeEvent> events = new ArrayList<>();
    private long firstOffset = Long.MAX_VALUE;
    private long nextOffset = -1;

    public List<ChangeEvent> events() {
      return events;
    }

    public long nextOffset() {
      return nextOffset;
    }

    /** Where a re-read of this partition's pending records starts. */
    public long firstOffset() {
      return firstOffset;
    }
  }

  /**
   * Records that {@code tp} was read up to {@code offset}.
   *
   * @param event the record's change, null for a tombstone
   */
  public void add(TopicPartition tp, long offset, ChangeEvent event) {
    Partition partition = partitions.computeIfAbsent(tp, k -> new Partition());
    if (event != null) {
      partition.events.add(event);
    }
    partition.firstOffset = Math.min(partition.firstOffset, offset);
    partition.nextOffset = Math.max(partition.nextOffset, offset + 1);
  }

  public boolean isEmpty() {
    return partitions.isEmpty();
  }

  public Map<TopicPartition, Partition> partitions() {
    return partitions;
  }

  /** Forgets {@code tps} (revoked, or committed). */
  public void drop(Collection<TopicPartition> tps) {
    tps.forEach(partitions::remove);
  }

  /**
   * Takes back what {@code earlier} still holds after its commit round (partitions of a table that
   * does not exist yet, whose offsets ride along with its first commit, or of a fenced table),
   * ahead of this batch's records of the same partitions.
   */
  public void takeBack(PendingChanges earlier) {
    earlier.partitions.forEach(
        (tp, old) -> {
          Partition now = partitions.get(tp);
          if (now != null) {
            old.events.addAll(now.events);
            old.firstOffset = Math.min(old.firstOffset, now.firstOffset);
            old.nextOffset = Math.max(old.nextOffset, now.nextOffset);
          }
          partitions.put(tp, old);
        });
  }

  public void clear() {
    partitions.clear();
  }
}
