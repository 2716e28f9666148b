package io.sluice.stack.kafka;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/** Reads what a consumer group committed and what a read_committed reader sees. */
public final class CommittedRecords {
  private CommittedRecords() {}

  /** Records a read_committed reader saw, and the offsets (last stable offsets) it read up to. */
  public record Slice(long records, Map<TopicPartition, Long> end) {}

  /** The sum over the topic's partitions of the group's committed offsets (0 when none). */
  public static long committedOffsets(Admin admin, String group, String topic) {
    Map<TopicPartition, OffsetAndMetadata> offsets =
        get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(), group);
    return offsets.entrySet().stream()
        .filter(e -> e.getKey().topic().equals(topic) && e.getValue() != null)
        .mapToLong(e -> e.getValue().offset())
        .sum();
  }

  /**
   * Counts the records a read_committed consumer reads from {@code from} (null: the beginning) up
   * to the topic's current last stable offsets. Transaction markers and aborted records are not
   * counted.
   */
  public static Slice count(
      String bootstrapServers, String topic, int partitions, Map<TopicPartition, Long> from) {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            IsolationLevel.READ_COMMITTED.toString().toLowerCase(Locale.ROOT),
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
            5000,
            // Up to end offsets known before the read: a fetch at the commit marker ending a
            // partition would otherwise wait out Kafka's 500 ms for nothing (see TopicReader).
            ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
            10);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      List<TopicPartition> tps = partitions(topic, partitions);
      consumer.assign(tps);
      if (from == null) {
        consumer.seekToBeginning(tps);
      } else {
        tps.forEach(tp -> consumer.seek(tp, from.getOrDefault(tp, 0L)));
      }
      Map<TopicPartition, Long> ends = consumer.endOffsets(tps);
      long count = 0;
      while (tps.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp))) {
        count += consumer.poll(Duration.ofMillis(500)).count();
      }
      return new Slice(count, ends);
    }
  }

  public static List<TopicPartition> partitions(String topic, int partitions) {
    List<TopicPartition> tps = new ArrayList<>();
    for (int p = 0; p < partitions; p++) {
      tps.add(new TopicPartition(topic, p));
    }
    return tps;
  }

  private static <T> T get(KafkaFuture<T> future, String what) {
    try {
      return future.get();
    } catch (ExecutionException e) {
      throw new IllegalStateException("Kafka request about " + what + " failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted during a Kafka request about " + what, e);
    }
  }
}
