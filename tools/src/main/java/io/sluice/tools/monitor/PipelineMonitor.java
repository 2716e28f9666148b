package io.sluice.tools.monitor;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.observe.Health;
import io.sluice.observe.HttpEndpoint;
import io.sluice.tools.dlq.kafka.BrokerClients;
import io.sluice.tools.dlq.kafka.TopicScanner;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * their work is read back from the ledger topic rather than measured where it happens.
 *
 * <p>One daemon thread refreshes everything every {@link MonitorSettings#refreshInterval()}; a
 * refresh that fails (broker unreachable) is counted, shown by {@code /health} (503) and retried at
 * the next interval. {@link #start} returns once the endpoint serves; the first refresh runs at
 * once in the background.
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
  private final ScheduledExecutorService scheduler;
  private final AtomicBoolean closed = new AtomicBoolean();
  private volatile Status status = new Status(false, "STARTING", null, 0, null);
  private HttpEndpoint endpoint;

  /** What {@code /health} says. */
  private record Status(
      boolean up, String state, Instant lastRefresh, int dlqTopics, String error) {}

  private PipelineMonitor(MonitorSettings settings, Clock clock) {
    this.settings = settings;
    this.clock = clock;
    this.registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    this.metrics = new MonitorMetrics(registry, clock);
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
    this.dlq = new DlqWatcher(scanner, settings.dlqTopicPattern(), metrics);
    this.lag = new ConsumerLag(admin, scanner, settings.groupPattern(), BROKER_TIMEOUT);
    this.scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "sluice-monitor");
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
        monitor::refresh, 0, settings.refreshInterval().toMillis(), TimeUnit.MILLISECONDS);
    log.info(
        "monitor serving {} (DLQ topics matching {}, lag of groups matching {}, every {} ms)",
        monitor.metricsUrl(),
        settings.dlqTopicPattern(),
        settings.groupPattern(),
        settings.refreshInterval().toMillis());
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
   * {@code http://host:port/health}: 200 {@code {"status":"RUNNING",...}} once the last refresh
   * succeeded; 503 with {@code STARTING} before the first, {@code FAILING} and the error after a
   * failed one.
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
    dlq.close();
    scanner.close();
    admin.close(Duration.ofSeconds(5));
    registry.close();
    log.info("monitor stopped");
  }

  private void refresh() {
    if (closed.get()) {
      return;
    }
    try {
      int dlqTopics = dlq.refresh();
      metrics.lag(lag.read());
      Instant now = clock.instant();
      metrics.refreshed(now);
      if (!status.up()) {
        log.info("monitor refreshed: {} DLQ topic(s) watched", dlqTopics);
      }
      status = new Status(true, "RUNNING", now, dlqTopics, null);
    } catch (RuntimeException e) {
      if (closed.get()) {
        return;
      }
      metrics.refreshFailed();
      String error = describe(e);
      if (status.error() == null) {
        log.warn(
            "monitor refresh failed, retrying every {} ms: {}",
            settings.refreshInterval().toMillis(),
            error);
      } else {
        log.debug("monitor refresh failed again: {}", error);
      }
      status = new Status(false, "FAILING", status.lastRefresh(), status.dlqTopics(), error);
    } catch (Error e) {
      // An Error ends the scheduled task silently; make it visible before it does.
      log.error("monitor refresh stopped by {}", e.toString());
      status = new Status(false, "STOPPED", status.lastRefresh(), status.dlqTopics(), e.toString());
      throw e;
    }
  }

  private Health health() {
    Status now = status;
    ObjectNode body = JSON.createObjectNode();
    body.put("status", now.state());
    if (now.lastRefresh() != null) {
      body.put("last_refresh", now.lastRefresh().toString());
      body.put("dlq_topics", now.dlqTopics());
    }
    if (now.error() != null) {
      body.put("error", now.error());
    }
    return new Health(now.up(), body.toString());
  }

  private static String describe(Throwable e) {
    StringBuilder message = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null && !message.toString().contains(cause.getMessage())) {
        message.append(": ").append(cause.getMessage());
      }
    }
    return message.toString();
  }
}
