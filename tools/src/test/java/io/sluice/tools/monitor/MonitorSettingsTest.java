package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class MonitorSettingsTest {
  private final MonitorSettings defaults = MonitorSettings.defaults("127.0.0.1:9092");

  @Test
  void theDefaultsWatchEveryDlqTopicButNoLedgerAndEveryGroup() {
    assertThat(defaults.refreshInterval()).isEqualTo(Duration.ofSeconds(5));
    assertThat(defaults.metricsHost()).isEqualTo("127.0.0.1");
    assertThat(defaults.metricsPort()).isZero();
    assertThat(DlqWatcher.isDlqTopic(defaults.dlqTopicPattern(), "broker.cdc_lab.orders.dlq"))
        .isTrue();
    assertThat(DlqWatcher.isDlqTopic(defaults.dlqTopicPattern(), "broker.cdc_lab.orders.clean"))
        .isFalse();
    assertThat(
            DlqWatcher.isDlqTopic(defaults.dlqTopicPattern(), "broker.cdc_lab.orders.dlq.repairs"))
        .isFalse();
    assertThat(
            DlqWatcher.isDlqTopic(
                defaults.withDlqTopicPattern(".*").dlqTopicPattern(), "orders.dlq.repairs"))
        .as("a ledger is never a DLQ, whatever the pattern")
        .isFalse();
    assertThat(defaults.groupPattern().matcher("connect-sluice-upsert-sink").matches()).isTrue();
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
}
