package io.sluice.router.topics;

/**
 * Makes sure the clean and DLQ topics of an input topic exist before the router writes to them
 * (brokers may not auto-create topics). Called on the stream thread the first time a topic is seen;
 * implementations cache and must be thread-safe.
 */
@FunctionalInterface
public interface OutputTopics {
  /**
   * Creates the output topics of {@code inputTopic} when missing.
   *
   * @throws RuntimeException when they cannot be created; the task fails and is retried by Kafka
   *     Streams
   */
  void ensure(String inputTopic);
}
