package io.sluice.capture.publish;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * Change topics as the broker and the capture's producer see them.
 *
 * <p>A topic is ready when three views agree, in this order: the broker's metadata names a leader
 * for every partition; each leader answers a ListOffsets request, which only a partition the leader
 * has opened can serve (a KRaft broker publishes new metadata before its replica manager opens the
 * partition, so a leader in the metadata alone can still refuse a produce with
 * NOT_LEADER_OR_FOLLOWER); and the producer's own metadata names a leader for every partition.
 */
final class KafkaTopics implements ChangeTopics {
  private static final int CALL_TIMEOUT_MS = 5_000;

  private final Admin admin;
  private final int partitions;
  private final Function<String, List<PartitionInfo>> producerPartitions;

  /**
   * @param producerPartitions the producer's view, {@code producer::partitionsFor}
   */
  KafkaTopics(
      Admin admin, int partitions, Function<String, List<PartitionInfo>> producerPartitions) {
    this.admin = admin;
    this.partitions = partitions;
    this.producerPartitions = producerPartitions;
  }

  @Override
  public void createIfAbsent(String topic) {
    try {
      admin
          .createTopics(
              List.of(new NewTopic(topic, partitions, (short) -1)),
              new CreateTopicsOptions().timeoutMs(30_000))
          .all()
          .get();
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new PublishException(
            topic, "cannot create change topic " + topic + ": " + e.getCause(), e.getCause());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PublishException(topic, "interrupted creating change topic " + topic, e);
    }
  }

  @Override
  public Optional<String> notReady(String topic) {
    TopicDescription description;
    try {
      description =
          admin
              .describeTopics(
                  List.of(topic), new DescribeTopicsOptions().timeoutMs(CALL_TIMEOUT_MS))
              .allTopicNames()
              .get()
              .get(topic);
    } catch (ExecutionException e) {
      return retriable(topic, "describing it", e.getCause());
    } catch (InterruptedException e) {
      return interrupted(topic, e);
    }
    List<Integer> leaderless =
        description.partitions().stream()
            .filter(p -> !isLeader(p.leader()))
            .map(TopicPartitionInfo::partition)
            .toList();
    if (!leaderless.isEmpty()) {
      return Optional.of("the broker names no leader for partitions " + leaderless);
    }

    Map<TopicPartition, OffsetSpec> ends =
        description.partitions().stream()
            .collect(
                Collectors.toMap(
                    p -> new TopicPartition(topic, p.partition()), p -> OffsetSpec.latest()));
    try {
      admin.listOffsets(ends, new ListOffsetsOptions().timeoutMs(CALL_TIMEOUT_MS)).all().get();
    } catch (ExecutionException e) {
      return retriable(topic, "asking its leaders for end offsets", e.getCause());
    } catch (InterruptedException e) {
      return interrupted(topic, e);
    }

    List<PartitionInfo> seen;
    try {
      seen = producerPartitions.apply(topic);
    } catch (KafkaException e) {
      return retriable(topic, "reading the producer's metadata", e);
    }
    List<Integer> unseen =
        seen.stream().filter(p -> !isLeader(p.leader())).map(PartitionInfo::partition).toList();
    if (seen.size() < description.partitions().size() || !unseen.isEmpty()) {
      return Optional.of(
          "the producer sees "
              + seen.size()
              + " of "
              + description.partitions().size()
              + " partitions, without a leader for "
              + unseen);
    }
    return Optional.empty();
  }

  private static boolean isLeader(Node node) {
    return node != null && !node.isEmpty();
  }

  private static Optional<String> retriable(String topic, String doing, Throwable cause) {
    if (cause instanceof RetriableException) {
      return Optional.of(doing + " failed: " + cause);
    }
    throw new PublishException(
        topic, "cannot check change topic " + topic + " (" + doing + "): " + cause, cause);
  }

  private static Optional<String> interrupted(String topic, InterruptedException e) {
    Thread.currentThread().interrupt();
    throw new PublishException(topic, "interrupted checking change topic " + topic, e);
  }
}
