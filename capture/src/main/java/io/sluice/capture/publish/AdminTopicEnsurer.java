package io.sluice.capture.publish;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/** Creates a change topic with the configured partition count the first time it is written. */
public final class AdminTopicEnsurer implements TopicEnsurer {
  private final Admin admin;
  private final int partitions;
  private final Set<String> known = ConcurrentHashMap.newKeySet();

  public AdminTopicEnsurer(Admin admin, int partitions) {
    this.admin = admin;
    this.partitions = partitions;
  }

  @Override
  public void ensure(String topic) {
    if (known.contains(topic)) {
      return;
    }
    try {
      admin
          .createTopics(List.of(new NewTopic(topic, partitions, (short) -1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      if (!(e.getCause() instanceof TopicExistsException)) {
        throw new PublishException("cannot create change topic " + topic, e.getCause());
      }
    } catch (TimeoutException e) {
      throw new PublishException("timed out creating change topic " + topic, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new PublishException("interrupted creating change topic " + topic, e);
    }
    known.add(topic);
  }
}
