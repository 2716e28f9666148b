package io.sluice.observe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Sends each request of an {@link HttpEndpoint} to what serves its path. */
final class Dispatcher implements HttpHandler {
  private static final Logger log = LoggerFactory.getLogger(Dispatcher.class);

  private final Supplier<String> scrape;
  private final Supplier<Health> health;
  private final Map<String, HttpHandler> routes;
  private final HttpHandler notFound;

  Dispatcher(
      Supplier<String> scrape,
      Supplier<Health> health,
      Map<String, HttpHandler> routes,
      HttpHandler notFound) {
    this.scrape = scrape;
    this.health = health;
    this.routes = routes;
    this.notFound = notFound;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      try {
        dispatch(exchange, exchange.getRequestURI().getPath().replaceAll("/+$", ""));
      } catch (RuntimeException e) {
        // Without this the JDK server drops the connection and logs nothing above TRACE.
        log.warn("{} {} failed", exchange.getRequestMethod(), exchange.getRequestURI(), e);
        if (exchange.getResponseCode() == -1) {
          HttpResponses.text(exchange, 500, "internal error: " + e.getClass().getName() + "\n");
        }
      }
    }
  }

  private void dispatch(HttpExchange exchange, String path) throws IOException {
    if (scrape != null && path.equals(HttpEndpoint.METRICS_PATH)) {
      if (isGet(exchange)) {
        HttpResponses.send(exchange, 200, HttpEndpoint.PROMETHEUS_TEXT, scrape.get());
      }
    } else if (health != null && path.equals(HttpEndpoint.HEALTH_PATH)) {
      if (isGet(exchange)) {
        Health current = health.get();
        HttpResponses.json(exchange, current.up() ? 200 : 503, current.json());
      }
    } else {
      route(path).handle(exchange);
    }
  }

  private HttpHandler route(String path) {
    for (Map.Entry<String, HttpHandler> route : routes.entrySet()) {
      if (path.equals(route.getKey()) || path.startsWith(route.getKey() + "/")) {
        return route.getValue();
      }
    }
    return notFound;
  }

  /** True for GET; otherwise answers 405 naming GET. */
  private static boolean isGet(HttpExchange exchange) throws IOException {
    if (exchange.getRequestMethod().equals("GET")) {
      return true;
    }
    exchange.getResponseHeaders().set("Allow", "GET");
    HttpResponses.text(
        exchange,
        405,
        exchange.getRequestMethod()
            + " not supported on "
            + exchange.getRequestURI().getPath()
            + "; use GET\n");
    return false;
  }
}
