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
 * A record value on its way through the router: the bytes read from an input topic, then the output
 * topic and the input partition to keep. Its serde reads and writes only the bytes, so clean
 * records keep their value bytes unchanged.
 *
 * <p>Routed in place on purpose: the processor routes the value it was given and forwards the same
 * {@code Record}. A new {@code Record} would copy the headers, and Kafka Streams would then build a
 * new record context for the sink; ~150 bytes and three copies per record that a pass-through does
 * not pay. A value is only ever held by the one task that processes its record.
 */
public final class Routed {
  // Kafka Streams asks the partitioner for every record: the answers for the usual partitions are
  // built once.
  private static final List<Optional<Set<Integer>>> PARTITIONS =
      IntStream.range(0, 256).mapToObj(p -> Optional.of(Set.of(p))).toList();

  private final byte[] bytes;
  private String topic;
  private int partition = -1;

  /** A value routed to {@code partition} of {@code topic}. */
  public Routed(String topic, int partition, byte[] bytes) {
    this.bytes = bytes;
    this.topic = topic;
    this.partition = partition;
  }

  /** A value read from an input topic, not routed yet. */
  public Routed(byte[] bytes) {
    this.bytes = bytes;
  }

  /** Sends this value to {@code partition} of {@code topic}. */
  public void routeTo(String topic, int partition) {
    this.topic = topic;
    this.partition = partition;
  }

  /** The output topic; null until routed. */
  public String topic() {
    return topic;
  }

  /** The output partition (before folding into a smaller topic); -1 until routed. */
  public int partition() {
    return partition;
  }

  /** The value bytes, null for a tombstone. */
  public byte[] bytes() {
    return bytes;
  }

  /** Writes {@link #bytes()} as the record value; reads an input value as an unrouted value. */
  public static Serde<Routed> serde() {
    Serializer<Routed> serializer = (topic, routed) -> routed == null ? null : routed.bytes();
    Deserializer<Routed> deserializer = (topic, bytes) -> bytes == null ? null : new Routed(bytes);
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

  @Override
  public String toString() {
    return "Routed["
        + topic
        + "-"
        + partition
        + ", "
        + (bytes == null ? "null" : bytes.length + " bytes")
        + "]";
  }
}
