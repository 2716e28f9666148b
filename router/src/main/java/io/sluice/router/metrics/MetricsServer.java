package io.sluice.router.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HTTP endpoints of the router: {@code GET /metrics} in the Prometheus text format and {@code GET
 * /health}: 200 {@code {"status":"RUNNING"}} while Kafka Streams is running or rebalancing, else
 * 503 with the state.
 */
public final class MetricsServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(MetricsServer.class);
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Starts serving on {@code host:port} (0 = a free port).
   *
   * @param state the current Kafka Streams state, or null before it exists
   */
  public static MetricsServer start(
      String host, int port, PrometheusMeterRegistry registry, Supplier<KafkaStreams.State> state) {
    HttpServer server;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind the metrics server to " + host + ":" + port, e);
    }
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread thread = new Thread(r, "sluice-router-metrics");
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(executor);
    server.createContext("/metrics", exchange -> metrics(exchange, registry));
    server.createContext("/health", exchange -> health(exchange, state.get()));
    server.start();
    log.info("Router metrics on http://{}:{}/metrics", host, server.getAddress().getPort());
    return new MetricsServer(server, executor);
  }

  public int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private static void metrics(HttpExchange exchange, PrometheusMeterRegistry registry)
      throws IOException {
    if (!"/metrics".equals(exchange.getRequestURI().getPath())) {
      respond(exchange, 404, "text/plain", "not found\n");
      return;
    }
    respond(exchange, 200, PROMETHEUS_TEXT, registry.scrape());
  }

  private static void health(HttpExchange exchange, KafkaStreams.State state) throws IOException {
    boolean up = state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
    String status = up ? "RUNNING" : String.valueOf(state == null ? "NOT_STARTED" : state);
    respond(exchange, up ? 200 : 503, "application/json", "{\"status\":\"" + status + "\"}");
  }

  private static void respond(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
