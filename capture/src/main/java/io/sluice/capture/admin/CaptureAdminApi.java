package io.sluice.capture.admin;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.capture.CaptureService;
import io.sluice.capture.CaptureState;
import io.sluice.observe.Health;
import io.sluice.observe.HttpEndpoint;
import io.sluice.observe.HttpResponses;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The capture's admin API, shaped like Kafka Connect's REST API so the same scripts drive both:
 * {@code GET /connectors}, {@code GET /connectors/{name}/status}, {@code GET
 * /connectors/{name}/offsets}, {@code PUT /connectors/{name}/pause}, {@code PUT
 * /connectors/{name}/resume}; plus {@code GET /metrics} (Prometheus) and {@code GET /health} (503
 * once the capture failed). Errors have Connect's body, {@code {"error_code":N,"message":"..."}}.
 */
public final class CaptureAdminApi implements HttpHandler {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final CaptureService capture;

  private CaptureAdminApi(CaptureService capture) {
    this.capture = capture;
  }

  /**
   * Serves the API of {@code capture} and the metrics of {@code meters} on {@code host:port} (0 = a
   * free port).
   *
   * @throws UncheckedIOException when the address cannot be bound
   */
  public static HttpEndpoint start(
      CaptureService capture, PrometheusMeterRegistry meters, String host, int port) {
    try {
      return HttpEndpoint.builder("capture-admin")
          .metrics(meters)
          .health(() -> health(capture.state()))
          .route("/connectors", new CaptureAdminApi(capture))
          .notFound(
              exchange ->
                  error(exchange, 404, "no such resource: " + exchange.getRequestURI().getPath()))
          .start(host, port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind capture admin API on " + host + ":" + port, e);
    }
  }

  private static Health health(CaptureState state) {
    return Health.status(state != CaptureState.FAILED, state.name());
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    // path[0] is "" (leading slash), path[1] "connectors"
    String[] path = exchange.getRequestURI().getPath().replaceAll("/+$", "").split("/");
    if (path.length == 2 && method.equals("GET")) {
      json(exchange, 200, List.of(capture.name()));
    } else if (path.length >= 3) {
      connector(exchange, method, path);
    } else {
      error(exchange, 404, "no such resource: " + exchange.getRequestURI().getPath());
    }
  }

  private void connector(HttpExchange exchange, String method, String[] path) throws IOException {
    if (!path[2].equals(capture.name())) {
      error(exchange, 404, "Connector " + path[2] + " not found");
      return;
    }
    String action = path.length > 3 ? path[3] : "";
    switch (method + " " + action) {
      case "GET status" -> json(exchange, 200, status(exchange.getLocalAddress()));
      case "GET offsets" -> json(exchange, 200, offsets());
      case "PUT pause" -> {
        capture.pause();
        HttpResponses.empty(exchange, 202);
      }
      case "PUT resume" -> {
        capture.resume();
        HttpResponses.empty(exchange, 202);
      }
      case "GET " -> json(exchange, 200, Map.of("name", capture.name(), "type", "source"));
      default -> error(exchange, 405, method + " not supported on " + exchange.getRequestURI());
    }
  }

  private Map<String, Object> status(InetSocketAddress local) {
    String worker = local.getAddress().getHostAddress() + ":" + local.getPort();
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
    HttpResponses.json(exchange, status, JSON.writeValueAsString(body));
  }

  private static void error(HttpExchange exchange, int status, String message) throws IOException {
    json(exchange, status, Map.of("error_code", status, "message", message));
  }
}
