package io.sluice.tools.dlq.kafka;

import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.producer.Producer;

/**
 * Where the DLQ tools get their Kafka clients: the broker in production, {@code MockConsumer} /
 * {@code MockProducer} in unit tests. The caller closes what it gets.
 */
public interface KafkaClients {

  /** A read_committed consumer without a group (it is assigned partitions, never subscribes). */
  Consumer<byte[], byte[]> consumer();

  /** A transactional producer with this {@code transactional.id}; not yet initialized. */
  Producer<byte[], byte[]> transactionalProducer(String transactionalId);

  /**
   * Creates {@code topic} with one partition, {@code cleanup.policy=compact} and the broker's
   * default replication factor, unless it exists.
   */
  void ensureCompactedTopic(String topic);
}
