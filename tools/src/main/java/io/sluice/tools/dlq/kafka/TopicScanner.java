package io.sluice.tools.dlq.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;

/**
 * Reads partitions of a topic up to their end as a read_committed consumer sees it when the read
 * starts (the last stable offset): what the DLQ tools read the DLQ, the ledger and the original
 * topic with. Owns its consumer.
 */
public final class TopicScanner implements AutoCloseable {
  /** How long a read may go without progress before it fails. */
  static final Duration STALL_TIMEOUT = Duration.ofSeconds(30);

  private static final Duration POLL = Duration.ofMillis(200);
  private static final Duration METADATA_TIMEOUT = Duration.ofSeconds(15);

  private final Consumer<byte[], byte[]> consumer;

  public TopicScanner(Consumer<byte[], byte[]> consumer) {
    this.consumer = consumer;
  }

  /** The partition numbers of {@code topic} in order; empty when the topic does not exist. */
  public List<Integer> partitions(String topic) {
    List<PartitionInfo> infos = consumer.partitionsFor(topic, METADATA_TIMEOUT);
    List<Integer> partitions = new ArrayList<>();
    if (infos != null) {
      infos.forEach(info -> partitions.add(info.partition()));
    }
    partitions.sort(Comparator.naturalOrder());
    return partitions;
  }

  /** Every topic the consumer can see, with its partition numbers in order. */
  public Map<String, List<Integer>> topics() {
    Map<String, List<Integer>> topics = new TreeMap<>();
    consumer
        .listTopics(METADATA_TIMEOUT)
        .forEach(
            (topic, infos) -> {
              List<Integer> partitions = new ArrayList<>();
              infos.forEach(info -> partitions.add(info.partition()));
              partitions.sort(Comparator.naturalOrder());
              topics.put(topic, partitions);
            });
    return topics;
  }

  /** Every record of every partition of {@code topic}, partition by partition, in offset order. */
  public void readAll(
      String topic, java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> to) {
    for (int partition : partitions(topic)) {
      read(
          new TopicPartition(topic, partition),
          -1,
          record -> {
            to.accept(record);
            return true;
          });
    }
  }

  /**
   * Hands the records of {@code partition} from {@code fromOffset} (-1: the beginning) up to its
   * current end to {@code visitor}, in offset order, until the visitor returns false.
   *
   * @throws IllegalStateException when the read makes no progress for {@link #STALL_TIMEOUT}
   */
  public void read(
      TopicPartition partition,
      long fromOffset,
      Predicate<ConsumerRecord<byte[], byte[]>> visitor) {
    scan(partition, fromOffset, visitor);
  }

  /**
   * Hands every record of {@code partition} from {@code fromOffset} (-1: the beginning) up to its
   * current end to {@code to}, in offset order, and returns the offset the next read starts from:
   * the end, past commit markers and aborted records (a read that resumes there polls nothing when
   * nothing was written since).
   *
   * @throws IllegalStateException when the read makes no progress for {@link #STALL_TIMEOUT}
   */
  public long readFrom(
      TopicPartition partition,
      long fromOffset,
      java.util.function.Consumer<ConsumerRecord<byte[], byte[]>> to) {
    return scan(
        partition,
        fromOffset,
        record -> {
          to.accept(record);
          return true;
        });
  }

  /** Reads as {@link #read} does; returns where the read stopped (the end when it was reached). */
  private long scan(
      TopicPartition partition,
      long fromOffset,
      Predicate<ConsumerRecord<byte[], byte[]>> visitor) {
    List<TopicPartition> assigned = List.of(partition);
    consumer.assign(assigned);
    long begin = consumer.beginningOffsets(assigned).getOrDefault(partition, 0L);
    long end = consumer.endOffsets(assigned).getOrDefault(partition, 0L);
    long start = Math.max(begin, fromOffset);
    if (start >= end) {
      return Math.max(start, end);
    }
    consumer.seek(partition, start);
    long stalledSince = System.nanoTime();
    while (consumer.position(partition) < end) {
      List<ConsumerRecord<byte[], byte[]>> records = consumer.poll(POLL).records(partition);
      if (records.isEmpty()) {
        if (System.nanoTime() - stalledSince > STALL_TIMEOUT.toNanos()) {
          throw new IllegalStateException(
              "could not read "
                  + partition
                  + " from offset "
                  + consumer.position(partition)
                  + " to "
                  + end
                  + " within "
                  + STALL_TIMEOUT.toSeconds()
                  + " s; is the broker reachable?");
        }
        continue;
      }
      stalledSince = System.nanoTime();
      for (ConsumerRecord<byte[], byte[]> record : records) {
        if (record.offset() >= end) {
          return end;
        }
        if (!visitor.test(record)) {
          return record.offset() + 1;
        }
      }
    }
    return end;
  }

  /** The first offset of {@code partition} with a timestamp at or after {@code timestampMs}. */
  public Long offsetForTime(TopicPartition partition, long timestampMs) {
    var found = consumer.offsetsForTimes(Map.of(partition, timestampMs), METADATA_TIMEOUT);
    var hit = found.get(partition);
    return hit == null ? null : hit.offset();
  }

  @Override
  public void close() {
    consumer.close();
  }
}
