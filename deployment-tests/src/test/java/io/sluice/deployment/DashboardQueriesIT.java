package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.cli.SluiceCli;
import io.sluice.contract.ReadyFile;
import io.sluice.stack.EmbeddedStack;
import io.sluice.stack.PrometheusConfig;
import io.sluice.stack.StackLayout;
import io.sluice.stack.StackOptions;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/**
 * The Grafana dashboards against a real Prometheus: one embedded stack with Debian's prometheus
 * scraping it ({@code sluice up --prometheus}), the poison-dlq scenario run on that stack through
 * {@code sluice verify --ready-file}, then every panel and variable query of grafana/dashboards
 * evaluated through Prometheus' HTTP API over the whole run.
 *
 * <p>Panel queries go through {@code /api/v1/query_range} from the stack's start to now with a 1 s
 * step, as a Grafana graph of that time range would ask them: a rate over a window in which nothing
 * happened is 0 or NaN at that instant, so an instant query at the end would call a panel empty
 * that shows the scenario plainly. A query passes when it succeeds and some series has a non-NaN
 * value at some step. The quarantine rate and the poison ratio must show the poison record over the
 * run, and the poison ratio also at the end, once the pipeline idles: it is the share of a rolling
 * window, which a ratio of per-second rates (0/0 when idle) was not.
 */
class DashboardQueriesIT {
  private static final Logger log = LoggerFactory.getLogger(DashboardQueriesIT.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration SCRAPE = PrometheusConfig.DEFAULT_SCRAPE_INTERVAL;
  private static final Duration STEP = Duration.ofSeconds(1);
  private static final String DLQ_DASHBOARD = "sluice-dlq-overview.json";
  private static final String QUARANTINE_PANEL = "Quarantine rate by error code and topic";
  private static final String BY_STAGE_PANEL = "DLQ records by stage and code";
  private static final String POISON_RATIO_PANEL = "Poison ratio";

  @TempDir Path tmp;

  @Test
  void everyDashboardQueryHasDataAndTheQuarantinePanelsShowThePoisonRecord() throws Exception {
    // Read first: a dashboard this test cannot evaluate fails before a minute of start-up.
    GrafanaQueries dashboards =
        GrafanaQueries.load(RepoFiles.root().resolve("grafana").resolve("dashboards"));
    Path readyFile = tmp.resolve("ready.json");
    StackOptions options =
        StackOptions.in(tmp.resolve("data")).withReadyFile(readyFile).withPrometheus(null);
    Instant stackStart = Instant.now();

    try (EmbeddedStack stack = new EmbeddedStack(options).start()) {
      String prometheusUrl = stack.prometheusUrl().orElseThrow();
      assertThat(new ReadyFile(readyFile).read())
          .containsEntry(ReadyFile.PROMETHEUS_URL, prometheusUrl);
      assertThat(prometheusChildren()).hasSize(1);

      verifyPoisonDlqOn(readyFile);

      PrometheusApi prometheus = new PrometheusApi(prometheusUrl);
      awaitEveryTargetScrapedAfter(prometheus, Instant.now().plus(SCRAPE.multipliedBy(2)));
      Instant end = Instant.now();
      Duration range = Duration.between(stackStart, end);

      List<String> failures = new ArrayList<>();
      Map<GrafanaQueries.Query, JsonNode> results = new LinkedHashMap<>();
      for (GrafanaQueries.Query query : dashboards.all()) {
        String expr = dashboards.substitute(query.expr(), SCRAPE, STEP, range);
        String problem;
        if (query.variable()) {
          problem = variableProblem(prometheus, expr, stackStart, end);
        } else {
          PrometheusApi.Answer answer = prometheus.queryRange(expr, stackStart, end, STEP);
          problem = answer.success() ? seriesProblem(answer.data()) : answer.error();
          if (answer.success()) {
            results.put(query, answer.data().path("result"));
          }
        }
        log.info("{} -> {}", query, problem == null ? "data" : problem);
        if (problem != null) {
          failures.add(query + "\n    sent as: " + expr + "\n    " + problem);
        }
      }

      assertThat(dashboards.all()).hasSizeGreaterThan(20);
      assertThat(failures)
          .as(
              "dashboard queries with no data over the run (%d of %d)",
              failures.size(), dashboards.all().size())
          .isEmpty();
      assertPanelsShowThePoison(dashboards, results);
      assertThePoisonRatioStillShowsThePoisonAfterTheScenario(dashboards, prometheus, range);
    }
    assertThat(prometheusChildren()).as("prometheus processes left after close").isEmpty();
  }

  private static List<ProcessHandle> prometheusChildren() {
    return ProcessHandle.current()
        .children()
        .filter(ProcessHandle::isAlive)
        .filter(p -> p.info().command().map(c -> c.endsWith("/prometheus")).orElse(false))
        .toList();
  }

  /** {@code sluice verify --failure poison-dlq} against the running stack, as a user runs it. */
  private void verifyPoisonDlqOn(Path readyFile) throws Exception {
    Path reports = tmp.resolve("reports");
    StringWriter out = new StringWriter();
    CommandLine cli = SluiceCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(out, true));

    int exit =
        cli.execute(
            "verify",
            "--failure",
            "poison-dlq",
            "--seed",
            "7",
            "--baseline-rows",
            "10",
            "--ready-file",
            readyFile.toString(),
            "--report-dir",
            reports.toString());

    assertThat(exit).as("sluice verify exit code; output:%n%s", out).isZero();
    List<Path> files;
    try (Stream<Path> list = Files.list(reports)) {
      files = list.filter(p -> p.toString().endsWith(".json")).toList();
    }
    assertThat(files).as("one report (output:%n%s)", out).hasSize(1);
    JsonNode report = JSON.readTree(files.get(0).toFile());
    assertThat(report.path("summary").path("passed").asBoolean()).as(out.toString()).isTrue();
    assertThat(report.path("summary").path("dlq_record_count").asLong()).isEqualTo(1);
    assertThat(report.path("scenario").toString()).contains("broker.cdc_lab.orders");
  }

