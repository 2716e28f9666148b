package io.sluice.stack;

import io.sluice.contract.TopicNames;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.ConnectRestClient.ConnectorStatus;
import io.sluice.embedded.ConnectRestClient.TaskStatus;
import io.sluice.embedded.connect.ConnectorConfigs;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stack's two sinks on a Connect worker, through its REST API: the Sluice upsert sink ({@code
 * _current}) and the Apache Iceberg sink ({@code _changelog}) of every clean topic, whether the
 * worker runs in this JVM or in a process of its own.
 */
final class SinkConnectors {
  private static final Logger log = LoggerFactory.getLogger(SinkConnectors.class);

  /**
   * The variable of a Connect worker's environment that names the port of the upsert sink's metrics
   * endpoint in that worker (two workers on one machine cannot share one).
   */
  static final String SINK_METRICS_PORT_ENV = "SLUICE_UPSERT_SINK_METRICS_PORT";

  private final ConnectRestClient client;
  private final Map<String, String> catalog;
  private final StackLayout layout;
  private final Map<String, String> sinkConfig;

  /**
   * @param options the stack's names ({@link StackOptions#layout}) and the upsert sink settings
   *     over the stack's own ({@link StackOptions#sinkConfig})
   */
  SinkConnectors(ConnectRestClient client, Map<String, String> catalog, StackOptions options) {
    this.client = client;
    this.catalog = catalog;
    this.layout = options.layout();
    this.sinkConfig = options.sinkConfig();
  }

  /**
   * Creates both connectors, or updates a connector whose stored config differs. An unchanged
   * config is not written again: Connect restarts a connector on every write, and the Apache
   * Iceberg sink's tasks with it (its task configs carry a fresh random id each time).
   *
   * @param sinkMetricsPort the upsert sink's Prometheus endpoint on 127.0.0.1; 0 picks a free one
   *     (known only inside the worker's JVM); a {@code ${env:...}} reference is read by each worker
   * @param tasks {@code tasks.max} of both sinks
   */
  void configure(String bootstrapServers, String registryUrl, String sinkMetricsPort, int tasks) {
    // The direct path: the sink decodes the wire bytes itself (design.md, "How the upsert sink
    // reads records"); --sink-config key.converter/value.converter choose the converter path.
    Map<String, String> upsert =
        new LinkedHashMap<>(
            ConnectorConfigs.quarantining(
                ConnectorConfigs.directPath(
                    ConnectorConfigs.upsertSinkByRegex(
                        layout.cleanTopicsRegex(),
                        registryUrl,
                        catalog,
                        StackTimings.SINK_COMMIT_INTERVAL_MS),
                    registryUrl),
                bootstrapServers));
    upsert.put("metrics.host", "127.0.0.1");
    upsert.put("metrics.port", sinkMetricsPort);
    upsert.put("tasks.max", String.valueOf(tasks));
    // The sink quarantines to the router's DLQ of each table: the same suffixes.
    upsert.put(TopicNames.CLEAN_SUFFIX_CONFIG, layout.topics().cleanSuffix());
    upsert.put(TopicNames.DLQ_SUFFIX_CONFIG, layout.topics().dlqSuffix());
    upsert.putAll(sinkConfig);
    Map<String, String> changelog =
        new LinkedHashMap<>(
            ConnectorConfigs.changelogSinkByRegex(
                layout.cleanTopicsRegex(),
                registryUrl,
                catalog,
                bootstrapServers,
                layout.icebergControlTopic(),
                StackTimings.SINK_COMMIT_INTERVAL_MS,
                layout.changelogSinkDlq()));
    changelog.put("tasks.max", String.valueOf(tasks));
    putIfChanged(layout.upsertSink(), upsert);
    putIfChanged(layout.changelogSink(), changelog);
    log.info(
        "Connectors {} and {} configured on every topic matching {}",
        layout.upsertSink(),
        layout.changelogSink(),
        layout.cleanTopicsRegex());
  }

  private void putIfChanged(String name, Map<String, String> config) {
    Map<String, String> stored;
    try {
      stored = new LinkedHashMap<>(client.connectorConfig(name));
    } catch (ConnectRestClient.ConnectRestException e) {
      if (e.status() != 404) {
        throw e;
      }
      stored = null; // a new connector
    }
    if (stored != null) {
      // Connect adds the name to the config it stores.
      stored.remove("name");
      if (stored.equals(config)) {
        log.info("Connector {} configured already", name);
        return;
      }
    }
    client.putConnector(name, config);
  }

  /**
   * True when the connector and all its tasks run.
   *
   * @throws StackStartException when a task FAILED: Connect does not restart it on its own
   */
  boolean running(String connector) {
    ConnectorStatus status;
    try {
      status = client.status(connector);
    } catch (ConnectRestClient.ConnectRestException e) {
      if (e.status() == 404) {
        return false;
      }
      throw e;
    }
    for (TaskStatus task : status.tasks()) {
      if ("FAILED".equals(task.state())) {
        throw new StackStartException(
            "task "
                + task.id()
                + " of connector "
                + connector
                + " FAILED: "
                + firstLine(task.trace()));
      }
    }
    return status.running();
  }

  private static String firstLine(String trace) {
    if (trace == null) {
      return "no trace";
    }
    int end = trace.indexOf('\n');
    return end < 0 ? trace : trace.substring(0, end);
  }
}
