package io.sluice.connect.testing;

import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.metrics.PluginMetrics;
import org.apache.kafka.connect.sink.SinkTaskContext;

/** A sink task context that records the seeks a task asks for. */
public final class StubTaskContext implements SinkTaskContext {
  public final Set<TopicPartition> assignment = new LinkedHashSet<>();
  public final Map<TopicPartition, Long> seeks = new HashMap<>();
  private final Map<String, String> configs;

  public StubTaskContext(Map<String, String> configs) {
    this.configs = configs;
  }

  @Override
  public Map<String, String> configs() {
    return configs;
  }

  @Override
  public void offset(Map<TopicPartition, Long> offsets) {
    seeks.putAll(offsets);
  }

  @Override
  public void offset(TopicPartition tp, long offset) {
    seeks.put(tp, offset);
  }

  /** The last {@link #timeout} the task asked for; -1 when none. */
  public long timeoutMs = -1;

  @Override
  public void timeout(long timeoutMs) {
    this.timeoutMs = timeoutMs;
  }

  @Override
  public Set<TopicPartition> assignment() {
    return assignment;
  }

  @Override
  public void pause(TopicPartition... partitions) {}

  @Override
  public void resume(TopicPartition... partitions) {}

  @Override
  public void requestCommit() {}

  @Override
  public PluginMetrics pluginMetrics() {
    return null;
  }
}
