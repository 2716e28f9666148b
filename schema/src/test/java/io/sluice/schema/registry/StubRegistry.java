package io.sluice.schema.registry;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * A JDK HTTP server answering canned bodies per "METHOD /raw/path?query", recording every request
 * so tests can count what the client really asked.
 */
final class StubRegistry implements AutoCloseable {
  record Request(String method, String target, String contentType, String body) {}

  private record Reply(int status, String body, boolean hang) {}

  private final HttpServer server;
  private final ExecutorService executor = Executors.newCachedThreadPool();
  private final Map<String, Reply> replies = new ConcurrentHashMap<>();
  private final List<Request> requests = new CopyOnWriteArrayList<>();
  private final CountDownLatch released = new CountDownLatch(1);

  private StubRegistry() {
    try {
      server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    server.createContext("/", this::handle);
    server.setExecutor(executor);
    server.start();
  }

  static StubRegistry start() {
    return new StubRegistry();
  }

  String url() {
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }

  /** Answers {@code method target} with {@code status} and {@code body} from now on. */
  StubRegistry answer(String method, String target, int status, String body) {
    replies.put(method + " " + target, new Reply(status, body, false));
    return this;
  }

  /** Never answers {@code method target} (until {@link #close()}). */
  StubRegistry hang(String method, String target) {
    replies.put(method + " " + target, new Reply(0, null, true));
    return this;
  }

  int count(String method, String target) {
    return (int)
        requests.stream()
            .filter(r -> r.method().equals(method) && r.target().equals(target))
            .count();
  }

  List<Request> requests() {
    return List.copyOf(requests);
  }

  @Override
  public void close() {
    released.countDown();
    server.stop(0);
    executor.shutdownNow();
  }

  private void handle(HttpExchange exchange) throws IOException {
    try (exchange) {
      String query = exchange.getRequestURI().getRawQuery();
      String target = exchange.getRequestURI().getRawPath() + (query == null ? "" : "?" + query);
      String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
      String method = exchange.getRequestMethod();
      requests.add(
          new Request(method, target, exchange.getRequestHeaders().getFirst("Content-Type"), body));
      Reply reply =
          replies.getOrDefault(
              method + " " + target,
              new Reply(404, "{\"error_code\":404,\"message\":\"HTTP 404 Not Found\"}", false));
      if (reply.hang()) {
        released.await(30, TimeUnit.SECONDS);
        return;
      }
      byte[] bytes = reply.body().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/vnd.schemaregistry.v1+json");
      exchange.sendResponseHeaders(reply.status(), bytes.length);
      try (OutputStream out = exchange.getResponseBody()) {
        out.write(bytes);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
