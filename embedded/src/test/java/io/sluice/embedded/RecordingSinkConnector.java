package io.sluice.embedded;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;

/** A test sink that keeps the values it receives, found by the worker through its service file. */
public class RecordingSinkConnector extends SinkConnector {
  static final ConcurrentLinkedQueue<Object> VALUES = new ConcurrentLinkedQueue<>();

  private Map<String, String> props;

  @Override
  public void start(Map<String, String> props) {
    this.props = props;
  }

  @Override
  public Class<? extends Task> taskClass() {
    return RecordingTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    return List.of(props);
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return new ConfigDef();
  }

  @Override
  public String version() {
    return "test";
  }

  /** Appends every value to {@link #VALUES}. */
  public static class RecordingTask extends SinkTask {
    @Override
    public void start(Map<String, String> props) {}

    @Override
    public void put(Collection<SinkRecord> records) {
      records.forEach(r -> VALUES.add(r.value()));
    }

    @Override
    public void stop() {}

    @Override
    public String version() {
      return "test";
    }
  }
}
