package io.sluice.bench.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SinkSettingsTest {
  private static final Map<String, String> BASE =
      Map.of("topics", "broker.cdc_lab.orders_off.clean", "commit.interval.ms", "1000");

  @Test
  void withTheSwitchEachModeSetsIt() {
    SinkSettings sink = new SinkSettings(Map.of("maintenance.rewrite.delete-files", "4"));

    assertThat(sink.config(BASE, Mode.OFF))
        .containsAllEntriesOf(BASE)
        .containsEntry("maintenance.enabled", "false")
        .containsEntry("maintenance.rewrite.delete-files", "4");
    assertThat(sink.config(BASE, Mode.ON)).containsEntry("maintenance.enabled", "true");
  }

  @Test
  void sinkConfigReachesEveryModeAfterTheSinksOwnCheck() {
    SinkSettings sink = new SinkSettings(Map.of("table.format.version", "3"));

    assertThatCode(() -> sink.check(List.of(Mode.OFF), 1_000)).doesNotThrowAnyException();
    assertThat(sink.config(BASE, Mode.OFF)).containsEntry("table.format.version", "3");
  }

  @Test
  void aKeyTheSinkDoesNotKnowIsRefusedWithItsReason() {
    SinkSettings sink = new SinkSettings(Map.of("maintenance.no-such-key", "4"));

    assertThatThrownBy(() -> sink.check(List.of(Mode.OFF), 1_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "--sink-config maintenance.no-such-key: unknown configuration key"
                + " 'maintenance.no-such-key' for the upsert sink");
  }

  @Test
  void aBadValueIsRefusedWithTheSinksMessage() {
    SinkSettings sink = new SinkSettings(Map.of("table.format.version", "9"));

    assertThatThrownBy(() -> sink.check(List.of(Mode.OFF), 1_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("--sink-config table.format.version: ")
        .hasMessageContaining("9");
  }

  @Test
  void theKeysTheBenchmarkSetsAreRefused() {
    SinkSettings sink =
        new SinkSettings(Map.of("commit.interval.ms", "50", "maintenance.enabled", "true"));

    assertThatThrownBy(() -> sink.check(List.of(Mode.OFF), 1_000))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "--sink-config maintenance.enabled: --modes sets it (off: false, on: true); leave it"
                + " out")
        .hasMessageContaining(
            "--sink-config commit.interval.ms: the benchmark sets this key itself; use"
                + " --commit-interval-ms");
  }
}
