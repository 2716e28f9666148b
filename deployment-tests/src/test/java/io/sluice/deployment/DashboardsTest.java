package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.capture.metrics.CaptureMetrics;
import io.sluice.connect.upsert.metrics.SinkMeters;
import io.sluice.connect.upsert.metrics.TableFileCounts;
import io.sluice.connect.upsert.metrics.TableMeters;
import io.sluice.contract.TopicNames;
import io.sluice.router.metrics.RouterMetrics;
import io.sluice.router.validate.ErrorCode;
import io.sluice.tools.monitor.DlqSnapshot;
import io.sluice.tools.monitor.GroupTopic;
import io.sluice.tools.monitor.IcebergMetrics;
import io.sluice.tools.monitor.MonitorMetrics;
import io.sluice.tools.monitor.TableReading;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Grafana dashboards under grafana/dashboards: valid JSON, stable and unique uids, every panel
 * queries Prometheus through the {@code datasource} variable, and every metric a query names is in
 * grafana/metrics-allowlist.txt, whose sluice_* block is what the meter classes really render.
 */
class DashboardsTest {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final Path GRAFANA = RepoFiles.root().resolve("grafana");
  private static final Path ALLOWLIST = GRAFANA.resolve("metrics-allowlist.txt");

  private static Map<Path, JsonNode> dashboards;

  @BeforeAll
  static void readDashboards() throws IOException {
    dashboards = new LinkedHashMap<>();
    try (Stream<Path> files = Files.list(GRAFANA.resolve("dashboards"))) {
      for (Path file : files.filter(f -> f.toString().endsWith(".json")).sorted().toList()) {
        dashboards.put(file.getFileName(), JSON.readTree(file.toFile()));
      }
    }
  }

  @Test
  void theTwoDashboardsExistWithStableUniqueUids() {
    Map<String, String> uidToTitle = new HashMap<>();
    dashboards.forEach(
        (file, d) -> {
          String uid = d.path("uid").asText();
          assertThat(uid).as("uid of %s", file).matches("[a-z0-9-]{1,40}");
          assertThat(uidToTitle.put(uid, d.path("title").asText()))
              .as("uid %s of %s is used twice", uid, file)
              .isNull();
        });
    assertThat(uidToTitle)
        .containsEntry("sluice-dlq-overview", "Sluice / DLQ overview")
        .containsEntry("sluice-pipeline", "Sluice / Pipeline");
  }

  @Test
  void everyPanelHasATargetOnTheDatasourceVariable() {
    dashboards.forEach(
        (file, d) -> {
          List<JsonNode> panels = panels(d);
          assertThat(panels).as("panels of %s", file).isNotEmpty();
          Set<Integer> ids = new TreeSet<>();
          for (JsonNode panel : panels) {
            String name = file + " panel '" + panel.path("title").asText() + "'";
            assertThat(ids.add(panel.path("id").asInt())).as("%s: id used twice", name).isTrue();
            assertThat(panel.path("datasource").path("uid").asText())
                .as("%s datasource", name)
                .isEqualTo("${datasource}");
            assertThat(panel.path("targets")).as("%s targets", name).isNotEmpty();
            for (JsonNode target : panel.path("targets")) {
              assertThat(target.path("expr").asText()).as("%s expr", name).isNotBlank();
              assertThat(target.path("datasource").path("uid").asText())
                  .as("%s target datasource", name)
                  .isEqualTo("${datasource}");
            }
          }
        });
  }

  @Test
  void theDatasourceVariableDefaultsToTheProvisionedPrometheus() throws IOException {
    JsonNode provisioned =
        YAML.readTree(GRAFANA.resolve("provisioning/datasources/prometheus.yml").toFile())
            .path("datasources")
            .get(0);
    assertThat(provisioned.path("type").asText()).isEqualTo("prometheus");
    dashboards.forEach(
        (file, d) -> {
          JsonNode variable = variable(d, "datasource");
          assertThat(variable).as("datasource variable of %s", file).isNotNull();
          assertThat(variable.path("type").asText()).isEqualTo("datasource");
          assertThat(variable.path("query").asText()).isEqualTo("prometheus");
          assertThat(variable.path("current").path("value").asText())
              .as("default datasource of %s", file)
              .isEqualTo(provisioned.path("uid").asText());
        });
  }

