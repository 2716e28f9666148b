package io.sluice.stack;

import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.EmbeddedConnect;
import io.sluice.embedded.connect.IcebergControlTopic;
import io.sluice.embedded.connect.SinkWorkerProperties;
import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import io.sluice.stack.kafka.Topics;
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
  private final StackOptions options;

  private LakeSinks(EmbeddedConnect connect, Map<String, String> catalog, StackOptions options) {
    this.connect = connect;
    this.catalog = catalog;
    this.options = options;
  }

  /**
   * Prepares the catalog and the control topic ({@link #prepare}), then starts the worker in this
   * JVM; returns once the worker's REST API answers.
   */
  static LakeSinks start(
      Path dataDir, Admin admin, String bootstrapServers, int restPort, StackOptions options) {
    Map<String, String> catalog = prepare(dataDir, admin);
    EmbeddedConnect connect =
        EmbeddedConnect.start(
            bootstrapServers,
            StackLayout.DEFAULT.connectGroupId(),
            restPort,
            SinkWorkerProperties.of(StackTimings.SINK_TOPIC_REFRESH_MS));
    return new LakeSinks(connect, catalog, options);
  }

  /**
   * The catalog of {@code <data dir>/iceberg/} with its SQLite tables created (once here, not raced
   * by two connectors), and the Apache Iceberg sink's control topic, prepared before a worker runs
   * it (see {@link IcebergControlTopic}: its coordinator group must have no member yet).
   *
   * @return the catalog's properties, as the ready file's {@code iceberg_catalog} names them
   */
  static Map<String, String> prepare(Path dataDir, Admin admin) {
    Map<String, String> catalog = Catalogs.embedded(dataDir.resolve("iceberg"));
    try {
      Files.createDirectories(dataDir.resolve("iceberg").resolve("warehouse"));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create " + dataDir.resolve("iceberg"), e);
    }
    try (LakeCatalog opened = Catalogs.open(catalog)) {
      log.info("Iceberg catalog {} at {}", opened.catalog().name(), catalog.get("uri"));
    }
    if (Topics.ensure(admin, StackLayout.DEFAULT.icebergControlTopic(), 1)) {
      log.info("Created topic {}", StackLayout.DEFAULT.icebergControlTopic());
    }
    IcebergControlTopic.prepare(
        admin, StackLayout.DEFAULT.icebergControlTopic(), StackLayout.DEFAULT.changelogSink());
    return Collections.unmodifiableMap(new LinkedHashMap<>(catalog));
  }

  /** Creates or updates both connectors ({@link SinkConnectors#configure}). */
  void createConnectors(String bootstrapServers, String registryUrl) {
    new SinkConnectors(connect.client(), catalog, options)
        .configure(bootstrapServers, registryUrl, "0", options.scale().sinkTasks());
  }

  /** {@link SinkConnectors#running}. */
  boolean running(String connector) {
    return new SinkConnectors(connect.client(), catalog, options).running(connector);
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
