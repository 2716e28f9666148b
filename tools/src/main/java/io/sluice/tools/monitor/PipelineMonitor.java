package io.sluice.tools.monitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.lake.Catalogs;
import io.sluice.observe.Health;
import io.sluice.observe.HttpEndpoint;
import io.sluice.tools.dlq.kafka.BrokerClients;
import io.sluice.tools.dlq.kafka.TopicScanner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.catalog.Catalog;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The pipeline monitor: a long-running process that derives from Kafka what no component can
 * measure alone, and serves it as Prometheus metrics ({@code GET /metrics}, {@code GET /health}):
 * per DLQ topic the records read, the backlog not yet repaired or replayed, the age of its oldest
 * record and the repairs and replays the ledger records (see {@link DlqBacklog}); per consumer
 * group and topic the lag (see {@link ConsumerLag}). The DLQ tools are short-lived commands, so
 * their work is read back from the ledger topic rather than measured where it happens. With an
 * Iceberg catalog ({@link MonitorSettings#iceberg()}), also per table the commits, snapshots and
 * the current snapshot's totals, from the table metadata (see {@link IcebergWatcher}): what both
 * sinks committed, seen from the lake, also for a sink that reports nothing itself.
 *
 * <p>A daemon thread refreshes the Kafka part every {@link MonitorSettings#refreshInterval()},
 * another the Iceberg part every {@link IcebergSettings#refreshInterval()}; a refresh that fails
 * (broker or catalog unreachable) is counted, shown by {@code /health} (503) and retried at the
 * next interval. {@link #start} returns once the endpoint serves; the first refreshes run at once
 * in the background.
 */
public final class PipelineMonitor implements AutoCloseable {
  /** The client id of the monitor's consumer and admin client. */
  public static final String CLIENT_ID = "sluice-monitor";

  private static final Logger log = LoggerFactory.getLogger(PipelineMonitor.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration BROKER_TIMEOUT = Duration.ofSeconds(15);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(30);

  private final MonitorSettings settings;
  private final Clock clock;
  private final PrometheusMeterRegistry registry;
  private final MonitorMetrics metrics;
  private final TopicScanner scanner;
  private final Admin admin;
  private final DlqWatcher dlq;
  private final ConsumerLag lag;
  private final IcebergWatcher icebergTables;
  private final RefreshTask kafka;
  private final RefreshTask iceberg;
  private final ScheduledExecutorService scheduler;
  private final AtomicBoolean closed = new AtomicBoolean();
  private HttpEndpoint endpoint;

  private PipelineMonitor(MonitorSettings settings, Clock clock) {
    this.settings = settings;
    this.clock = clock;
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.metrics = new MonitorMetrics(registry, clock, settings.topicNames());
    this.scanner =
        new TopicScanner(new BrokerClients(settings.bootstrapServers(), CLIENT_ID).consumer());
    this.admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                settings.bootstrapServers(),
                AdminClientConfig.CLIENT_ID_CONFIG,
                CLIENT_ID,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                (int) BROKER_TIMEOUT.toMillis() - 5_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                (int) BROKER_TIMEOUT.toMillis()));
    this.dlq = new DlqWatcher(scanner, settings.dlqTopicPattern(), settings.topicNames(), metrics);
    this.lag = new ConsumerLag(admin, scanner, settings.groupPattern(), BROKER_TIMEOUT);
    this.kafka =
        new RefreshTask(
            "monitor",
            "DLQ topic(s)",
            this::refreshKafka,
            metrics::refreshed,
            metrics::refreshFailed,
            settings.refreshInterval(),
            clock,
            closed::get);
    IcebergSettings lake = settings.iceberg();
    if (lake.enabled()) {
      IcebergMetrics icebergMetrics = new IcebergMetrics(registry);
      this.icebergTables = new IcebergWatcher(lake, icebergMetrics, PipelineMonitor::openCatalog);
      this.iceberg =
          new RefreshTask(
              "Iceberg",
              "table(s)",
              icebergTables::refresh,
              icebergMetrics::refreshed,
              icebergMetrics::refreshFailed,
              lake.refreshInterval(),
              clock,
              closed::get);
    } else {
      this.icebergTables = null;
      this.iceberg = null;
    }
    // One thread per part: a slow catalog never delays the Kafka metrics, nor the reverse.
    AtomicInteger threads = new AtomicInteger();
    this.scheduler =
        Executors.newScheduledThreadPool(
            iceberg == null ? 1 : 2,
            r -> {
              Thread thread = new Thread(r, "sluice-monitor-" + threads.incrementAndGet());
              thread.setDaemon(true);
              return thread;
            });
  }

  /**
   * Starts serving {@code /metrics} and {@code /health} and refreshing.
   *
   * @throws UncheckedIOException when the metrics address cannot be bound (nothing keeps running)
   */
  public static PipelineMonitor start(MonitorSettings settings) {
    PipelineMonitor monitor = new PipelineMonitor(settings, Clock.systemUTC());
    try {
      monitor.endpoint =
          HttpEndpoint.builder("sluice-monitor-http")
              .metrics(monitor.registry)
              .health(monitor::health)
              .start(settings.metricsHost(), settings.metricsPort());
    } catch (IOException e) {
      monitor.close();
      throw new UncheckedIOException(
          "cannot bind the monitor's metrics server to "
              + settings.metricsHost()
              + ":"
              + settings.metricsPort(),
          e);
    }
    monitor.scheduler.scheduleWithFixedDelay(
        monitor.kafka, 0, settings.refreshInterval().toMillis(), TimeUnit.MILLISECONDS);
    log.info(
        "monitor serving {} (DLQ topics matching {}, lag of groups matching {}, every {} ms)",
        monitor.metricsUrl(),
        settings.dlqTopicPattern(),
        settings.groupPattern(),
        settings.refreshInterval().toMillis());
    if (monitor.iceberg != null) {
      IcebergSettings lake = settings.iceberg();
      monitor.scheduler.scheduleWithFixedDelay(
          monitor.iceberg, 0, lake.refreshInterval().toMillis(), TimeUnit.MILLISECONDS);
      log.info(
          "monitor reading Iceberg tables {} of catalog {} every {} ms",
          lake.tables().isEmpty() ? "(all)" : lake.tables(),
          lake.describeCatalog(),
          lake.refreshInterval().toMillis());
    }
    return monitor;
  }

  /** {@code http://host:port} of the endpoint, without a path. */
  public String url() {
    return endpoint.url();
  }

  /** {@code http://host:port/metrics}: Prometheus text. */
  public String metricsUrl() {
    return url() + HttpEndpoint.METRICS_PATH;
  }

  /**
   * {@code http://host:port/health}: 200 {@code {"status":"RUNNING",...}} once the last refresh of
   * each part (Kafka; Iceberg when configured, under {@code "iceberg"}) succeeded; 503 with {@code
   * STARTING} before the first, {@code FAILING} and the error after a failed one. A single table
   * that cannot be loaded does not fail the Iceberg part: it is counted.
   */
  public String healthUrl() {
    return url() + HttpEndpoint.HEALTH_PATH;
  }

  /** Stops refreshing and serving and closes the Kafka clients; calling it again does nothing. */
  @Override
  public void close() {
    if (!closed.compareAndSet(false, true)) {
      return;
    }
    if (endpoint != null) {
      endpoint.close();
    }
    scheduler.shutdownNow();
    try {
      if (!scheduler.awaitTermination(CLOSE_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn("monitor refresh did not stop within {} s", CLOSE_TIMEOUT.toSeconds());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (icebergTables != null) {
      icebergTables.close();
    }
    dlq.close();
    scanner.close();
    admin.close(Duration.ofSeconds(5));
    registry.close();
    log.info("monitor stopped");
  }

  private int refreshKafka() {
    int dlqTopics = dlq.refresh();
    metrics.lag(lag.read());
    return dlqTopics;
  }

  private Health health() {
    RefreshTask.Status kafkaNow = kafka.status();
    RefreshTask.Status icebergNow = iceberg == null ? null : iceberg.status();
    String state = kafkaNow.state();
    if (kafkaNow.up() && icebergNow != null && !icebergNow.up()) {
      state = icebergNow.state();
    }
    ObjectNode body = JSON.createObjectNode();
    body.put("status", state);
    kafkaNow.describeInto(body, "dlq_topics");
    if (icebergNow != null) {
      ObjectNode lake = body.putObject("iceberg");
      lake.put("status", icebergNow.state());
      icebergNow.describeInto(lake, "tables");
    }
    return new Health(kafkaNow.up() && (icebergNow == null || icebergNow.up()), body.toString());
  }

  /** Opens the settings' catalog, named as the settings name it. */
  private static Catalog openCatalog(IcebergSettings settings) {
    Map<String, String> object = new LinkedHashMap<>(settings.catalog());
    object.put(Catalogs.NAME, settings.catalogName());
    return Catalogs.open(object).catalog();
  }
}