  @Test
  void everyQueryNamesOnlyMetricsTheStackExposes() throws IOException {
    Set<String> allowed = allowList();
    List<String> unknown = new ArrayList<>();
    int queries = 0;
    for (Map.Entry<Path, JsonNode> e : dashboards.entrySet()) {
      for (JsonNode panel : panels(e.getValue())) {
        for (JsonNode target : panel.path("targets")) {
          queries++;
          for (String name : PromQlNames.ofExpression(target.path("expr").asText())) {
            if (!allowed.contains(name)) {
              unknown.add(e.getKey() + " '" + panel.path("title").asText() + "': " + name);
            }
          }
        }
      }
      for (JsonNode variable : e.getValue().path("templating").path("list")) {
        if (variable.path("type").asText().equals("query")) {
          JsonNode query = variable.path("query");
          String text = query.isObject() ? query.path("query").asText() : query.asText();
          queries++;
          for (String name : PromQlNames.ofVariableQuery(text)) {
            if (!allowed.contains(name)) {
              unknown.add(
                  e.getKey() + " variable $" + variable.path("name").asText() + ": " + name);
            }
          }
        }
      }
    }
    assertThat(queries).isGreaterThan(20);
    assertThat(unknown).as("metrics not in %s", ALLOWLIST).isEmpty();
  }

  @Test
  void noQuerySelectsATopicByItsSuffix() {
    // The router's suffixes are configurable (dlq.topic.suffix, ...): the monitor's DLQ series
    // carry the input topic as `topic`, like the router's, so no query needs to know them.
    Pattern suffix = Pattern.compile("\\.(clean|dlq|repairs)\\b");
    List<String> found = new ArrayList<>();
    dashboards.forEach(
        (file, d) -> {
          for (JsonNode panel : panels(d)) {
            for (JsonNode target : panel.path("targets")) {
              String expr = target.path("expr").asText();
              if (suffix.matcher(expr).find()) {
                found.add(file + " '" + panel.path("title").asText() + "': " + expr);
              }
            }
          }
          for (JsonNode variable : d.path("templating").path("list")) {
            String query = variable.path("query").toString() + variable.path("regex").asText();
            if (suffix.matcher(query).find()) {
              found.add(file + " variable $" + variable.path("name").asText() + ": " + query);
            }
          }
        });
    assertThat(found).as("queries naming a topic suffix").isEmpty();
  }

  @Test
  void theAllowListsSluiceBlockIsWhatTheMeterClassesRender() throws IOException {
    Set<String> listed = new TreeSet<>();
    for (String name : allowList()) {
      if (name.startsWith("sluice_")) {
        listed.add(name);
      }
    }
    Set<String> rendered = renderedSluiceNames();
    assertThat(listed)
        .as(
            "the sluice_* lines of %s must be exactly the names the meters render; rendered now:%n%s",
            ALLOWLIST, String.join("\n", rendered))
        .isEqualTo(rendered);
  }

  @Test
  void theProvisionedDashboardFolderIsTheOneComposeMounts() throws IOException {
    String path =
        YAML.readTree(GRAFANA.resolve("provisioning/dashboards/sluice.yml").toFile())
            .path("providers")
            .get(0)
            .path("options")
            .path("path")
            .asText();
    JsonNode grafana =
        YAML.readTree(RepoFiles.root().resolve("compose/docker-compose.yml").toFile())
            .path("services")
            .path("grafana");
    List<String> volumes = new ArrayList<>();
    grafana.path("volumes").forEach(v -> volumes.add(v.asText()));
    assertThat(volumes)
        .contains("../grafana/dashboards:" + path + ":ro")
        .contains("../grafana/provisioning:/etc/grafana/provisioning:ro");
  }

