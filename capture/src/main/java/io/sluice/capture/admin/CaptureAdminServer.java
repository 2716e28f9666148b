package io.sluice.capture.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sluice.capture.CaptureService;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * The capture's admin API, shaped like Kafka Connect's REST API so the same scripts drive both:
 * {@code GET /connectors}, {@code GET /connectors/{name}/status}, {@code GET
 * /connectors/{name}/offsets}, {@code PUT /connectors/{name}/pause}, {@code PUT
 * /connectors/{name}/resume}; plus {@code GET /metrics} (Prometheus) and {@code GET /health}.
 */
public final class CaptureAdminServer implements AutoCloseable {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final HttpServer server;
  private final CaptureService capture;
  private final Supplier<String> metrics;

  public CaptureAdminServer(
      CaptureService capture, Supplier<String> metrics, String host, int port) {
    this.capture = capture;
    this.metrics = metrics;
    try {
      server = HttpServer.create(new InetSocketAddress(host, port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind capture admin API on " + host + ":" + port, e);
    }
    server.setExecutor(Executors.newSingleThreadExecutor(r -> daemon(r, "capture-admin")));
    server.createContext("/", this::handle);
    server.start();
  }

  public String url() {
    return "http://"
        + server.getAddress().getAddress().getHostAddress()
        + ":"
        + server.getAddress().getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String method = exchange.getRequestMethod();
      String[] path = exchange.getRequestURI().getPath().replaceAll("/+$", "").split("/");
      // path[0] is "" (leading slash)
      if (path.length == 2 && path[1].equals("metrics") && method.equals("GET")) {
        send(exchange, 200, "text/plain; version=0.0.4; charset=utf-8", metrics.get());
      } else if (path.length == 2 && path[1].equals("health") && method.equals("GET")) {
        boolean up = capture.state() != io.sluice.capture.CaptureState.FAILED;
        json(exchange, up ? 200 : 503, Map.of("status", capture.state().name()));
      } else if (path.length == 2 && path[1].equals("connectors") && method.equals("GET")) {
        json(exchange, 200, List.of(capture.name()));
      } else if (path.length >= 3 && path[1].equals("connectors")) {
        connector(exchange, method, path);
      } else {
        error(exchange, 404, "no such resource: " + exchange.getRequestURI().getPath());
      }
    }
  }

  private void connector(HttpExchange exchange, String method, String[] path) throws IOException {
    if (!path[2].equals(capture.name())) {
      error(exchange, 404, "Connector " + path[2] + " not found");
      return;
    }
    String action = path.length > 3 ? path[3] : "";
    switch (method + " " + action) {
      case "GET status" -> json(exchange, 200, status());
      case "GET offsets" -> json(exchange, 200, offsets());
      case "PUT pause" -> {
        capture.pause();
        exchange.sendResponseHeaders(202, -1);
      }
      case "PUT resume" -> {
        capture.resume();
        exchange.sendResponseHeaders(202, -1);
      }
      case "GET " -> json(exchange, 200, Map.of("name", capture.name(), "type", "source"));
      default -> error(exchange, 405, method + " not supported on " + exchange.getRequestURI());
    }
  }

  private Map<String, Object> status() {
    String worker = url().replace("http://", "");
    Map<String, Object> connector = new LinkedHashMap<>();
    connector.put("state", capture.state().name());
    connector.put("worker_id", worker);
    Map<String, Object> task = new LinkedHashMap<>(connector);
    task.put("id", 0);
    capture.failure().ifPresent(t -> task.put("trace", t));
    Map<String, Object> body = new LinkedHashMap<>();
    body.put("name", capture.name());
    // Not in Kafka Connect's shape; readers ignore it. True once the snapshot is done.
    body.put("streaming", capture.isStreaming());
    body.put("connector", connector);
    body.put("tasks", List.of(task));
    body.put("type", "source");
    return body;
  }

  private Map<String, Object> offsets() {
    Map<String, ?> position = capture.lastPublishedOffset();
    if (position == null || position.isEmpty()) {
      return Map.of("offsets", List.of());
    }
    return Map.of(
        "offsets",
        List.of(Map.of("partition", capture.lastPublishedPartition(), "offset", position)));
  }

  private static void json(HttpExchange exchange, int status, Object body) throws IOException {
    send(exchange, status, "application/json", JSON.writeValueAsString(body));
  }

  private static void error(HttpExchange exchange, int status, String message) throws IOException {
    json(exchange, status, Map.of("error_code", status, "message", message));
  }

  private static void send(HttpExchange exchange, int status, String type, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", type);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static Thread daemon(Runnable r, String name) {
    Thread t = new Thread(r, name);
    t.setDaemon(true);
    return t;
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
