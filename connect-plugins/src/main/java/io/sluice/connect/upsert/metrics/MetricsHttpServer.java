package io.sluice.connect.upsert.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/** {@code GET /metrics} in the Prometheus text format, on one daemon thread. */
final class MetricsHttpServer implements AutoCloseable {
  private static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  private final HttpServer server;
  private final ExecutorService executor;

  private MetricsHttpServer(HttpServer server, ExecutorService executor) {
    this.server = server;
    this.executor = executor;
  }

  /**
   * Serves {@code registry} on {@code host:port} (0 = a free port).
   *
   * @throws IOException when the address cannot be bound
   */
  static MetricsHttpServer start(String host, int port, PrometheusMeterRegistry registry)
      throws IOException {
    HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
    ExecutorService executor =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread thread = new Thread(r, "sluice-sink-metrics");
              thread.setDaemon(true);
              return thread;
            });
    server.setExecutor(executor);
    server.createContext("/", exchange -> handle(exchange, registry));
    server.start();
    return new MetricsHttpServer(server, executor);
  }

  int port() {
    return server.getAddress().getPort();
  }

  @Override
  public void close() {
    server.stop(0);
    executor.shutdownNow();
  }

  private static void handle(HttpExchange exchange, PrometheusMeterRegistry registry)
      throws IOException {
    if ("/metrics".equals(exchange.getRequestURI().getPath())) {
      respond(exchange, 200, PROMETHEUS_TEXT, registry.scrape());
    } else {
      respond(exchange, 404, "text/plain", "not found; the sink's metrics are at /metrics\n");
    }
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
