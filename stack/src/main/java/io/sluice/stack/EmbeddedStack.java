package io.sluice.stack;

import io.sluice.capture.CaptureService;
import io.sluice.capture.CaptureState;
import io.sluice.capture.config.CaptureConfig;
import io.sluice.connect.upsert.metrics.SinkMetricsEndpoint;
import io.sluice.contract.ReadyFile;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.router.Router;
import io.sluice.router.config.RouterConfig;
import io.sluice.schema.server.DevSchemaRegistry;
import io.sluice.stack.kafka.Topics;
import io.sluice.tools.monitor.MonitorSettings;
import io.sluice.tools.monitor.PipelineMonitor;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The whole Sluice stack in this JVM: a single-node KRaft broker, the dev schema registry, a real
 * MariaDB with the {@code cdc_lab.orders} table, the router, a Kafka Connect worker running the
 * upsert and changelog sinks into an Iceberg JdbcCatalog on SQLite, the Debezium capture and the
 * monitor (DLQ backlog and consumer lag metrics), all on loopback; optionally a Prometheus child
 * process scraping all of them. Data lives under the data dir ({@code kafka/}, {@code mariadb/},
 * {@code router-state/}, {@code iceberg/}, {@code prometheus/}, {@code stack.properties}), so a
 * restart with the same dir keeps rows, topics, schemas, offsets, tables and ports.
 *
 * <p>{@link #close()} may be called at any time, also from a shutdown hook while {@link #start()}
 * is still running: it stops whatever has started, Prometheus first and broker last.
 */
public final class EmbeddedStack implements Stack {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedStack.class);

  private final StackOptions options;
  private final StackLayout layout;
  private final ReadyFile readyFile;
  private volatile StackPorts ports;
  private volatile EmbeddedKafka kafka;
  private volatile DevSchemaRegistry registry;
  private volatile Router router;
  private volatile LakeSinks sinks;
  private volatile EmbeddedMariaDb mariaDb;
  private volatile CaptureService capture;
  private volatile PipelineMonitor monitor;
  private volatile PrometheusServer prometheus;
  private volatile boolean closed;

  public EmbeddedStack(StackOptions options) {
    this.options = options;
    this.layout = options.layout();
    this.readyFile = options.readyFile() == null ? null : new ReadyFile(options.readyFile());
  }

  /**
   * Starts broker, registry, MariaDB, router, Connect worker (with both sinks) and capture, waits
   * until each answers, then writes the ready file.
   *
   * @throws StackStartException when a component fails to start or answer in time (whatever had
   *     started is stopped again)
   */
  public EmbeddedStack start() {
    try {
      startComponents();
      return this;
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  private void startComponents() {
    Path dataDir = options.dataDir();
    long deadline = System.nanoTime() + options.readyTimeout().toNanos();
    ports = StackPorts.resolve(dataDir, options.ports());
    // Before anything starts: a missing binary should not cost a minute of start-up first.
    Path prometheusBinary =
        options.prometheus() ? PrometheusServer.locate(options.prometheusBinary()) : null;
    log.info("Starting the Sluice embedded stack in {}", dataDir);

    log.info("Starting Kafka broker on 127.0.0.1:{}", ports.kafka());
    kafka =
        starting(
            "Kafka broker",
            ports.kafka(),
            () -> EmbeddedKafka.start(dataDir.resolve("kafka"), ports.kafka(), ports.controller()));
    abortIfClosed();
    try (Admin admin = admin(kafka.bootstrapServers())) {
      new Readiness().kafka(kafka.bootstrapServers(), admin).await(remaining(deadline));
      if (Topics.ensure(admin, layout.mainTopic(), layout.mainTopicPartitions())) {
        log.info(
            "Created topic {} with {} partitions",
            layout.mainTopic(),
            layout.mainTopicPartitions());
      }
    }
    abortIfClosed();

    log.info("Starting schema registry on 127.0.0.1:{}", ports.registry());
    registry =
        starting(
            "Schema registry",
            ports.registry(),
            () -> DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", ports.registry()));
    abortIfClosed();

    log.info("Starting MariaDB on 127.0.0.1:{}", ports.mariadb());
    mariaDb =
        starting(
            "MariaDB",
            ports.mariadb(),
            () -> EmbeddedMariaDb.start(dataDir.resolve("mariadb"), ports.mariadb()));
    StackConfigs.createOrdersTable(mariaDb);
    abortIfClosed();

    log.info("Starting router (metrics on 127.0.0.1:{})", ports.metrics());
    router =
        starting(
            "Router",
            ports.metrics(),
            () -> {
              Router r =
                  new Router(
                      new RouterConfig(
                          StackConfigs.router(
                              options,
                              kafka.bootstrapServers(),
                              registry.url(),
                              dataDir.resolve("router-state"),
                              ports.metrics(),
                              layout.routerApplicationId() + "-embedded")));
              try {
                r.start();
                return r;
              } catch (RuntimeException e) {
                closeQuietly("router", r);
                throw e;
              }
            });
    abortIfClosed();

    log.info("Starting Kafka Connect worker (REST on 127.0.0.1:{})", ports.connect());
    try (Admin admin = admin(kafka.bootstrapServers())) {
      sinks =
          starting(
              "Kafka Connect",
              ports.connect(),
              () ->
                  LakeSinks.start(
                      dataDir, admin, kafka.bootstrapServers(), ports.connect(), options));
      abortIfClosed();
      // The router creates the clean topic; the sinks subscribe to it by name.
      new Readiness()
          .check(
              "Router",
              "topic " + layout.cleanTopic() + " created",
              () -> Topics.exists(admin, layout.cleanTopic()))
          .await(remaining(deadline));
      sinks.createConnectors(kafka.bootstrapServers(), registry.url());
    }
    abortIfClosed();

    log.info("Starting capture (admin API on 127.0.0.1:{})", ports.captureAdmin());
    capture =
        starting(
            "Capture",
            ports.captureAdmin(),
            () -> {
              CaptureService c =
                  new CaptureService(
                      new CaptureConfig(
                          StackConfigs.capture(
                              layout,
                              mariaDb.port(),
                              kafka.bootstrapServers(),
                              registry.url(),
                              ports.captureAdmin())));
              try {
                c.start();
                return c;
              } catch (RuntimeException e) {
                closeQuietly("capture", c);
                throw e;
              }
            });
    abortIfClosed();

    Router started = router;
    CaptureService startedCapture = capture;
    LakeSinks startedSinks = sinks;
    try (Admin admin = admin(kafka.bootstrapServers())) {
      new Readiness()
          .kafka(kafka.bootstrapServers(), admin)
          .http("Schema registry", registry.url() + "/subjects")
          .http("Router", started.healthUrl())
          // /health is 200 while rebalancing too; ready means records flow.
          .check(
              "Router",
              "Kafka Streams state RUNNING",
              () -> started.state() == KafkaStreams.State.RUNNING)
          .http(
              "Capture",
              startedCapture.adminUrl() + "/connectors/" + layout.captureName() + "/status")
          // Ready means a change made now arrives as a c/u/d event, not in the snapshot.
          .check(
              "Capture",
              "capture RUNNING and streaming the binlog",
              () -> startedCapture.state() == CaptureState.RUNNING && startedCapture.isStreaming())
          .check(
              "Kafka Connect",
              "connector " + layout.upsertSink() + " and its task RUNNING",
              () -> startedSinks.running(layout.upsertSink()))
          .check(
              "Kafka Connect",
              "connector " + layout.changelogSink() + " and its task RUNNING",
              () -> startedSinks.running(layout.changelogSink()))
          .await(remaining(deadline));
    }
    log.info("Starting the monitor (DLQ backlog, consumer lag and Iceberg table metrics)");
    monitor =
        PipelineMonitor.start(
            MonitorSettings.defaults(kafka.bootstrapServers())
                .withTopicNames(layout.topics())
                .withRefreshInterval(StackTimings.MONITOR_REFRESH)
                .withIcebergCatalog(icebergCatalog())
                .withIcebergRefreshInterval(StackTimings.MONITOR_REFRESH));
    abortIfClosed();
    PipelineMonitor startedMonitor = monitor;
    // /health answers 200 once the monitor has read the DLQ topics, ledgers, group offsets and
    // the Iceberg tables' metadata.
    new Readiness().http("Monitor", startedMonitor.healthUrl()).await(remaining(deadline));
    if (prometheusBinary != null) {
      startPrometheus(prometheusBinary, deadline);
    }
    publishReadyFile();
  }

  /** Starts Prometheus on every endpoint and waits until it has scraped each one. */
  private void startPrometheus(Path binary, long deadline) {
    PrometheusConfig config =
        prometheusConfig(
            routerMetricsUrl(), captureAdminUrl(), SinkMetricsEndpoint.url(), monitorMetricsUrl());
    log.info("Starting Prometheus on 127.0.0.1:{} ({})", ports.prometheus(), binary);
    prometheus =
        PrometheusServer.start(
            binary,
            options.dataDir().resolve("prometheus"),
            ports.prometheus(),
            config,
            remaining(deadline));
    abortIfClosed();
    prometheus.awaitTargetsUp(remaining(deadline));
  }

  /**
   * What Prometheus scrapes in a stack, embedded or of processes, by job name: each component that
   * serves a {@code /metrics} endpoint adds a line here.
   *
   * @param upsertSinkMetricsUrl the upsert sink's endpoint, when its task serves one
   */
  static PrometheusConfig prometheusConfig(
      String routerMetricsUrl,
      String captureAdminUrl,
      Optional<String> upsertSinkMetricsUrl,
      String monitorMetricsUrl) {
    Map<String, List<String>> targets = new LinkedHashMap<>();
    targets.put(StackLayout.ROUTER_JOB, List.of(routerMetricsUrl));
    targets.put(StackLayout.CAPTURE_JOB, List.of(captureAdminUrl + "/metrics"));
    upsertSinkMetricsUrl.ifPresent(url -> targets.put(StackLayout.UPSERT_SINK_JOB, List.of(url)));
    targets.put(StackLayout.MONITOR_JOB, List.of(monitorMetricsUrl));
    return PrometheusConfig.of(PrometheusConfig.DEFAULT_SCRAPE_INTERVAL, targets);
  }

  /** Under the lock of {@link #close()}, so a stop never leaves a ready file behind. */
  private synchronized void publishReadyFile() {
    abortIfClosed();
    if (readyFile != null) {
      readyFile.write(endpoints());
      log.info("Wrote ready file {}", readyFile.path());
    }
  }

  private static Duration remaining(long deadlineNanos) {
    return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
  }

  /** The endpoints as the ready file names them, in a stable order. */
  @Override
  public StackLayout layout() {
    return layout;
  }

  @Override
  public Map<String, Object> endpoints() {
    Map<String, Object> endpoints = new LinkedHashMap<>();
    endpoints.put(ReadyFile.BOOTSTRAP_SERVERS, bootstrapServers());
    endpoints.put(ReadyFile.SCHEMA_REGISTRY_URL, schemaRegistryUrl());
    endpoints.put(ReadyFile.ROUTER_METRICS_URL, routerMetricsUrl());
    endpoints.put(ReadyFile.JDBC_URL, jdbcUrl());
    endpoints.put(ReadyFile.JDBC_USER, EmbeddedMariaDb.APP_USER);
    endpoints.put(ReadyFile.JDBC_PASSWORD, EmbeddedMariaDb.APP_PASSWORD);
    endpoints.put(ReadyFile.CAPTURE_ADMIN_URL, captureAdminUrl());
    endpoints.put(ReadyFile.CONNECT_URL, connectUrl());
    endpoints.put(ReadyFile.ICEBERG_CATALOG, icebergCatalog());
    endpoints.put(ReadyFile.WAREHOUSE, warehouse());
    // Served by the upsert sink's task, which the ready check waited for.
    SinkMetricsEndpoint.url()
        .ifPresent(url -> endpoints.put(ReadyFile.UPSERT_SINK_METRICS_URL, url));
    endpoints.put(ReadyFile.MONITOR_METRICS_URL, monitorMetricsUrl());
    endpoints.put(ReadyFile.ROUTER_CONFIG, options.routerConfig());
    endpoints.put(ReadyFile.SINK_CONFIG, options.sinkConfig());
    prometheusUrl().ifPresent(url -> endpoints.put(ReadyFile.PROMETHEUS_URL, url));
    endpoints.put(ReadyFile.TOPICS, ReadyFile.topics(started(router, "router").topicNames()));
    return endpoints;
  }

  /** The monitor's Prometheus endpoint: DLQ backlog, oldest unrepaired age, repairs, group lag. */
  public String monitorMetricsUrl() {
    return started(monitor, "monitor").metricsUrl();
  }

  /** Base URL of the Prometheus scraping the stack, when it runs one. */
  public Optional<String> prometheusUrl() {
    PrometheusServer p = prometheus;
    return p == null ? Optional.empty() : Optional.of(p.url());
  }

  /** JDBC URL of the {@code cdc_lab} database (user {@code sluice}). */
  public String jdbcUrl() {
    return started(mariaDb, "MariaDB").jdbcUrl();
  }

  public String captureAdminUrl() {
    return started(capture, "capture").adminUrl();
  }

  /** Base URL of the Connect worker's REST API. */
  public String connectUrl() {
    return started(sinks, "Connect worker").url();
  }

  public ConnectRestClient connectClient() {
    return started(sinks, "Connect worker").client();
  }

  /** The Iceberg catalog as properties for {@code CatalogUtil.buildIcebergCatalog}, with name. */
  public Map<String, String> icebergCatalog() {
    return started(sinks, "Connect worker").catalog();
  }

  /** Location of the Iceberg warehouse ({@code file:} URI under the data dir). */
  public String warehouse() {
    return started(sinks, "Connect worker").warehouse();
  }

  public CaptureService capture() {
    return started(capture, "capture");
  }

  public EmbeddedMariaDb mariaDb() {
    return started(mariaDb, "MariaDB");
  }

  public String bootstrapServers() {
    return started(kafka, "Kafka broker").bootstrapServers();
  }

  public String schemaRegistryUrl() {
    return started(registry, "schema registry").url();
  }

  public String routerMetricsUrl() {
    return started(router, "router").metricsUrl();
  }

  public String routerHealthUrl() {
    return started(router, "router").healthUrl();
  }

  public StackPorts ports() {
    return ports;
  }

  public Path dataDir() {
    return options.dataDir();
  }

  /**
   * Deletes the ready file, then stops Prometheus, the monitor, capture, Connect worker, router,
   * MariaDB, registry and broker, in that order.
   */
  @Override
  public synchronized void close() {
    closed = true;
    if (readyFile != null) {
      readyFile.delete();
    }
    PrometheusServer p = prometheus;
    prometheus = null;
    closeQuietly("Prometheus", p);
    PipelineMonitor m = monitor;
    monitor = null;
    closeQuietly("monitor", m);
    CaptureService c = capture;
    capture = null;
    closeQuietly("capture", c);
    LakeSinks s = sinks;
    sinks = null;
    closeQuietly("Connect worker", s);
    Router r = router;
    router = null;
    closeQuietly("router", r);
    EmbeddedMariaDb db = mariaDb;
    mariaDb = null;
    closeQuietly("MariaDB", db);
    DevSchemaRegistry sr = registry;
    registry = null;
    closeQuietly("schema registry", sr);
    EmbeddedKafka k = kafka;
    kafka = null;
    closeQuietly("Kafka broker", k);
  }

  private static <T> T starting(String component, int port, Supplier<T> start) {
    try {
      return start.get();
    } catch (RuntimeException e) {
      throw new StackStartException(component + " could not start on 127.0.0.1:" + port, e);
    }
  }

  private void abortIfClosed() {
    if (closed) {
      throw new StackStartException("the stack was stopped while starting");
    }
  }

  private static void closeQuietly(String component, AutoCloseable closeable) {
    if (closeable == null) {
      return;
    }
    try {
      closeable.close();
      log.info("Stopped {}", component);
    } catch (Exception e) {
      log.warn("Stopping the {} failed: {}", component, e.toString());
    }
  }

  private static <T> T started(T component, String name) {
    if (component == null) {
      throw new IllegalStateException("the " + name + " is not running");
    }
    return component;
  }

  private static Admin admin(String bootstrapServers) {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000));
  }
}
