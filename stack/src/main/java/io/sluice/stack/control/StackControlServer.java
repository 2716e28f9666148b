package io.sluice.stack.control;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The supervisor's control API on loopback, for {@code sluice stack} and the fault scenarios:
 *
 * <ul>
 *   <li>{@code GET /components}: {@code {"components": [status...]}};
 *   <li>{@code GET /components/<name>}: one status;
 *   <li>{@code POST /components/<name>/kill|stop|start}: the action, answered with the status once
 *       it is done;
 *   <li>{@code POST /stack/crash}: {@link StackController#crash}, answered like {@code GET
 *       /components} once every component runs again.
 * </ul>
 *
 * Errors answer {@code {"error": "..."}} with 404 (unknown component or path), 405 (wrong method),
 * 409 (an action that does not fit the state) or 500. It has no authentication: it binds to the
 * address given, 127.0.0.1 in the stack.
 */
public final class StackControlServer implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(StackControlServer.class);
  private static final Set<String> ACTIONS = Set.of("kill", "stop", "start");
  private static final String PREFIX = "/components";

  /** The path of {@link StackController#crash}. */
  static final String CRASH = "/stack/crash";

  private final HttpServer server;
  private final StackController controller;
  private final ObjectMapper json = new ObjectMapper();

  private StackControlServer(HttpServer server, StackController controller) {
    this.server = server;
    this.controller = controller;
  }

  /** Serves {@code controller} on {@code host:port} (0 picks a free port). */
  public static StackControlServer start(String host, int port, StackController controller) {
    try {
      HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
      StackControlServer control = new StackControlServer(server, controller);
      server.createContext("/", control::handle);
      // One action at a time: the supervisor's calls are serialised anyway, and a second caller
      // waits instead of racing a restart.
      server.setExecutor(Executors.newSingleThreadExecutor(r -> daemon(r, "stack-control")));
      server.start();
      log.info("Stack control API on {}", control.url());
      return control;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot serve the control API on " + host + ":" + port, e);
    }
  }

  /** {@code http://host:port}. */
  public String url() {
    InetSocketAddress address = server.getAddress();
    return "http://" + address.getHostString() + ":" + address.getPort();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      try {
        Object body = route(method, path);
        send(exchange, 200, body);
      } catch (StackController.ControlException e) {
        send(exchange, e.status(), Map.of("error", e.getMessage()));
      } catch (RuntimeException e) {
        log.warn("{} {} failed", method, path, e);
        send(exchange, 500, Map.of("error", e.getClass().getSimpleName() + ": " + e.getMessage()));
      }
    }
  }

  private Object route(String method, String path) {
    if (path.replaceAll("/+$", "").equals(CRASH)) {
      requireMethod("POST", method, path);
      log.info("Control API: crash");
      return Map.of("components", controller.crash());
    }
    String[] parts = path.replaceAll("/+$", "").split("/");
    // "", "components", name?, action?
    if (parts.length < 2 || !("/" + parts[1]).equals(PREFIX) || parts.length > 4) {
      throw new StackController.ControlException(
          404, "no such path " + path + "; try GET " + PREFIX + " or POST " + CRASH);
    }
    if (parts.length == 2) {
      requireMethod("GET", method, path);
      return Map.of("components", controller.status());
    }
    String name = parts[2];
    if (parts.length == 3) {
      requireMethod("GET", method, path);
      return controller.status().stream()
          .filter(c -> c.name().equals(name))
          .findFirst()
          .orElseThrow(() -> unknown(name));
    }
    String action = parts[3];
    if (!ACTIONS.contains(action)) {
      throw new StackController.ControlException(
          404, "no action " + action + " of " + name + "; actions are " + ACTIONS);
    }
    requireMethod("POST", method, path);
    log.info("Control API: {} {}", action, name);
    return switch (action) {
      case "kill" -> controller.kill(name);
      case "stop" -> controller.stop(name);
      default -> controller.start(name);
    };
  }

  private StackController.ControlException unknown(String name) {
    return new StackController.ControlException(
        404,
        "no component "
            + name
            + "; the stack has "
            + controller.status().stream().map(ComponentStatus::name).toList());
  }

  private static void requireMethod(String expected, String method, String path) {
    if (!expected.equals(method)) {
      throw new StackController.ControlException(
          405, method + " " + path + " is not served; use " + expected);
    }
  }

  private void send(HttpExchange exchange, int status, Object body) throws IOException {
    byte[] bytes = json.writerWithDefaultPrettyPrinter().writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
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
