package io.sluice.lab.stack;

import io.sluice.connect.ConnectorConfigs;
import io.sluice.connect.IcebergControlTopic;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.ConnectRestClient.ConnectorStatus;
import io.sluice.embedded.ConnectRestClient.TaskStatus;
import io.sluice.embedded.EmbeddedConnect;
import io.sluice.lab.kafka.Topics;
import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The lakehouse end of the stack: an Iceberg JdbcCatalog on SQLite under {@code <data
 * dir>/iceberg/} and a distributed Kafka Connect worker running the two sinks of every clean topic,
 * the Sluice upsert sink ({@code _current}) and the Apache Iceberg sink ({@code _changelog}).
 * Connector configs, Connect offsets and the Iceberg tables all live in the data dir, so a restart
 * picks up where the sinks stopped.
 */
final class LakeSinks implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LakeSinks.class);

  private final EmbeddedConnect connect;
  private final Map<String, String> catalog;

  private LakeSinks(EmbeddedConnect connect, Map<String, String> catalog) {
    this.connect = connect;
    this.catalog = catalog;
  }

  /**
   * Prepares the catalog (its SQLite tables are created once here, not raced by two connectors) and
   * the Apache Iceberg sink's control topic (see {@link IcebergControlTopic}: before the worker
   * starts, so that its coordinator group has no member yet), then starts the worker; returns once
   * the worker's REST API answers.
   */
  static LakeSinks start(Path dataDir, Admin admin, String bootstrapServers, int restPort) {
    Map<String, String> catalog = Catalogs.embedded(dataDir.resolve("iceberg"));
    try {
      Files.createDirectories(dataDir.resolve("iceberg").resolve("warehouse"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dataDir.resolve("iceberg"), e);
    }
    try (LakeCatalog opened = Catalogs.open(catalog)) {
      log.info("Iceberg catalog {} at {}", opened.catalog().name(), catalog.get("uri"));
    }
    if (Topics.ensure(admin, EmbeddedStack.ICEBERG_CONTROL_TOPIC, 1)) {
      log.info("Created topic {}", EmbeddedStack.ICEBERG_CONTROL_TOPIC);
    }
    IcebergControlTopic.prepare(
        admin, EmbeddedStack.ICEBERG_CONTROL_TOPIC, EmbeddedStack.CHANGELOG_SINK);
    EmbeddedConnect connect =
        EmbeddedConnect.start(bootstrapServers, EmbeddedStack.CONNECT_GROUP_ID, restPort);
    return new LakeSinks(connect, Collections.unmodifiableMap(new LinkedHashMap<>(catalog)));
  }

  /**
   * Creates both connectors, or updates a connector whose stored config differs. An unchanged
   * config is not written again: Connect restarts a connector on every write, and the Apache
   * Iceberg sink's tasks with it (its task configs carry a fresh random id each time).
   */
  void createConnectors(String bootstrapServers, String registryUrl) {
    Map<String, String> upsert =
        new LinkedHashMap<>(
            ConnectorConfigs.quarantining(
                ConnectorConfigs.upsertSinkByRegex(
                    EmbeddedStack.CLEAN_TOPICS_REGEX,
                    registryUrl,
                    catalog,
                    EmbeddedStack.SINK_COMMIT_INTERVAL_MS,
                    EmbeddedStack.SINK_TOPIC_REFRESH_MS),
                bootstrapServers));
    // Its own Prometheus endpoint on a free loopback port; the ready file names it.
    upsert.put("metrics.host", "127.0.0.1");
    upsert.put("metrics.port", "0");
    putIfChanged(EmbeddedStack.UPSERT_SINK, upsert);
    putIfChanged(
        EmbeddedStack.CHANGELOG_SINK,
        ConnectorConfigs.changelogSinkByRegex(
            EmbeddedStack.CLEAN_TOPICS_REGEX,
            registryUrl,
            catalog,
            bootstrapServers,
            EmbeddedStack.ICEBERG_CONTROL_TOPIC,
            EmbeddedStack.SINK_COMMIT_INTERVAL_MS,
            EmbeddedStack.CHANGELOG_SINK_DLQ,
            EmbeddedStack.SINK_TOPIC_REFRESH_MS));
    log.info(
        "Connectors {} and {} configured on every topic matching {}",
        EmbeddedStack.UPSERT_SINK,
        EmbeddedStack.CHANGELOG_SINK,
        EmbeddedStack.CLEAN_TOPICS_REGEX);
  }

  private void putIfChanged(String name, Map<String, String> config) {
    ConnectRestClient client = connect.client();
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
      status = connect.client().status(connector);
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

  String url() {
    return connect.url();
  }

  ConnectRestClient client() {
    return connect.client();
  }

  /** The catalog as the ready file's {@code iceberg_catalog} object. */
  Map<String, String> catalog() {
    return catalog;
  }

  String warehouse() {
    return catalog.get("warehouse");
  }

  /** Stops the worker; connectors stay configured and resume at the next start. */
  @Override
  public void close() {
    connect.close();
  }
}
