package io.sluice.router.topics;

import io.sluice.contract.TopicNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.streams.errors.StreamsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@link OutputTopics} on the Kafka Admin API: describes the input topic and creates {@code
 * <input><clean suffix>} and {@code <input><dlq suffix>} with its partition count. The clean topic
 * copies the input's cleanup policy and maximum message size; the DLQ topic is never compacted and
 * accepts messages twice the input's maximum plus 64 KiB, since an envelope carries the original
 * value in base64 (4/3 of its size) plus the error.
 */
public final class AdminOutputTopics implements OutputTopics {
  private static final Logger log = LoggerFactory.getLogger(AdminOutputTopics.class);
  private static final int DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;
  private static final int DLQ_HEADROOM_BYTES = 65_536;

  private final Admin admin;
  private final TopicNames names;
  private final Optional<Short> replicationFactor;
  private final Duration timeout;
  private final Map<String, Partitions> ensured = new ConcurrentHashMap<>();

  /**
   * @param replicationFactor -1 for the broker default
   */
  public AdminOutputTopics(Admin admin, TopicNames names, int replicationFactor, Duration timeout) {
    this.admin = admin;
    this.names = names;
    this.replicationFactor =
        replicationFactor < 0 ? Optional.empty() : Optional.of((short) replicationFactor);
    this.timeout = timeout;
  }

  /**
   * {@inheritDoc}
   *
   * <p>Described once per input topic for the router's lifetime: a later change of an output
   * topic's partition count takes effect when the router restarts.
   */
  @Override
  public Partitions ensure(String inputTopic) {
    Partitions known = ensured.get(inputTopic);
    if (known != null) {
      return known;
    }
    String cleanTopic = names.cleanTopic(inputTopic);
    String dlqTopic = names.dlqTopic(inputTopic);
    // One request answers the usual case, outputs already there (every start of a router).
    Map<String, KafkaFuture<TopicDescription>> described =
        admin.describeTopics(List.of(inputTopic, cleanTopic, dlqTopic)).topicNameValues();
    int partitions =
        await(described.get(inputTopic), "describe input topic " + inputTopic).partitions().size();
    Map<String, Integer> counts = new HashMap<>();
    List<String> missing = new ArrayList<>();
    for (String output : List.of(cleanTopic, dlqTopic)) {
      TopicDescription description =
          awaitUnlessUnknown(described.get(output), "describe topic " + output);
      if (description == null) {
        missing.add(output);
      } else {
        counts.put(output, description.partitions().size());
        warnOnPartitionMismatch(output, description.partitions().size(), partitions);
      }
    }
    if (!missing.isEmpty()) {
      counts.putAll(create(inputTopic, partitions, missing));
    }
    Partitions result = new Partitions(counts.get(cleanTopic), counts.get(dlqTopic));
    ensured.put(inputTopic, result);
    return result;
  }

  /** Creates {@code topics}; returns their partition counts. */
  private Map<String, Integer> create(String inputTopic, int partitions, List<String> topics) {
    ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, inputTopic);
    Config inputConfig =
        await(admin.describeConfigs(List.of(resource)).all(), "describe configs of " + inputTopic)
            .get(resource);
    int maxMessageBytes = intConfig(inputConfig, TopicConfig.MAX_MESSAGE_BYTES_CONFIG);
    String cleanupPolicy = stringConfig(inputConfig, TopicConfig.CLEANUP_POLICY_CONFIG, "delete");
    long dlqMax = Math.min(Integer.MAX_VALUE, 2L * maxMessageBytes + DLQ_HEADROOM_BYTES);

    List<NewTopic> newTopics = new ArrayList<>();
    for (String topic : topics) {
      Map<String, String> configs =
          topic.equals(names.cleanTopic(inputTopic))
              ? Map.of(
                  TopicConfig.CLEANUP_POLICY_CONFIG,
                  cleanupPolicy,
                  TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                  String.valueOf(maxMessageBytes))
              : Map.of(
                  TopicConfig.CLEANUP_POLICY_CONFIG,
                  TopicConfig.CLEANUP_POLICY_DELETE,
                  TopicConfig.MAX_MESSAGE_BYTES_CONFIG,
                  String.valueOf(dlqMax));
      newTopics.add(
          new NewTopic(topic, Optional.of(partitions), replicationFactor).configs(configs));
    }
    Map<String, KafkaFuture<Void>> results = admin.createTopics(newTopics).values();
    Map<String, Integer> counts = new HashMap<>();
    for (Map.Entry<String, KafkaFuture<Void>> result : results.entrySet()) {
      try {
        await(result.getValue(), "create topic " + result.getKey());
        log.info(
            "Created output topic {} with {} partitions for input {}",
            result.getKey(),
            partitions,
            inputTopic);
        counts.put(result.getKey(), partitions);
      } catch (StreamsException e) {
        if (!(e.getCause() instanceof TopicExistsException)) {
          throw e;
        }
        // Created meanwhile (another router instance): check it as if it had been there.
        int actual =
            await(
                    admin.describeTopics(List.of(result.getKey())).allTopicNames(),
                    "describe topic " + result.getKey())
                .get(result.getKey())
                .partitions()
                .size();
        warnOnPartitionMismatch(result.getKey(), actual, partitions);
        counts.put(result.getKey(), actual);
      }
    }
    return counts;
  }

  private static void warnOnPartitionMismatch(String topic, int actual, int expected) {
    if (actual != expected) {
      log.warn(
          "Output topic {} has {} partitions, its input has {}: records of input partition p go to"
              + " partition p mod {}",
          topic,
          actual,
          expected,
          actual);
    }
  }

  /** The description, or null when the topic does not exist. */
  private TopicDescription awaitUnlessUnknown(KafkaFuture<TopicDescription> future, String what) {
    try {
      return await(future, what);
    } catch (StreamsException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return null;
      }
      throw e;
    }
  }

  private <T> T await(KafkaFuture<T> future, String what) {
    try {
      return future.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      throw new StreamsException("cannot " + what + ": " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new StreamsException("cannot " + what + ": no answer within " + timeout, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StreamsException("interrupted while trying to " + what, e);
    }
  }

  private static int intConfig(Config config, String name) {
    String value = stringConfig(config, name, null);
    return value == null ? DEFAULT_MAX_MESSAGE_BYTES : Integer.parseInt(value);
  }

  private static String stringConfig(Config config, String name, String fallback) {
    ConfigEntry entry = config == null ? null : config.get(name);
    return entry == null || entry.value() == null ? fallback : entry.value();
  }
}
