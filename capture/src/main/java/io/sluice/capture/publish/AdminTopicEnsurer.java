package io.sluice.capture.publish;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.utils.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates a change topic with the configured partition count the first time it is written, and
 * returns only once every partition takes the producer's writes.
 *
 * <p>Returning as soon as the broker accepted the creation was not enough: an idempotent producer
 * with several requests in flight could see its first batch refused by a partition not yet opened
 * while a later batch was accepted, after which the first one retried as OutOfOrderSequence until
 * it expired and stopped the capture (KAFKA-15591). A topic found ready is remembered, so the wait
 * costs a few Admin calls once per topic and process.
 */
public final class AdminTopicEnsurer implements TopicEnsurer {
  private static final Logger log = LoggerFactory.getLogger(AdminTopicEnsurer.class);
  static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
  private static final long FIRST_BACKOFF_MS = 20;
  private static final long MAX_BACKOFF_MS = 1_000;

  private final ChangeTopics topics;
  private final Duration timeout;
  private final Time time;
  private final Set<String> ready = ConcurrentHashMap.newKeySet();

  /**
   * @param producerPartitions the publishing producer's view of a topic, {@code
   *     producer::partitionsFor}
   */
  public AdminTopicEnsurer(
      Admin admin, int partitions, Function<String, List<PartitionInfo>> producerPartitions) {
    this(new KafkaTopics(admin, partitions, producerPartitions), READY_TIMEOUT, Time.SYSTEM);
  }

  AdminTopicEnsurer(ChangeTopics topics, Duration timeout, Time time) {
    this.topics = topics;
    this.timeout = timeout;
    this.time = time;
  }

  /**
   * @throws PublishException when the topic cannot be created, or has no ready leader for every
   *     partition within 30 s
   */
  @Override
  public void ensure(String topic) {
    if (ready.contains(topic)) {
      return;
    }
    topics.createIfAbsent(topic);
    long start = time.milliseconds();
    long backoff = FIRST_BACKOFF_MS;
    Optional<String> why = topics.notReady(topic);
    while (why.isPresent()) {
      long waited = time.milliseconds() - start;
      if (waited >= timeout.toMillis()) {
        throw new PublishException(
            topic,
            "change topic "
                + topic
                + " is not ready for writes after "
                + waited
                + " ms: "
                + why.get()
                + "; check that the broker is up and every partition has a leader"
                + " (kafka-topics.sh --describe --topic "
                + topic
                + ")",
            null);
      }
      log.debug("change topic {} not ready yet: {}", topic, why.get());
      time.sleep(Math.min(backoff, timeout.toMillis() - waited));
      if (Thread.currentThread().isInterrupted()) {
        throw new PublishException(
            topic, "interrupted waiting for change topic " + topic + " to be ready", null);
      }
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      why = topics.notReady(topic);
    }
    log.info("change topic {} ready for writes ({} ms)", topic, time.milliseconds() - start);
    ready.add(topic);
  }
}
