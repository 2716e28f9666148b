package io.sluice.embedded.connect;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The shape of the sink configs. That their class names and keys are the plugins' own is checked
 * where the plugins are: connect-plugins' {@code DeploymentHelperNamesTest}.
 */
class ConnectorConfigsTest {
  private static final String REGEX = "broker\\.shop\\..+\\.clean";
  private static final Map<String, String> CATALOG =
      Map.of("name", "lake", "type", "jdbc", "uri", "jdbc:sqlite:/tmp/c.db", "warehouse", "/tmp/w");

  @Test
  void theUpsertSinkByRegexIsTheOneTopicSinkSubscribedToTheRegex() {
    Map<String, String> byRegex =
        ConnectorConfigs.upsertSinkByRegex(REGEX, "http://registry", CATALOG, 500);
    Map<String, String> expected =
        new HashMap<>(ConnectorConfigs.upsertSink("t", "http://registry", CATALOG, 500));
    expected.remove("topics");
    expected.put("topics.regex", REGEX);
    assertThat(byRegex).isEqualTo(expected);
  }

  @Test
  void theChangelogSinkByRegexIsTheOneTopicSinkSubscribedToTheRegex() {
    Map<String, String> byRegex =
        ConnectorConfigs.changelogSinkByRegex(
            REGEX, "http://registry", CATALOG, "kafka:9092", "control", 1_000, "shop.dlq");
    Map<String, String> expected =
        new HashMap<>(
            ConnectorConfigs.changelogSink(
                "broker.shop.orders.clean",
                "http://registry",
                CATALOG,
                "kafka:9092",
                "control",
                1_000,
                "shop.dlq"));
    assertThat(expected).containsEntry("errors.deadletterqueue.topic.name", "shop.dlq");
    expected.remove("topics");
    expected.put("topics.regex", REGEX);
    assertThat(byRegex).isEqualTo(expected);
  }

  @Test
  void theChangelogGuardComesLastAndJudgesByTheSinksOwnCatalogRoutingAndEvolution() {
    Map<String, String> sink =
        ConnectorConfigs.changelogSink(
            "t", "http://registry", CATALOG, "kafka:9092", "control", 1_000, "t.dlq");

    assertThat(sink.get("transforms")).isEqualTo("tombstones,debezium,kafka,guard");
    assertThat(sink)
        .containsEntry("transforms.guard.type", "io.sluice.connect.guard.ChangelogGuard")
        .containsEntry("transforms.guard.route.field", sink.get("iceberg.tables.route-field"))
        .containsEntry(
            "transforms.guard.schema.evolution", sink.get("iceberg.tables.evolve-schema-enabled"));
    Map<String, String> sinkCatalog = new HashMap<>();
    Map<String, String> guardCatalog = new HashMap<>();
    sink.forEach(
        (k, v) -> {
          if (k.startsWith("iceberg.catalog") || k.startsWith("iceberg.hadoop.")) {
            sinkCatalog.put(k, v);
          } else if (k.startsWith("transforms.guard.iceberg.")) {
            guardCatalog.put(k.substring("transforms.guard.".length()), v);
          }
        });
    assertThat(sinkCatalog)
        .containsEntry("iceberg.catalog", "lake")
        .containsEntry("iceberg.hadoop.fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
    assertThat(guardCatalog).isEqualTo(sinkCatalog);
  }

  @Test
  void quarantiningSendsWhatTheTableCannotTakeToTheDlqThroughTheGivenBroker() {
    Map<String, String> upsert = ConnectorConfigs.upsertSink("t", "http://registry", CATALOG, 500);
    Map<String, String> expected = new HashMap<>(upsert);
    expected.put("errors.sink.tolerance", "all");
    expected.put("kafka.bootstrap.servers", "kafka:9092");

    assertThat(ConnectorConfigs.quarantining(upsert, "kafka:9092")).isEqualTo(expected);
  }

  @Test
  void noConfigCarriesAConnectorClientOverride() {
    List<Map<String, String>> configs =
        List.of(
            ConnectorConfigs.quarantining(
                ConnectorConfigs.upsertSinkByRegex(REGEX, "http://registry", CATALOG, 500),
                "kafka:9092"),
            ConnectorConfigs.upsertSink("t", "http://registry", CATALOG, 500),
            ConnectorConfigs.changelogSink(
                "t", "http://registry", CATALOG, "kafka:9092", "control", 1_000, "t.dlq"),
            ConnectorConfigs.changelogSinkByRegex(
                REGEX, "http://registry", CATALOG, "kafka:9092", "control", 1_000, "shop.dlq"));
    for (Map<String, String> config : configs) {
      assertThat(config.keySet())
          .noneMatch(k -> k.matches("(consumer|producer|admin)\\.override\\..*"));
    }
  }
}
