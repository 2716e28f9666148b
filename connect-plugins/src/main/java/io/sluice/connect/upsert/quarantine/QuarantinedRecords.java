package io.sluice.connect.upsert.quarantine;

import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * The input records this task knows to be in the DLQ while their offsets are not yet in Iceberg,
 * with where their DLQ records sit, and the next offset known per DLQ partition. It answers
 * "already quarantined?" and the DLQ offsets ({@link DlqOffsets}) a commit records: per DLQ
 * partition, the lowest offset at which a DLQ record of a not yet committed input may sit.
 */
final class QuarantinedRecords {
  /** An input record's identity: its topic, partition and offset. */
  record Input(String topic, int partition, long offset) {
    TopicPartition topicPartition() {
      return new TopicPartition(topic, partition);
    }

    @Override
    public String toString() {
      return "topic " + topic + " partition " + partition + " offset " + offset;
    }
  }

  private record Position(TopicPartition dlq, long offset) {}

  private final Map<Input, Position> entries = new HashMap<>();
  private final Map<TopicPartition, Long> next = new HashMap<>();

  boolean contains(Input input) {
    return entries.containsKey(input);
  }

  int size() {
    return entries.size();
  }

  /** {@code input}'s DLQ record is at {@code offset} of {@code dlq}. */
  void add(Input input, TopicPartition dlq, long offset) {
    entries.putIfAbsent(input, new Position(dlq, offset));
    next.merge(dlq, offset + 1, Math::max);
  }

  /** {@code dlq} was read (or written) up to {@code end}. */
  void seen(TopicPartition dlq, long end) {
    next.merge(dlq, end, Math::max);
  }

  /** Forgets inputs below the offsets Iceberg now holds: they can never be read again. */
  void committed(Map<TopicPartition, Long> held) {
    entries
        .keySet()
        .removeIf(
            input -> {
              Long offset = held.get(input.topicPartition());
              return offset != null && input.offset() < offset;
            });
  }

  /** Forgets the inputs of revoked partitions. */
  void drop(Collection<TopicPartition> inputs) {
    entries.keySet().removeIf(input -> inputs.contains(input.topicPartition()));
  }

  /**
   * Per known DLQ partition: the lowest DLQ offset of a record whose input is not committed, else
   * the next offset known. Any DLQ record this task writes from now on lands at or after it.
   */
  Map<TopicPartition, Long> bounds() {
    Map<TopicPartition, Long> bounds = new HashMap<>(next);
    entries.values().forEach(p -> bounds.merge(p.dlq(), p.offset(), Math::min));
    return bounds;
  }
}
