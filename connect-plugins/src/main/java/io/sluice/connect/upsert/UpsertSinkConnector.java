package io.sluice.connect.upsert;

import io.sluice.connect.upsert.config.UpsertSinkConfig;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.connect.connector.Task;
import org.apache.kafka.connect.sink.SinkConnector;

/**
 * Keyed upserts from Kafka into Iceberg format-v2 (or v3) tables, exactly once: Debezium envelopes
 * or flat rows, one snapshot per commit interval and table recording the offsets it covers. See
 * {@link UpsertSinkConfig} for the keys; unknown keys are refused by {@link #validate}.
 */
public class UpsertSinkConnector extends SinkConnector {
  private Map<String, String> props;

  @Override
  public void start(Map<String, String> props) {
    new UpsertSinkConfig(props);
    this.props = Map.copyOf(props);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return UpsertSinkTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    List<Map<String, String>> configs = new ArrayList<>(maxTasks);
    for (int i = 0; i < maxTasks; i++) {
      Map<String, String> config = new HashMap<>(props);
      config.put(UpsertSinkConfig.TASK_ID_CONFIG, String.valueOf(i));
      configs.add(config);
    }
    return configs;
  }

  @Override
  public void stop() {}

  @Override
  public ConfigDef config() {
    return UpsertSinkConfig.configDef();
  }

  /** Per-key checks, cross-key checks on the offending key, and an error per unknown key. */
  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    return UpsertSinkConfig.validate(connectorConfigs);
  }

  @Override
  public String version() {
    return Versions.of(UpsertSinkConnector.class);
  }
}
