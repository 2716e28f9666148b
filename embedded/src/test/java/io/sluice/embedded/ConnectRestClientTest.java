package io.sluice.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.sluice.embedded.ConnectRestClient.ConnectRestException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How the client treats a worker that turns requests down while its group rebalances. */
class ConnectRestClientTest {
  private static final String CONFLICT =
      "Cannot complete request because of a conflicting operation (e.g. worker rebalance)";
  private static final String REBALANCE_EXPECTED =
      "Request cannot be completed because a rebalance is expected";

  private final AtomicInteger requests = new AtomicInteger();
  private final Deque<Answer> answers = new ArrayDeque<>();
  private HttpServer server;

  private record Answer(int status, String body) {}

  private ConnectRestClient client(Duration rebalanceWait, Answer... script) throws IOException {
    answers.addAll(List.of(script));
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          requests.incrementAndGet();
          Answer answer = answers.size() > 1 ? answers.poll() : answers.peek();
          byte[] body = answer.body().getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(answer.status(), body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    return new ConnectRestClient(
        "http://127.0.0.1:" + server.getAddress().getPort(), rebalanceWait);
  }

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  private static Answer error(int status, String message) {
    return new Answer(status, "{\"error_code\":" + status + ",\"message\":\"" + message + "\"}");
  }

  @Test
  void aRequestTurnedDownForARebalanceIsSentAgain() throws IOException {
    ConnectRestClient client =
        client(
            Duration.ofSeconds(10),
            error(409, CONFLICT),
            error(500, REBALANCE_EXPECTED),
            new Answer(200, "{\"name\":\"x\",\"tasks.max\":\"1\"}"));
    assertThat(client.connectorConfig("x")).isEqualTo(Map.of("name", "x", "tasks.max", "1"));
    assertThat(requests).hasValue(3);
  }

  @Test
  void anyOtherErrorIsThrownAtOnce() throws IOException {
    ConnectRestClient client =
        client(Duration.ofSeconds(10), error(500, "Failed to find any class that implements X"));
    assertThatThrownBy(() -> client.connectorConfig("x"))
        .isInstanceOfSatisfying(
            ConnectRestException.class,
            e -> {
              assertThat(e.status()).isEqualTo(500);
              assertThat(e.rebalancing()).isFalse();
            });
    assertThat(requests).hasValue(1);
  }

  @Test
  void aWorkerStillRebalancingAfterTheWaitGetsItsAnswerThrown() throws IOException {
    // Long enough beside the 250 ms pause for a second request even when the first one is slow
    // (a loaded machine, the HTTP client's first connection).
    ConnectRestClient client = client(Duration.ofSeconds(2), error(409, CONFLICT));
    assertThatThrownBy(() -> client.putConnector("x", Map.of("tasks.max", "1")))
        .isInstanceOfSatisfying(
            ConnectRestException.class,
            e -> {
              assertThat(e.status()).isEqualTo(409);
              assertThat(e.rebalancing()).isTrue();
            });
    assertThat(requests.get()).isGreaterThan(1);
  }
}
