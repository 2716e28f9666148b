package io.sluice.observe;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The HTTP endpoint of a Sluice process, on the JDK's {@link HttpServer} and one daemon thread:
 * {@code GET /metrics} in the Prometheus text format, optionally {@code GET /health}, and any
 * routes its owner adds. Another method on {@code /metrics} or {@code /health} is answered 405, a
 * path nobody serves 404. A trailing slash is ignored ({@code /metrics/} is {@code /metrics}).
 */
public final class HttpEndpoint implements AutoCloseable {
  /** The Prometheus text exposition format, version 0.0.4. */
  public static final String PROMETHEUS_TEXT = "text/plain; version=0.0.4; charset=utf-8";

  public static final String METRICS_PATH = "/metrics";
  public static final String HEALTH_PATH = "/health";

  private static final Logger log = LoggerFactory.getLogger(HttpEndpoint.class);

  private static final String JDK_HTTP_SERVER_NODELAY = "sun.net.httpserver.nodelay";

  private final HttpServer server;
  private final ExecutorService executor;
  private final String host;
  private final AtomicBoolean closed = new AtomicBoolean();

  private HttpEndpoint(HttpServer server, ExecutorService executor, String host) {
    this.server = server;
    this.executor = executor;
    this.host = host;
  }

  /** A builder of an endpoint whose requests run on one daemon thread named {@code threadName}. */
  public static Builder builder(String threadName) {
    return new Builder(threadName);
  }

  /** The port bound (the one picked when 0 was asked for). */
  public int port() {
    return server.getAddress().getPort();
  }

  /**
   * {@code http://host:port}, without a path; a wildcard host (0.0.0.0, ::) is given as 127.0.0.1
   * so that the URL can be connected to.
   */
  public String url() {
    return "http://" + urlHost(host) + ":" + port();
  }

  /** Stops serving at once and ends the thread; calling it again does nothing. */
  @Override
  public void close() {
    if (closed.compareAndSet(false, true)) {
      server.stop(0);
      executor.shutdownNow();
      log.debug("HTTP endpoint {} stopped", url());
    }
  }

  static String urlHost(String host) {
    if (host.equals("0.0.0.0") || host.equals("::") || host.equals("[::]")) {
      return "127.0.0.1";
    }
    return host.contains(":") && !host.startsWith("[") ? "[" + host + "]" : host;
  }

  /** What an endpoint serves; {@link #start} binds it. */
  public static final class Builder {
    private final String threadName;
    private Supplier<String> scrape;
    private Supplier<Health> health;
    private final Map<String, HttpHandler> routes = new LinkedHashMap<>();
    private HttpHandler notFound;

    private Builder(String threadName) {
      this.threadName = Objects.requireNonNull(threadName, "threadName");
    }

    /** Serves {@code GET /metrics} from {@code registry}. */
    public Builder metrics(PrometheusMeterRegistry registry) {
      Objects.requireNonNull(registry, "registry");
      return metrics(registry::scrape);
    }

    /** Serves {@code GET /metrics}: the Prometheus text {@code scrape} returns at each request. */
    public Builder metrics(Supplier<String> scrape) {
      this.scrape = Objects.requireNonNull(scrape, "scrape");
      return this;
    }

    /** Serves {@code GET /health}: 200 while {@link Health#up()}, else 503, with its JSON. */
    public Builder health(Supplier<Health> health) {
      this.health = Objects.requireNonNull(health, "health");
      return this;
    }

    /**
     * Hands requests for {@code path} and below it ({@code /connectors}, {@code /connectors/x/y})
     * to {@code handler}, whatever their method; the endpoint closes the exchange afterwards.
     *
     * @throws IllegalArgumentException when the path is not of the form {@code /name[/name...]} or
     *     is already served
     */
    public Builder route(String path, HttpHandler handler) {
      Objects.requireNonNull(handler, "handler");
      if (!path.matches("(/[^/]+)+")) {
        throw new IllegalArgumentException(
            "route path must look like /name or /name/name, without a trailing slash: " + path);
      }
      if (path.equals(METRICS_PATH) || path.equals(HEALTH_PATH) || routes.containsKey(path)) {
        throw new IllegalArgumentException("route path " + path + " is already served");
      }
      routes.put(path, handler);
      return this;
    }

    /** Answers paths nobody serves; the default is a 404 in plain text naming the paths served. */
    public Builder notFound(HttpHandler handler) {
      this.notFound = Objects.requireNonNull(handler, "handler");
      return this;
    }

    /**
     * Binds {@code host:port} (0 = a free port) and starts serving.
     *
     * @throws IOException when the address cannot be bound (the caller names its settings)
     */
    public HttpEndpoint start(String host, int port) throws IOException {
      // Without TCP_NODELAY the JDK server's response waits ~40 ms for the client's delayed ACK on
      // every request after a connection's first. Read once, when the JVM's first HttpServer
      // starts; a value set on the command line wins.
      System.getProperties().putIfAbsent(JDK_HTTP_SERVER_NODELAY, "true");
      HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 0);
      ExecutorService executor =
          Executors.newSingleThreadExecutor(
              r -> {
                Thread thread = new Thread(r, threadName);
                thread.setDaemon(true);
                return thread;
              });
      server.setExecutor(executor);
      server.createContext(
          "/",
          new Dispatcher(
              scrape,
              health,
              Map.copyOf(routes),
              notFound != null ? notFound : new ListServed(served())));
      server.start();
      HttpEndpoint endpoint = new HttpEndpoint(server, executor, host);
      log.debug("HTTP endpoint {} serving {}", endpoint.url(), served());
      return endpoint;
    }

    private List<String> served() {
      List<String> paths = new ArrayList<>();
      if (scrape != null) {
        paths.add(METRICS_PATH);
      }
      if (health != null) {
        paths.add(HEALTH_PATH);
      }
      paths.addAll(routes.keySet());
      return paths;
    }
  }

  /** The default answer to a path nobody serves. */
  private record ListServed(List<String> paths) implements HttpHandler {
    @Override
    public void handle(HttpExchange exchange) throws IOException {
      HttpResponses.text(
          exchange,
          404,
          "not found: "
              + exchange.getRequestURI().getPath()
              + "; served here: "
              + String.join(", ", paths)
              + "\n");
    }
  }
}
