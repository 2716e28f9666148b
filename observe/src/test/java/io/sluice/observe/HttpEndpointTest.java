package io.sluice.observe;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class HttpEndpointTest {
  private static final String HOST = "127.0.0.1";
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final HttpClient http = HttpClient.newHttpClient();
  private final List<HttpEndpoint> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(HttpEndpoint::close);
    registry.close();
  }

  @Test
  void metricsAreThePrometheusTextOfTheRegistry() throws Exception {
    registry.counter("sluice_test_events", "table", "orders").increment(3);
    HttpEndpoint endpoint = start(HttpEndpoint.builder("test-http").metrics(registry));

    HttpResponse<String> response = get(endpoint, "/metrics");

    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .contains("text/plain; version=0.0.4; charset=utf-8");
    assertThat(response.body()).contains("sluice_test_events_total{table=\"orders\"} 3.0");
    assertThat(get(endpoint, "/metrics/").body()).isEqualTo(response.body());
  }

  @Test
  void healthIs200WhileUpAnd503OtherwiseWithItsJson() throws Exception {
    AtomicReference<Health> health = new AtomicReference<>(Health.status(false, "STARTING"));
    HttpEndpoint endpoint = start(HttpEndpoint.builder("test-http").health(health::get));

    HttpResponse<String> down = get(endpoint, "/health");
    assertThat(down.statusCode()).isEqualTo(503);
    assertThat(down.body()).isEqualTo("{\"status\":\"STARTING\"}");
    assertThat(down.headers().firstValue("Content-Type")).contains("application/json");

    health.set(Health.status(true, "RUNNING"));
    HttpResponse<String> up = get(endpoint, "/health");
    assertThat(up.statusCode()).isEqualTo(200);
    assertThat(up.body()).isEqualTo("{\"status\":\"RUNNING\"}");
  }

  @Test
  void healthStatusIsEscapedJson() {
    assertThat(Health.status(false, "a\"b\\c\n").json())
        .isEqualTo("{\"status\":\"a\\\"b\\\\c\\u000a\"}");
  }

  @Test
  void unservedPathsAre404NamingWhatIsServed() throws Exception {
    HttpEndpoint endpoint = start(HttpEndpoint.builder("test-http").metrics(registry));

    HttpResponse<String> health = get(endpoint, "/health");
    HttpResponse<String> below = get(endpoint, "/metrics/x");

    assertThat(health.statusCode()).isEqualTo(404);
    assertThat(health.body()).isEqualTo("not found: /health; served here: /metrics\n");
    assertThat(below.statusCode()).isEqualTo(404);
    assertThat(get(endpoint, "/").statusCode()).isEqualTo(404);
  }

  @Test
  void anotherMethodOnMetricsOrHealthIs405() throws Exception {
    HttpEndpoint endpoint =
        start(
            HttpEndpoint.builder("test-http")
                .metrics(registry)
                .health(() -> Health.status(true, "RUNNING")));

    HttpResponse<String> post =
        send(
            endpoint,
            "/metrics",
            HttpRequest.newBuilder().POST(HttpRequest.BodyPublishers.noBody()));
    HttpResponse<String> put =
        send(
            endpoint, "/health", HttpRequest.newBuilder().PUT(HttpRequest.BodyPublishers.noBody()));

    assertThat(post.statusCode()).isEqualTo(405);
    assertThat(post.headers().firstValue("Allow")).contains("GET");
    assertThat(post.body()).isEqualTo("POST not supported on /metrics; use GET\n");
    assertThat(put.statusCode()).isEqualTo(405);
  }

  @Test
  void routesTakeTheirPathAndBelowAndAnOwnNotFoundTheRest() throws Exception {
    List<String> seen = new ArrayList<>();
    HttpEndpoint endpoint =
        start(
            HttpEndpoint.builder("test-http")
                .metrics(registry)
                .route(
                    "/connectors",
                    exchange -> {
                      seen.add(exchange.getRequestMethod() + " " + exchange.getRequestURI());
                      HttpResponses.empty(exchange, 202);
                    })
                .notFound(exchange -> HttpResponses.json(exchange, 404, "{\"error_code\":404}")));

    assertThat(get(endpoint, "/connectors").statusCode()).isEqualTo(202);
    assertThat(
            send(
                    endpoint,
                    "/connectors/a/pause",
                    HttpRequest.newBuilder().PUT(HttpRequest.BodyPublishers.noBody()))
                .statusCode())
        .isEqualTo(202);
    HttpResponse<String> other = get(endpoint, "/connectorsX");

    assertThat(seen).containsExactly("GET /connectors", "PUT /connectors/a/pause");
    assertThat(other.statusCode()).isEqualTo(404);
    assertThat(other.body()).isEqualTo("{\"error_code\":404}");
  }

  @Test
  void aFailingSupplierIsA500AndTheEndpointKeepsServing() throws Exception {
    AtomicReference<Health> health = new AtomicReference<>();
    HttpEndpoint endpoint =
        start(
            HttpEndpoint.builder("test-http")
                .health(
                    () -> {
                      if (health.get() == null) {
                        throw new IllegalStateException("no state yet");
                      }
                      return health.get();
                    }));

    HttpResponse<String> failed = get(endpoint, "/health");
    health.set(Health.status(true, "RUNNING"));

    assertThat(failed.statusCode()).isEqualTo(500);
    assertThat(failed.body()).isEqualTo("internal error: java.lang.IllegalStateException\n");
    assertThat(get(endpoint, "/health").statusCode()).isEqualTo(200);
  }

  @Test
  void requestsRunOnOneDaemonThreadOfTheGivenName() throws Exception {
    AtomicReference<Thread> thread = new AtomicReference<>();
    HttpEndpoint endpoint =
        start(
            HttpEndpoint.builder("sluice-test-metrics")
                .metrics(
                    () -> {
                      thread.set(Thread.currentThread());
                      return "";
                    }));

    assertThat(get(endpoint, "/metrics").body()).isEmpty();

    assertThat(thread.get().getName()).isEqualTo("sluice-test-metrics");
    assertThat(thread.get().isDaemon()).isTrue();
  }

  @Test
  void portZeroPicksAFreePortAndCloseReleasesIt() throws Exception {
    HttpEndpoint endpoint = start(HttpEndpoint.builder("test-http").metrics(registry));
    int port = endpoint.port();
    assertThat(port).isPositive();
    assertThat(endpoint.url()).isEqualTo("http://127.0.0.1:" + port);

    endpoint.close();
    endpoint.close();

    assertThatThrownBy(() -> new Socket(HOST, port).close())
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("Connection refused");
  }

  @Test
  void aTakenPortFailsWithTheBindError() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      assertThatThrownBy(
              () ->
                  HttpEndpoint.builder("test-http")
                      .metrics(registry)
                      .start(HOST, taken.getLocalPort()))
          .isInstanceOf(BindException.class)
          .hasMessageContaining("Address already in use");
    }
  }

  @Test
  void urlsOfWildcardAndIpv6HostsCanBeConnectedTo() {
    assertThat(HttpEndpoint.urlHost("0.0.0.0")).isEqualTo("127.0.0.1");
    assertThat(HttpEndpoint.urlHost("::")).isEqualTo("127.0.0.1");
    assertThat(HttpEndpoint.urlHost("::1")).isEqualTo("[::1]");
    assertThat(HttpEndpoint.urlHost("localhost")).isEqualTo("localhost");
  }

  @Test
  void routePathsAreCheckedWhenAdded() {
    HttpEndpoint.Builder builder = HttpEndpoint.builder("test-http").metrics(registry);
    assertThatThrownBy(() -> builder.route("connectors", exchange -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "route path must look like /name or /name/name, without a trailing slash: connectors");
    assertThatThrownBy(() -> builder.route("/metrics", exchange -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("route path /metrics is already served");
  }

  @Test
  void answersEveryRequestOfAKeptAliveConnectionPromptly() throws Exception {
    HttpEndpoint endpoint =
        start(HttpEndpoint.builder("test-http").health(() -> Health.status(true, "UP")));
    HttpClient http11 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    HttpRequest request = HttpRequest.newBuilder(URI.create(endpoint.url() + "/health")).build();
    http11.send(request, HttpResponse.BodyHandlers.ofString()); // opens the connection

    // Without TCP_NODELAY each later response on the connection waited ~40 ms for the client's
    // delayed ACK; the median of ten shows it whatever one slow request does.
    long[] millis = new long[10];
    for (int i = 0; i < millis.length; i++) {
      long start = System.nanoTime();
      assertThat(http11.send(request, HttpResponse.BodyHandlers.ofString()).statusCode())
          .isEqualTo(200);
      millis[i] = (System.nanoTime() - start) / 1_000_000;
    }
    Arrays.sort(millis);
    assertThat(millis[millis.length / 2])
        .as("median ms of %s", Arrays.toString(millis))
        .isLessThan(20);
  }

  private HttpEndpoint start(HttpEndpoint.Builder builder) throws IOException {
    HttpEndpoint endpoint = builder.start(HOST, 0);
    started.add(endpoint);
    return endpoint;
  }

  private HttpResponse<String> get(HttpEndpoint endpoint, String path)
      throws IOException, InterruptedException {
    return send(endpoint, path, HttpRequest.newBuilder());
  }

  private HttpResponse<String> send(HttpEndpoint endpoint, String path, HttpRequest.Builder request)
      throws IOException, InterruptedException {
    return http.send(
        request.uri(URI.create(endpoint.url() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
