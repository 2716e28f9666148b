package io.sluice.schema.server;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The registry's durable storage: a compacted single-partition Kafka topic. {@link #replay} reads
 * it from the beginning to its end; {@link #append} writes one entry and waits for the broker's
 * acknowledgement.
 */
final class SchemaLog implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SchemaLog.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  private final String bootstrapServers;
  private final String topic;
  private final KafkaProducer<byte[], byte[]> producer;

  private SchemaLog(String bootstrapServers, String topic) {
    this.bootstrapServers = bootstrapServers;
    this.topic = topic;
    this.producer = new KafkaProducer<>(producerProperties(bootstrapServers));
  }

  /** Creates the topic when it is missing and opens a producer on it. */
  static SchemaLog open(String bootstrapServers, String topic) {
    createTopicIfMissing(bootstrapServers, topic);
    return new SchemaLog(bootstrapServers, topic);
  }

  String topic() {
    return topic;
  }

  /**
   * Hands every entry from the beginning of the topic to its current end to {@code sink}, in order.
   *
   * @return how many records were read
   */
  long replay(Consumer<LogEntry> sink) {
    TopicPartition partition = new TopicPartition(topic, 0);
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(consumerProperties(bootstrapServers))) {
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long end = consumer.endOffsets(List.of(partition), TIMEOUT).get(partition);
      long deadline = System.nanoTime() + TIMEOUT.toNanos();
      long read = 0;
      while (consumer.position(partition, TIMEOUT) < end) {
        if (System.nanoTime() - deadline > 0) {
          throw new IllegalStateException(
              "could not read " + topic + " to its end (offset " + end + ") within " + TIMEOUT);
        }
        for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
          read++;
          LogEntry entry = decode(record);
          if (entry != null) {
            sink.accept(entry);
          }
        }
      }
      return read;
    }
  }

  /**
   * Writes {@code entry} and waits until the broker acknowledged it.
   *
   * @throws IllegalStateException when the write failed or timed out
   */
  void append(LogEntry entry) {
    ProducerRecord<byte[], byte[]> record =
        new ProducerRecord<>(topic, 0, LogEntryCodec.key(entry), LogEntryCodec.value(entry));
    try {
      producer.send(record).get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while writing to " + topic, e);
    } catch (ExecutionException | TimeoutException e) {
      Throwable cause = e instanceof ExecutionException ? e.getCause() : e;
      throw new IllegalStateException("write to " + topic + " failed: " + cause, cause);
    }
  }

  @Override
  public void close() {
    producer.close(Duration.ofSeconds(5));
  }

  private LogEntry decode(ConsumerRecord<byte[], byte[]> record) {
    try {
      return LogEntryCodec.decode(record.key(), record.value());
    } catch (IllegalArgumentException e) {
      // One unreadable record must not make every other schema unavailable.
      log.warn("skipping unreadable record {}-0@{}: {}", topic, record.offset(), e.getMessage());
      return null;
    }
  }

  private static void createTopicIfMissing(String bootstrapServers, String topic) {
    Properties props = new Properties();
    props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, (int) TIMEOUT.toMillis());
    try (Admin admin = Admin.create(props)) {
      if (admin
          .listTopics()
          .names()
          .get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)
          .contains(topic)) {
        return;
      }
      NewTopic newTopic =
          new NewTopic(topic, 1, (short) 1)
              .configs(
                  Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
      admin.createTopics(List.of(newTopic)).all().get(TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
      log.info("created compacted topic {} on {}", topic, bootstrapServers);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException(
            "cannot create topic " + topic + " on " + bootstrapServers + ": " + e.getCause(), e);
      }
    } catch (TimeoutException e) {
      throw new IllegalStateException(
          "Kafka at " + bootstrapServers + " did not answer within " + TIMEOUT, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topic " + topic, e);
    }
  }

  private static Properties producerProperties(String bootstrapServers) {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ProducerConfig.ACKS_CONFIG, "all");
    props.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    props.put(ProducerConfig.LINGER_MS_CONFIG, 0);
    props.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, 15_000);
    props.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000);
    props.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, 15_000);
    props.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    props.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return props;
  }

  private static Properties consumerProperties(String bootstrapServers) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    props.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    props.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    props.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    return props;
  }
}