  /** Waits until Prometheus holds a sample of every target taken at {@code after} or later. */
  private static void awaitEveryTargetScrapedAfter(PrometheusApi prometheus, Instant after) {
    await("every target scraped after " + after)
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(250))
        .untilAsserted(
            () -> {
              PrometheusApi.Answer answer = prometheus.query("min(timestamp(up))");
              assertThat(answer.success()).as(answer.error()).isTrue();
              JsonNode result = answer.data().path("result");
              assertThat(result).hasSize(1);
              double oldestLatest = result.get(0).path("value").get(1).asDouble();
              assertThat(oldestLatest).isGreaterThanOrEqualTo(after.toEpochMilli() / 1000.0);
            });
  }

  /** Null when some series of the matrix has a non-NaN value, else what is missing. */
  private static String seriesProblem(JsonNode data) {
    JsonNode series = data.path("result");
    if (series.isEmpty()) {
      return "no series";
    }
    for (JsonNode s : series) {
      for (JsonNode point : s.path("values")) {
        if (!point.get(1).asText().equals("NaN")) {
          return null;
        }
      }
    }
    return "only NaN values in " + series.size() + " series";
  }

  /** A sample value as the API writes it: a decimal, {@code NaN}, {@code +Inf} or {@code -Inf}. */
  private static double sampleValue(String text) {
    return switch (text) {
      case "+Inf" -> Double.POSITIVE_INFINITY;
      case "-Inf" -> Double.NEGATIVE_INFINITY;
      default -> Double.parseDouble(text);
    };
  }

  private static String variableProblem(
      PrometheusApi prometheus, String query, Instant start, Instant end) {
    GrafanaQueries.VariableQuery variable = GrafanaQueries.VariableQuery.parse(query);
    if (variable.expr() != null) {
      PrometheusApi.Answer answer = prometheus.queryRange(variable.expr(), start, end, STEP);
      return answer.success() ? seriesProblem(answer.data()) : answer.error();
    }
    PrometheusApi.Answer answer =
        prometheus.labelValues(variable.label(), variable.match(), start, end);
    if (!answer.success()) {
      return answer.error();
    }
    return answer.data().isEmpty() ? "no values of label " + variable.label() : null;
  }

  /**
   * The peak over the run of the one query of {@code title} in the DLQ overview, over the series of
   * the main topic whose labels include {@code labels}; NaN when no such series has a value.
   */
  private static double peakOnMainTopic(
      GrafanaQueries dashboards,
      Map<GrafanaQueries.Query, JsonNode> results,
      String title,
      Map<String, String> labels) {
    List<GrafanaQueries.Query> panel = dashboards.panel(DLQ_DASHBOARD, title);
    assertThat(panel).as("panel '%s' in %s", title, DLQ_DASHBOARD).hasSize(1);
    JsonNode series = results.get(panel.get(0));
    assertThat(series).as("series of %s", panel.get(0)).isNotNull().isNotEmpty();
    double peak = Double.NaN;
    for (JsonNode s : series) {
      JsonNode metric = s.path("metric");
      boolean matches = metric.path("topic").asText().equals(StackLayout.DEFAULT.mainTopic());
      for (Map.Entry<String, String> label : labels.entrySet()) {
        matches &= metric.path(label.getKey()).asText().equals(label.getValue());
      }
      if (matches) {
        for (JsonNode point : s.path("values")) {
          double value = sampleValue(point.get(1).asText());
          if (!Double.isNaN(value)) {
            peak = Double.isNaN(peak) ? value : Math.max(peak, value);
          }
        }
      }
    }
    log.info(
        "peak of {} on {} {}: {}", panel.get(0), StackLayout.DEFAULT.mainTopic(), labels, peak);
    return peak;
  }

  /**
   * What the Poison ratio shows once the scenario is over and the pipeline idles, as the panel's
   * last value and legend do: an instant query now, with the run as the dashboard's range.
   */
  private static void assertThePoisonRatioStillShowsThePoisonAfterTheScenario(
      GrafanaQueries dashboards, PrometheusApi prometheus, Duration range) {
    List<GrafanaQueries.Query> panel = dashboards.panel(DLQ_DASHBOARD, POISON_RATIO_PANEL);
    assertThat(panel).as("panel '%s' in %s", POISON_RATIO_PANEL, DLQ_DASHBOARD).hasSize(1);
    String expr = dashboards.substitute(panel.get(0).expr(), SCRAPE, STEP, range);

    PrometheusApi.Answer now = prometheus.query(expr);

    assertThat(now.success()).as("%s: %s", expr, now.error()).isTrue();
    JsonNode result = now.data().path("result");
    log.info("{} now, after the scenario: {}", panel.get(0), result);
    List<Double> mainTopic = new ArrayList<>();
    for (JsonNode s : result) {
      if (s.path("metric").path("topic").asText().equals(StackLayout.DEFAULT.mainTopic())) {
        mainTopic.add(sampleValue(s.path("value").get(1).asText()));
      }
    }
    assertThat(mainTopic)
        .as(
            "'%s' now, after the scenario, for topic=%s: %s sent as %s",
            POISON_RATIO_PANEL, StackLayout.DEFAULT.mainTopic(), result, expr)
        .singleElement()
        .satisfies(v -> assertThat(v).isGreaterThan(0).isLessThanOrEqualTo(1));
  }

  private static void assertPanelsShowThePoison(
      GrafanaQueries dashboards, Map<GrafanaQueries.Query, JsonNode> results) {
    assertThat(
            peakOnMainTopic(
                dashboards,
                results,
                QUARANTINE_PANEL,
                Map.of("error_code", "NOT_AVRO_WIRE_FORMAT")))
        .as(
            "peak of '%s' for error_code=NOT_AVRO_WIRE_FORMAT, topic=%s; series: %s",
            QUARANTINE_PANEL,
            StackLayout.DEFAULT.mainTopic(),
            results.get(dashboards.panel(DLQ_DASHBOARD, QUARANTINE_PANEL).get(0)))
        .isGreaterThan(0);
    // The monitor's count of the DLQ record, split by the stage that quarantined it.
    assertThat(
            peakOnMainTopic(
                dashboards,
                results,
                BY_STAGE_PANEL,
                Map.of("stage", "router", "error_code", "NOT_AVRO_WIRE_FORMAT")))
        .as(
            "peak of '%s' for stage=router, error_code=NOT_AVRO_WIRE_FORMAT, topic=%s; series: %s",
            BY_STAGE_PANEL,
            StackLayout.DEFAULT.mainTopic(),
            results.get(dashboards.panel(DLQ_DASHBOARD, BY_STAGE_PANEL).get(0)))
        .isEqualTo(1);
    // One poison record among the scenario's rows: a share above 0 and at most 1.
    assertThat(peakOnMainTopic(dashboards, results, POISON_RATIO_PANEL, Map.of()))
        .as(
            "peak of '%s' for topic=%s; series: %s",
            POISON_RATIO_PANEL,
            StackLayout.DEFAULT.mainTopic(),
            results.get(dashboards.panel(DLQ_DASHBOARD, POISON_RATIO_PANEL).get(0)))
        .isGreaterThan(0)
        .isLessThanOrEqualTo(1);
  }
}
