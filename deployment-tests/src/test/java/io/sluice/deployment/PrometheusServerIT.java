package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.embedded.FreePort;
import io.sluice.observe.HttpEndpoint;
import io.sluice.stack.PrometheusConfig;
import io.sluice.stack.PrometheusServer;
import io.sluice.stack.StackStartException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The real {@code prometheus} binary (Debian's; scripts/setup --prometheus) as a child process. */
class PrometheusServerIT {
  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration SCRAPE = Duration.ofMillis(500);

  @TempDir Path home;
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(io.micrometer.prometheusmetrics.PrometheusConfig.DEFAULT);
  private HttpEndpoint metrics;

  @BeforeEach
  void startMetricsEndpoint() throws Exception {
    metrics = HttpEndpoint.builder("test-metrics").metrics(registry).start("127.0.0.1", 0);
  }

  @AfterEach
  void stopMetricsEndpoint() {
    metrics.close();
  }

  @Test
  void scrapesTheEndpointAnswersQueriesAndStopsWithoutALeftoverProcess() throws Exception {
    Counter counter = Counter.builder("sluice_test_events").tag("kind", "it").register(registry);
    counter.increment(3);
    PrometheusConfig config = config(metrics.url() + "/metrics");
    ProcessHandle process;

    try (PrometheusServer server = start(config, home)) {
      process = ProcessHandle.of(server.pid()).orElseThrow();
      server.awaitTargetsUp(START);
      assertThat(server.targetsNotUp()).isEmpty();

      PrometheusApi api = new PrometheusApi(server.url());
      await("sluice_test_events_total scraped")
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () -> {
                PrometheusApi.Answer answer =
                    api.query("sluice_test_events_total{job=\"test\",kind=\"it\"}");
                assertThat(answer.success()).as(answer.error()).isTrue();
                JsonNode result = answer.data().path("result");
                assertThat(result).hasSize(1);
                assertThat(result.get(0).path("value").get(1).asDouble()).isEqualTo(3.0);
              });
      assertThat(home.resolve("prometheus.yml")).content().contains("\"test\"");
      assertThat(home.resolve("data")).isDirectory();
      assertThat(home.resolve("prometheus.log")).content().contains("Server is ready");
    }

    assertThat(process.isAlive()).isFalse();
  }

  @Test
  void waitingForATargetThatNeverAnswersNamesIt() {
    String dead = "http://127.0.0.1:" + FreePort.pick() + "/metrics";

    try (PrometheusServer server = start(config(metrics.url() + "/metrics", dead), home)) {
      // Prometheus hands new static targets to its scrapers after up to 5 s: wait past that.
      assertThatThrownBy(() -> server.awaitTargetsUp(Duration.ofSeconds(12)))
          .isInstanceOf(StackStartException.class)
          .hasMessageContaining("Prometheus did not answer in time (every scrape target up")
          .hasMessageContaining("not up: " + dead + " (down: ")
          .hasMessageContaining("connection refused");
    }
  }

  @Test
  void aServerThatCannotBindFailsWithTheEndOfItsLogAndLeavesNoProcess() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Path logFile = home.resolve("prometheus.log");
      Path binary = PrometheusServer.locate(null);
      PrometheusConfig config = config(metrics.url() + "/metrics");

      assertThatThrownBy(
              () -> PrometheusServer.start(binary, home, taken.getLocalPort(), config, START))
          .isInstanceOf(StackStartException.class)
          .hasMessageContaining("prometheus exited with code")
          .hasMessageContaining("the end of " + logFile)
          .hasMessageContaining("address already in use");
      long pid = Long.parseLong(Files.readString(home.resolve("prometheus.pid")).trim());
      assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive)).isNotEqualTo(Optional.of(true));
    }
  }

  @Test
  void aServerLeftRunningOnTheSameFolderIsStoppedByTheNextStart() {
    PrometheusConfig config = config(metrics.url() + "/metrics");
    try (PrometheusServer leftover = start(config, home)) {
      ProcessHandle old = ProcessHandle.of(leftover.pid()).orElseThrow();

      try (PrometheusServer next = start(config, home)) {
        assertThat(old.isAlive()).isFalse();
        assertThat(next.pid()).isNotEqualTo(old.pid());
        next.awaitTargetsUp(START);
      }
    }
  }

  private static PrometheusConfig config(String... urls) {
    return PrometheusConfig.of(SCRAPE, Map.of("test", List.of(urls)));
  }

  private static PrometheusServer start(PrometheusConfig config, Path home) {
    return PrometheusServer.start(
        PrometheusServer.locate(null), home, FreePort.pick(), config, START);
  }
}