  /**
   * Every metric name the router's, the capture's, the upsert sink's and the monitor's meters (its
   * Kafka and its Iceberg part) render.
   */
  private static Set<String> renderedSluiceNames() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    RouterMetrics router = new RouterMetrics(registry);
    router.validated("broker.cdc_lab.orders", RouterMetrics.Result.VALID);
    router.quarantined("broker.cdc_lab.orders", ErrorCode.NOT_AVRO_WIRE_FORMAT);
    router.processingLatency(1_000_000);
    router.validatedAhead(new AtomicLong(1), AtomicLong::get);
    new CaptureMetrics(registry, Clock.systemUTC()).published(changeEvent());
    // A commit registers the last-commit gauge, which exists only from the first commit on; the
    // table's file gauges and the last-maintenance gauges exist from its first maintenance pass.
    TableMeters sink =
        new SinkMeters(registry).table("sluice-upsert-sink", "cdc_lab.orders_current");
    sink.committed(List.of(), List.of(), 1_000_000);
    sink.maintenance().inspected(new TableFileCounts(1, 1, 0, 1, 1));
    sink.maintenance().ran(1_000_000);
    // Lag rows and the last-refresh gauge exist from the monitor's first refresh on.
    MonitorMetrics monitor = new MonitorMetrics(registry, Clock.systemUTC(), TopicNames.DEFAULTS);
    monitor.dlqTopic("broker.cdc_lab.orders.dlq", DlqSnapshot.EMPTY);
    monitor.lag(
        Map.of(new GroupTopic("connect-sluice-upsert-sink", "broker.cdc_lab.orders.clean"), 0L));
    monitor.refreshed(Instant.now());
    // A table's meters exist from its first reading, the last-commit gauge from its first commit,
    // the load-failure counter from its first reading or failure, the refresh gauge from the first
    // Iceberg refresh.
    IcebergMetrics iceberg = new IcebergMetrics(registry);
    iceberg
        .table("cdc_lab.orders_changelog")
        .publish(new TableReading(System.currentTimeMillis(), 1, 1, 1, 0, 0, Map.of("append", 1L)));
    iceberg.refreshed(Instant.now());
    Set<String> names = new TreeSet<>();
    for (String line : registry.scrape().split("\n")) {
      if (line.startsWith("sluice_")) {
        names.add(line.split("[{ ]", 2)[0]);
      }
    }
    return names;
  }

  private static SourceRecord changeEvent() {
    Schema source =
        SchemaBuilder.struct()
            .field("db", Schema.STRING_SCHEMA)
            .field("table", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.INT64_SCHEMA)
            .build();
    Schema envelope =
        SchemaBuilder.struct().field("op", Schema.STRING_SCHEMA).field("source", source).build();
    Struct value =
        new Struct(envelope)
            .put("op", "c")
            .put(
                "source",
                new Struct(source)
                    .put("db", "cdc_lab")
                    .put("table", "orders")
                    .put("ts_ms", System.currentTimeMillis()));
    return new SourceRecord(
        Map.of("server", "broker"),
        Map.of("file", "mysql-bin.000003", "pos", 4L, "gtids", "abc:1-7"),
        "broker.cdc_lab.orders",
        envelope,
        value);
  }

  private static Set<String> allowList() throws IOException {
    Set<String> names = new TreeSet<>();
    for (String line : Files.readAllLines(ALLOWLIST)) {
      String name = line.strip();
      if (!name.isEmpty() && !name.startsWith("#")) {
        assertThat(name).as("allow-list line").matches("[a-zA-Z_:][a-zA-Z0-9_:]*");
        names.add(name);
      }
    }
    return names;
  }

  /** Panels, rows excluded, including those inside collapsed rows. */
  private static List<JsonNode> panels(JsonNode dashboard) {
    List<JsonNode> panels = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      if (panel.path("type").asText().equals("row")) {
        panel.path("panels").forEach(panels::add);
      } else {
        panels.add(panel);
      }
    }
    return panels;
  }

  private static JsonNode variable(JsonNode dashboard, String name) {
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      if (variable.path("name").asText().equals(name)) {
        return variable;
      }
    }
    return null;
  }
}
