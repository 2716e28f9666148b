package io.sluice.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusConfigTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Test
  void rendersOneScrapeJobPerComponentWithItsPathAndTargets() throws Exception {
    Map<String, List<String>> targets = new LinkedHashMap<>();
    targets.put("sluice-router", List.of("http://127.0.0.1:41236/metrics"));
    targets.put(
        "sluice-capture",
        List.of("http://127.0.0.1:41238/admin/metrics", "http://localhost:41239/admin/metrics"));

    JsonNode yaml = YAML.readTree(PrometheusConfig.of(Duration.ofSeconds(1), targets).toYaml());

    assertThat(yaml.path("global").path("scrape_interval").asText()).isEqualTo("1s");
    assertThat(yaml.path("global").path("scrape_timeout").asText()).isEqualTo("1s");
    assertThat(yaml.path("global").path("evaluation_interval").asText()).isEqualTo("1s");
    JsonNode jobs = yaml.path("scrape_configs");
    assertThat(jobs).hasSize(2);
    assertThat(jobs.get(0).path("job_name").asText()).isEqualTo("sluice-router");
    assertThat(jobs.get(0).path("scheme").asText()).isEqualTo("http");
    assertThat(jobs.get(0).path("metrics_path").asText()).isEqualTo("/metrics");
    assertThat(jobs.get(0).path("static_configs").get(0).path("targets").get(0).asText())
        .isEqualTo("127.0.0.1:41236");
    assertThat(jobs.get(1).path("metrics_path").asText()).isEqualTo("/admin/metrics");
    assertThat(jobs.get(1).path("static_configs").get(0).path("targets"))
        .extracting(JsonNode::asText)
        .containsExactly("127.0.0.1:41238", "localhost:41239");
  }

  @Test
  void namesThatLookLikeYamlSyntaxStayPlainStrings() throws Exception {
    String job = "job: \"quoted\" # not a comment\n- [list] {map} \\ é";

    JsonNode yaml =
        YAML.readTree(
            PrometheusConfig.of(Duration.ofSeconds(1), Map.of(job, List.of("https://example")))
                .toYaml());

    JsonNode only = yaml.path("scrape_configs").get(0);
    assertThat(only.path("job_name").asText()).isEqualTo(job);
    assertThat(only.path("scheme").asText()).isEqualTo("https");
    assertThat(only.path("metrics_path").asText()).isEqualTo("/metrics");
    assertThat(only.path("static_configs").get(0).path("targets").get(0).asText())
        .isEqualTo("example:443");
  }

  @Test
  void theScrapeTimeoutFollowsTheIntervalUpToPrometheusDefault() throws Exception {
    Map<String, List<String>> targets = Map.of("a", List.of("http://127.0.0.1:1/metrics"));

    JsonNode fast = YAML.readTree(PrometheusConfig.of(Duration.ofMillis(500), targets).toYaml());
    JsonNode slow = YAML.readTree(PrometheusConfig.of(Duration.ofMinutes(1), targets).toYaml());

    assertThat(fast.path("global").path("scrape_interval").asText()).isEqualTo("500ms");
    assertThat(fast.path("global").path("scrape_timeout").asText()).isEqualTo("500ms");
    assertThat(slow.path("global").path("scrape_interval").asText()).isEqualTo("60s");
    assertThat(slow.path("global").path("scrape_timeout").asText()).isEqualTo("10s");
  }

  @Test
  void scrapeUrlsAreWhatPrometheusReportsPerTarget() {
    PrometheusConfig config =
        PrometheusConfig.of(
            Duration.ofSeconds(1),
            Map.of("a", List.of("http://127.0.0.1:41236/metrics", "http://127.0.0.1:41237")));

    assertThat(config.scrapeUrls())
        .containsExactly("http://127.0.0.1:41236/metrics", "http://127.0.0.1:41237/metrics");
  }

  @Test
  void aTargetThatIsNotAPlainHttpUrlIsNamedWithItsJob() {
    Duration second = Duration.ofSeconds(1);
    assertThatThrownBy(
            () -> PrometheusConfig.of(second, Map.of("router", List.of("localhost:9400"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scrape job router: localhost:9400 is not an http(s) URL");
    assertThatThrownBy(
            () ->
                PrometheusConfig.of(
                    second, Map.of("router", List.of("http://127.0.0.1:9400/metrics?x=1"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "scrape job router: http://127.0.0.1:9400/metrics?x=1 has a query or fragment;"
                + " Prometheus scrapes a plain path");
    assertThatThrownBy(() -> PrometheusConfig.of(second, Map.of("router", List.of("http://a b"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("scrape job router: http://a b is not a URL");
    assertThatThrownBy(() -> PrometheusConfig.of(second, Map.of("router", List.of())))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scrape job router has no URL");
  }

  @Test
  void oneJobCannotMixMetricsPaths() {
    assertThatThrownBy(
            () ->
                PrometheusConfig.of(
                    Duration.ofSeconds(1),
                    Map.of("mixed", List.of("http://127.0.0.1:1/metrics", "http://127.0.0.1:2/m"))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "scrape job mixed: http://127.0.0.1:2/m differs from http://127.0.0.1:1/metrics in"
                + " scheme or path; give it a job of its own");
  }

  @Test
  void theIntervalMustBeWholePositiveMilliseconds() {
    Map<String, List<String>> targets = Map.of("a", List.of("http://127.0.0.1:1/metrics"));
    assertThatThrownBy(() -> PrometheusConfig.of(Duration.ZERO, targets))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("scrape interval must be a positive whole number of milliseconds, got PT0S");
    assertThatThrownBy(() -> PrometheusConfig.of(Duration.ofNanos(1_500_000), targets))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("got PT0.0015S");
  }
}
