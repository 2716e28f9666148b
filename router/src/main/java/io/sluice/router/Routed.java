package io.sluice.router;

import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.IntStream;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.serialization.Serializer;
import org.apache.kafka.streams.processor.StreamPartitioner;
import org.apache.kafka.streams.processor.TopicNameExtractor;

/**
 * A routed value on its way to the one sink: the output topic, the input partition to keep, and the
 * bytes to write (null for a tombstone). Its serde writes only the bytes, so clean records keep
 * their value bytes unchanged.
 */
public record Routed(String topic, int partition, byte[] bytes) {
  // Kafka Streams asks the partitioner for every record: the answers for the usual partitions are
  // built once.
  private static final List<Optional<Set<Integer>>> PARTITIONS =
      IntStream.range(0, 256).mapToObj(p -> Optional.of(Set.of(p))).toList();

  /** Writes {@link #bytes()} as the record value. */
  public static Serde<Routed> serde() {
    Serializer<Routed> serializer = (topic, routed) -> routed == null ? null : routed.bytes();
    Deserializer<Routed> deserializer =
        (topic, bytes) -> {
          throw new UnsupportedOperationException("routed values are only written");
        };
    return Serdes.serdeFrom(serializer, deserializer);
  }

  /** Picks {@link #topic()}. */
  public static TopicNameExtractor<byte[], Routed> topicExtractor() {
    return (key, routed, context) -> routed.topic();
  }

  /**
   * Keeps the input partition. When the output topic has fewer partitions than the input (created
   * by hand), input partition p goes to p mod n, so each key still lands in one partition.
   */
  public static StreamPartitioner<byte[], Routed> partitioner() {
    return (topic, key, routed, numPartitions) -> to(routed.partition() % numPartitions);
  }

  private static Optional<Set<Integer>> to(int partition) {
    return partition < PARTITIONS.size()
        ? PARTITIONS.get(partition)
        : Optional.of(Set.of(partition));
  }
}
