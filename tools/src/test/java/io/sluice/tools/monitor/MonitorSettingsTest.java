package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contract.TopicNames;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MonitorSettingsTest {
  private final MonitorSettings defaults = MonitorSettings.defaults("127.0.0.1:9092");

  @Test
  void theDefaultsWatchEveryDlqTopicButNoLedgerAndEveryGroup() {
    assertThat(defaults.refreshInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(defaults.metricsHost()).isEqualTo("127.0.0.1");
    assertThat(defaults.metricsPort()).isZero();
    assertThat(defaults.topicNames()).isEqualTo(TopicNames.DEFAULTS);
    assertThat(watched(defaults, "broker.cdc_lab.orders.dlq")).isTrue();
    assertThat(watched(defaults, "broker.cdc_lab.orders.clean")).isFalse();
    assertThat(watched(defaults, "broker.cdc_lab.orders.dlq.repairs")).isFalse();
    assertThat(watched(defaults.withDlqTopicPattern(".*"), "orders.dlq.repairs"))
        .as("a ledger is never a DLQ, whatever the pattern")
        .isFalse();
    assertThat(defaults.groupPattern().matcher("connect-sluice-upsert-sink").matches()).isTrue();
  }

  @Test
  void theDlqTopicsFollowTheRoutersDlqSuffix() {
    MonitorSettings custom = defaults.withTopicNames(TopicNames.of(".clean", ".quarantine"));
    assertThat(custom.dlqTopicPattern().pattern()).isEqualTo(".+\\.quarantine");
    assertThat(watched(custom, "broker.cdc_lab.orders.quarantine")).isTrue();
    assertThat(watched(custom, "broker.cdc_lab.orders.quarantine.repairs")).isFalse();
    assertThat(watched(custom, "broker.cdc_lab.orders.dlq")).isFalse();

    MonitorSettings pattern = custom.withDlqTopicPattern("broker\\..+\\.quarantine");
    assertThat(pattern.topicNames()).isEqualTo(custom.topicNames());
    assertThat(watched(pattern, "broker.cdc_lab.orders.quarantine")).isTrue();
    assertThat(watched(pattern, "other.cdc_lab.orders.quarantine")).isFalse();
    assertThat(pattern.withTopicNames(TopicNames.DEFAULTS).dlqTopicPattern().pattern())
        .as("the names replace a pattern given before them")
        .isEqualTo(".+\\.dlq");
  }

  private static boolean watched(MonitorSettings settings, String topic) {
    return DlqWatcher.isDlqTopic(settings.dlqTopicPattern(), settings.topicNames(), topic);
  }

  @Test
  void aBadRegexIsNamedWithItsSetting() {
    assertThatThrownBy(() -> defaults.withGroupPattern("connect-(sluice"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("groupPattern is not a valid Java regex: 'connect-(sluice'");
  }

  @Test
  void anIntervalBelowTheMinimumIsRefused() {
    assertThatThrownBy(() -> defaults.withRefreshInterval(Duration.ofMillis(50)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("refreshInterval must be at least 100 ms, got 50 ms");
  }

  @Test
  void aPortOutOfRangeAndAMissingBrokerAreRefused() {
    assertThatThrownBy(() -> defaults.withMetrics("127.0.0.1", 70000))
        .hasMessage("metricsPort must be a TCP port (1-65535) or 0 for a free one, got 70000");
    assertThatThrownBy(() -> MonitorSettings.defaults(" "))
        .hasMessage("bootstrapServers must name at least one host:port, got ' '");
  }

  @Test
  void theIcebergPartIsOffByDefaultAndTakesTheCatalogObjectOfTheReadyFile() {
    assertThat(defaults.iceberg().enabled()).isFalse();
    assertThat(defaults.iceberg().refreshInterval()).isEqualTo(Duration.ofSeconds(10));

    MonitorSettings lake =
        defaults
            .withIcebergCatalog(
                Map.of("name", "sluice", "type", "jdbc", "uri", "jdbc:sqlite:/tmp/catalog.db"))
            .withIcebergTables(List.of("cdc_lab", "other.events"))
            .withIcebergRefreshInterval(Duration.ofSeconds(1));

    assertThat(lake.iceberg().enabled()).isTrue();
    assertThat(lake.iceberg().catalogName()).isEqualTo("sluice");
    assertThat(lake.iceberg().tables()).containsExactly("cdc_lab", "other.events");
    assertThat(lake.iceberg().refreshInterval()).isEqualTo(Duration.ofSeconds(1));
    assertThat(lake.withIcebergCatalog(null).iceberg().enabled()).isFalse();
  }

  @Test
  void aCatalogWithoutTypeAndBadTableNamesAreRefused() {
    assertThatThrownBy(() -> defaults.withIcebergCatalog(Map.of("uri", "http://rest:8181")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "icebergCatalog must name its type (type=jdbc|rest|...) or catalog-impl, got the keys"
                + " [uri]");
    assertThatThrownBy(() -> defaults.withIcebergTables(List.of("cdc_lab..orders")))
        .hasMessage(
            "icebergTables entries are namespaces or namespace.table, got 'cdc_lab..orders'");
    assertThatThrownBy(() -> defaults.withIcebergRefreshInterval(Duration.ofMillis(10)))
        .hasMessage("icebergRefreshInterval must be at least 100 ms, got 10 ms");
  }

  @Test
  void theSettingsNeverShowTheCatalogsCredentials() {
    MonitorSettings lake =
        defaults.withIcebergCatalog(
            Map.of(
                "type", "rest",
                "uri", "http://iceberg-rest:8181",
                "s3.access-key-id", "sluice",
                "s3.secret-access-key", "sluice-secret"));

    assertThat(lake.toString())
        .contains("type=rest", "uri=http://iceberg-rest:8181")
        .doesNotContain("sluice-secret", "access-key");
  }
}
