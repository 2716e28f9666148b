package io.sluice.bench.maintenance;

import io.sluice.connect.upsert.config.UpsertSinkConfig;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.lake.Catalogs;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.config.ConfigValue;

/**
 * The upsert sink's configuration in each mode: the benchmark's own ({@link
 * ConnectorConfigs#upsertSink}), the mode's {@value #MAINTENANCE_ENABLED}, and the {@code
 * --sink-config} settings on top.
 */
public final class SinkSettings {
  /** The upsert sink's switch for table maintenance (merges at commit, rewrites, expiry). */
  public static final String MAINTENANCE_ENABLED = "maintenance.enabled";

  private final Map<String, String> extra;

  /** {@code extra} on the upsert sink of this build. */
  public SinkSettings(Map<String, String> extra) {
    this.extra = Map.copyOf(extra);
  }

  /** The {@code --sink-config} settings. */
  public Map<String, String> extra() {
    return extra;
  }

  /**
   * The connector configuration of {@code mode}.
   *
   * @param base the benchmark's own configuration of the sink
   */
  public Map<String, String> config(Map<String, String> base, Mode mode) {
    Map<String, String> config = new LinkedHashMap<>(base);
    config.put(MAINTENANCE_ENABLED, String.valueOf(mode == Mode.ON));
    config.putAll(extra);
    return config;
  }

  /**
   * Checks, before anything starts, that the sink takes every mode's configuration.
   *
   * @throws IllegalArgumentException naming the option, the key and what to do
   */
  public void check(List<Mode> modes, long commitIntervalMs) {
    Map<String, String> base =
        ConnectorConfigs.upsertSink(
            "broker.cdc_lab.orders.clean",
            "http://127.0.0.1:1",
            Catalogs.embedded(Path.of("iceberg")),
            commitIntervalMs);
    List<String> problems = new ArrayList<>();
    if (extra.containsKey(MAINTENANCE_ENABLED)) {
      problems.add(
          "--sink-config "
              + MAINTENANCE_ENABLED
              + ": --modes sets it (off: false, on: true); leave it out");
    }
    extra.keySet().stream()
        .filter(base::containsKey)
        .forEach(
            key ->
                problems.add(
                    "--sink-config "
                        + key
                        + ": the benchmark sets this key itself"
                        + (key.equals("commit.interval.ms") ? "; use --commit-interval-ms" : "")));
    if (problems.isEmpty()) {
      for (Mode mode : modes) {
        for (ConfigValue value : UpsertSinkConfig.validate(config(base, mode)).configValues()) {
          value
              .errorMessages()
              .forEach(m -> problems.add("--sink-config " + value.name() + ": " + m));
        }
      }
    }
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems.stream().distinct().toList()));
    }
  }
}
