package io.sluice.connect.upsert.metrics;

import static io.sluice.connect.upsert.config.UpsertSinkConfig.METRICS_HOST_CONFIG;
import static io.sluice.connect.upsert.config.UpsertSinkConfig.METRICS_PORT_CONFIG;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.observe.HttpEndpoint;
import java.io.IOException;
import java.util.Optional;
import org.apache.kafka.common.config.ConfigException;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one Prometheus endpoint ({@code GET /metrics}) of the upsert sink tasks in a worker JVM (in
 * the plugin's class loader, to be exact). The first task that asks for it starts it with a fresh
 * {@link PrometheusMeterRegistry}; every task holds a {@link Lease}; the last lease closed stops
 * it. Tasks asking for the same host and port share it; asking for another one while it runs is a
 * configuration error naming both.
 */
public final class SinkMetricsEndpoint {
  private static final Logger log = LoggerFactory.getLogger(SinkMetricsEndpoint.class);
  private static final Object LOCK = new Object();

  /** The running endpoint, null when none; guarded by LOCK. */
  private static Served served;

  /** The last free port picked for port 0, tried first by the next endpoint on that host. */
  private static String freePortHost;

  private static int freePort;

  private SinkMetricsEndpoint() {}

  /** A task's share of the endpoint; closing it (once or more) gives the share back. */
  public static final class Lease implements AutoCloseable {
    private final SinkMeters meters;
    private final Served of;
    private boolean closed;

    private Lease(SinkMeters meters, Served of) {
      this.meters = meters;
      this.of = of;
    }

    /** The meters the task updates; on the endpoint's registry, or recording nothing. */
    public SinkMeters meters() {
      return meters;
    }

    @Override
    public void close() {
      if (of == null) {
        return;
      }
      synchronized (LOCK) {
        if (!closed) {
          closed = true;
          release(of);
        }
      }
    }
  }

  private static final class Served {
    final String host;
    final int requestedPort;
    final PrometheusMeterRegistry registry;
    final SinkMeters meters;
    final HttpEndpoint server;
    int leases;

    Served(String host, int requestedPort, PrometheusMeterRegistry registry, HttpEndpoint s) {
      this.host = host;
      this.requestedPort = requestedPort;
      this.registry = registry;
      this.meters = new SinkMeters(registry);
      this.server = s;
    }

    String url() {
      return server.url() + HttpEndpoint.METRICS_PATH;
    }
  }

  /**
   * A share of the endpoint on {@code host:port}, starting it if none runs. Port 0 takes the
   * running endpoint whatever its port, else a free port (the one picked last time if it is still
   * free, so that a restarted task keeps the URL); a negative port gives meters that record nothing
   * and no endpoint.
   *
   * @throws ConfigException when an endpoint on another host or port runs
   * @throws ConnectException when the address cannot be bound
   */
  public static Lease acquire(String host, int port) {
    if (port < 0) {
      return new Lease(SinkMeters.disabled(), null);
    }
    synchronized (LOCK) {
      if (served == null) {
        served = start(host, port);
      } else if (!served.host.equals(host)
          || (port != 0 && port != served.requestedPort && port != served.server.port())) {
        throw new ConfigException(
            "this task asks for its metrics on "
                + METRICS_HOST_CONFIG
                + "="
                + host
                + " "
                + METRICS_PORT_CONFIG
                + "="
                + port
                + ", but the upsert sink tasks of this worker already serve "
                + served.url()
                + " ("
                + METRICS_HOST_CONFIG
                + "="
                + served.host
                + " "
                + METRICS_PORT_CONFIG
                + "="
                + served.requestedPort
                + "); a worker has one endpoint: give all its upsert sinks the same "
                + METRICS_HOST_CONFIG
                + " and "
                + METRICS_PORT_CONFIG
                + ", or -1 for none");
      }
      served.leases++;
      return new Lease(served.meters, served);
    }
  }

  /**
   * The URL of the running endpoint ({@code http://host:port/metrics}; a wildcard host is given as
   * 127.0.0.1), empty when none runs. This is how the embedded stack finds a port picked for 0.
   */
  public static Optional<String> url() {
    synchronized (LOCK) {
      return served == null ? Optional.empty() : Optional.of(served.url());
    }
  }

  private static Served start(String host, int port) {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    try {
      Served started = new Served(host, port, registry, bind(host, port, registry));
      if (port == 0) {
        freePortHost = host;
        freePort = started.server.port();
      }
      log.info("Upsert sink metrics on {}", started.url());
      return started;
    } catch (IOException e) {
      registry.close();
      throw new ConnectException(
          "cannot serve the upsert sink's metrics on "
              + host
              + ":"
              + port
              + " ("
              + METRICS_HOST_CONFIG
              + ", "
              + METRICS_PORT_CONFIG
              + "): "
              + e.getMessage(),
          e);
    }
  }

  private static HttpEndpoint bind(String host, int port, PrometheusMeterRegistry registry)
      throws IOException {
    HttpEndpoint.Builder endpoint = HttpEndpoint.builder("sluice-sink-metrics").metrics(registry);
    if (port == 0 && host.equals(freePortHost)) {
      try {
        return endpoint.start(host, freePort);
      } catch (IOException e) {
        log.debug("Port {} picked before is taken now; picking another", freePort);
      }
    }
    return endpoint.start(host, port);
  }

  private static void release(Served of) {
    if (--of.leases > 0) {
      return;
    }
    String url = of.url();
    of.server.close();
    of.registry.close();
    if (served == of) {
      served = null;
    }
    log.info("Upsert sink metrics endpoint {} stopped (no task uses it)", url);
  }
}
