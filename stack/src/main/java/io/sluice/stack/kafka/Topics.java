package io.sluice.stack.kafka;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

/** Topic creation for the lab tools: the embedded broker never creates topics on its own. */
public final class Topics {
  private Topics() {}

  /** True when {@code topic} exists. */
  public static boolean exists(Admin admin, String topic) {
    try {
      return admin.listTopics().names().get().contains(topic);
    } catch (ExecutionException e) {
      throw new IllegalStateException("cannot list topics", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while listing topics", e);
    }
  }

  /**
   * Creates {@code topic} with {@code partitions} partitions (replication factor 1) unless it
   * exists; an existing topic is left as it is.
   *
   * @return true when this call created the topic
   */
  public static boolean ensure(Admin admin, String topic, int partitions) {
    try {
      admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
      return true;
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TopicExistsException) {
        return false;
      }
      throw new IllegalStateException("cannot create topic " + topic, e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topic " + topic, e);
    }
  }

  /**
   * Deletes {@code topic} (if it exists) and creates it again, empty, with {@code partitions}
   * partitions; waits up to {@code timeout} for the broker to let the name be used again.
   */
  public static void recreate(Admin admin, String topic, int partitions, Duration timeout) {
    try {
      admin.deleteTopics(List.of(topic)).all().get();
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
        throw new IllegalStateException("cannot delete topic " + topic, e.getCause());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while deleting topic " + topic, e);
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    // The deletion may not have reached the broker's metadata yet: the name is still taken.
    while (!ensure(admin, topic, partitions)) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "topic " + topic + " still exists " + timeout.toSeconds() + " s after its deletion");
      }
      try {
        TimeUnit.MILLISECONDS.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while re-creating topic " + topic, e);
      }
    }
  }
}
