package io.sluice.connect.upsert;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.Config;
import org.apache.kafka.connect.connector.Task;

/**
 * The upsert sink connector whose tasks are {@link CrashingUpsertSinkTask}s: it accepts their hook
 * keys on top of the sink's and hands them to every task. For the ITs that crash a task in a real
 * Connect worker (found through this module's test {@code META-INF/services}).
 */
public class CrashingUpsertSinkConnector extends UpsertSinkConnector {
  private Map<String, String> hooks = Map.of();

  @Override
  public void start(Map<String, String> props) {
    super.start(CrashingUpsertSinkTask.withoutHooks(props));
    Map<String, String> armed = new HashMap<>(props);
    armed.keySet().retainAll(CrashingUpsertSinkTask.HOOK_KEYS);
    hooks = Map.copyOf(armed);
  }

  @Override
  public Class<? extends Task> taskClass() {
    return CrashingUpsertSinkTask.class;
  }

  @Override
  public List<Map<String, String>> taskConfigs(int maxTasks) {
    List<Map<String, String>> configs = super.taskConfigs(maxTasks);
    configs.forEach(config -> config.putAll(hooks));
    return configs;
  }

  @Override
  public Config validate(Map<String, String> connectorConfigs) {
    return super.validate(CrashingUpsertSinkTask.withoutHooks(connectorConfigs));
  }
}
