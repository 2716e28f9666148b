package io.sluice.tools.dlq.kafka;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** {@link KafkaClients} of a real cluster. */
public final class BrokerClients implements KafkaClients {
  private static final String CLIENT_ID = "sluice-dlq-tools";

  private final String bootstrapServers;
  private final String clientId;

  public BrokerClients(String bootstrapServers) {
    this(bootstrapServers, CLIENT_ID);
  }

  /** Clients that name themselves {@code clientId} to the broker. */
  public BrokerClients(String bootstrapServers, String clientId) {
    this.bootstrapServers = bootstrapServers;
    this.clientId = clientId;
  }

  /**
   * The consumer's {@code fetch.max.wait.ms}: it reads up to an end offset known before the read
   * starts ({@link TopicScanner}), so a fetch has nothing to wait for. With Kafka's 500 ms, a
   * read_committed fetch at a transaction's commit marker waited out the whole of it: the monitor's
   * first lag count, one read per partition a sink group sits behind a marker on, took 520 ms per
   * partition (12.5 s for 24); 70 ms each with this.
   */
  static final int FETCH_MAX_WAIT_MS = 10;

  @Override
  public Consumer<byte[], byte[]> consumer() {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG,
            FETCH_MAX_WAIT_MS,
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ConsumerConfig.CLIENT_ID_CONFIG,
            clientId,
            ConsumerConfig.ISOLATION_LEVEL_CONFIG,
            "read_committed",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false,
            ConsumerConfig.MAX_POLL_RECORDS_CONFIG,
            2000);
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  @Override
  public Producer<byte[], byte[]> transactionalProducer(String transactionalId) {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ProducerConfig.CLIENT_ID_CONFIG,
            clientId,
            ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            transactionalId,
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.TRANSACTION_TIMEOUT_CONFIG,
            60_000);
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  @Override
  public void ensureCompactedTopic(String topic) {
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
      NewTopic newTopic =
          new NewTopic(topic, Optional.of(1), Optional.empty())
              .configs(
                  Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
      admin.createTopics(List.of(newTopic)).all().get();
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new IllegalStateException(
            "cannot create the ledger topic "
                + topic
                + " (1 partition, compacted): "
                + e.getCause().getMessage()
                + "; create it yourself or grant the tool CREATE on it",
            e.getCause());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topic " + topic, e);
    }
  }
}
