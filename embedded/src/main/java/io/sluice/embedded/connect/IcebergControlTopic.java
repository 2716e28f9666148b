package io.sluice.embedded.connect;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupNotEmptyException;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.UnknownMemberIdException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control topic of an Apache Iceberg sink, made ready before the connector first runs: its
 * commit coordinator's group is given a committed offset at the start of the topic when it has none
 * (see {@link ConnectorConfigs#icebergCoordinatorGroup}).
 *
 * <p>Without that offset a coordinator that starts before the first table commit reads from the end
 * of the topic and skips the data files the workers announced to the one before it, while the
 * workers' source offsets have already moved past those records: the records never reach the table.
 * With it, the coordinator replays the announcements and commits them; Iceberg drops the ones a
 * snapshot already holds (by the control-topic offsets it stores in the snapshot), so none is
 * committed twice.
 */
public final class IcebergControlTopic {
  private static final Duration READY_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration RETRY_BACKOFF = Duration.ofMillis(200);
  private static final Logger log = LoggerFactory.getLogger(IcebergControlTopic.class);

  private IcebergControlTopic() {}

  /**
   * Commits the start of each partition of {@code controlTopic} (created by the caller) for the
   * coordinator group of {@code connectorName} where the group has no offset. Call it before the
   * connector runs: Kafka refuses to move the offsets of a group with members, in which case this
   * logs a warning naming the group and leaves it as it is.
   *
   * @return the offsets committed for the group (empty when it had offsets already)
   */
  public static Map<TopicPartition, Long> prepare(
      Admin admin, String controlTopic, String connectorName) {
    // A control topic created a moment ago may not have a leader yet: its partitions are then
    // unknown to the broker for a while (a retriable error), so retry within a bound.
    long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
    while (true) {
      try {
        return prepareOnce(admin, controlTopic, connectorName);
      } catch (IllegalStateException e) {
        if (!(e.getCause() instanceof RetriableException) || System.nanoTime() > deadline) {
          throw e;
        }
        log.debug("Control topic {} not ready yet ({}); retrying", controlTopic, e.getCause());
        try {
          Thread.sleep(RETRY_BACKOFF.toMillis());
        } catch (InterruptedException interrupted) {
          Thread.currentThread().interrupt();
          throw new IllegalStateException("interrupted while preparing " + controlTopic, e);
        }
      }
    }
  }

  private static Map<TopicPartition, Long> prepareOnce(
      Admin admin, String controlTopic, String connectorName) {
    String group = ConnectorConfigs.icebergCoordinatorGroup(connectorName);
    try {
      Map<TopicPartition, OffsetAndMetadata> committed =
          admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata().get();
      Map<TopicPartition, OffsetSpec> missing = new LinkedHashMap<>();
      for (TopicPartition partition : partitions(admin, controlTopic)) {
        if (committed.get(partition) == null) {
          missing.put(partition, OffsetSpec.earliest());
        }
      }
      if (missing.isEmpty()) {
        return Map.of();
      }
      Map<TopicPartition, ListOffsetsResultInfo> starts = admin.listOffsets(missing).all().get();
      Map<TopicPartition, OffsetAndMetadata> seed = new LinkedHashMap<>();
      Map<TopicPartition, Long> seeded = new LinkedHashMap<>();
      starts.forEach(
          (partition, start) -> {
            seed.put(partition, new OffsetAndMetadata(start.offset()));
            seeded.put(partition, start.offset());
          });
      admin.alterConsumerGroupOffsets(group, seed).all().get();
      log.info(
          "Iceberg commit coordinator group {} starts at {} (it had no committed offset)",
          group,
          seeded);
      return seeded;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof GroupNotEmptyException
          || e.getCause() instanceof UnknownMemberIdException) {
        log.warn(
            "Iceberg commit coordinator group {} has members already; its offsets on {} are left"
                + " as they are. If it has no committed offset, stop connector {} and start it"
                + " again after this step so that no announced data file is skipped",
            group,
            controlTopic,
            connectorName);
        return Map.of();
      }
      throw new IllegalStateException(
          "cannot prepare the offsets of group "
              + group
              + " on "
              + controlTopic
              + ": "
              + e.getCause().getMessage(),
          e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while preparing " + controlTopic, e);
    }
  }

  private static List<TopicPartition> partitions(Admin admin, String topic)
      throws ExecutionException, InterruptedException {
    return admin
        .describeTopics(List.of(topic))
        .allTopicNames()
        .get()
        .get(topic)
        .partitions()
        .stream()
        .map(p -> new TopicPartition(topic, p.partition()))
        .toList();
  }
}
