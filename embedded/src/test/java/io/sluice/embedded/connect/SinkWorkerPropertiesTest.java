package io.sluice.embedded.connect;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

class SinkWorkerPropertiesTest {
  @Test
  void theWorkerGivesEverySinkTaskReadCommittedAndTheRefreshAndRefusesOverrides() {
    assertThat(SinkWorkerProperties.of(2_000))
        .containsExactlyInAnyOrderEntriesOf(
            Map.of(
                "consumer.isolation.level", "read_committed",
                "consumer.metadata.max.age.ms", "2000",
                "connector.client.config.override.policy", "None"));
  }

  @Test
  void aRefreshIntervalBelowOneMillisecondIsRefused() {
    assertThatThrownBy(() -> SinkWorkerProperties.of(0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("topicRefreshMs must be at least 1 ms, got 0");
  }
}
