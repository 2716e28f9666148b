package io.sluice.connect.upsert.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DlqTopicsTest {
  @Test
  void theRoutersDlqOfACleanTopic() {
    DlqTopics topics = new DlqTopics(null);
    assertThat(topics.of("broker.cdc_lab.orders.clean")).isEqualTo("broker.cdc_lab.orders.dlq");
    assertThat(topics.of("broker.cdc_lab.orders")).isEqualTo("broker.cdc_lab.orders.dlq");
  }

  @Test
  void aConfiguredTopicWins() {
    assertThat(new DlqTopics("sink.dlq").of("broker.cdc_lab.orders.clean")).isEqualTo("sink.dlq");
    assertThat(new DlqTopics(" ").of("a.clean")).isEqualTo("a.dlq");
  }
}
