package io.sluice.connect.upsert.quarantine;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.contract.TopicNames;
import org.junit.jupiter.api.Test;

class DlqTopicsTest {
  @Test
  void theRoutersDlqOfACleanTopic() {
    DlqTopics topics = new DlqTopics(null, TopicNames.DEFAULTS);
    assertThat(topics.of("broker.cdc_lab.orders.clean")).isEqualTo("broker.cdc_lab.orders.dlq");
    assertThat(topics.of("broker.cdc_lab.orders")).isEqualTo("broker.cdc_lab.orders.dlq");
  }

  @Test
  void theRoutersDlqWithTheSuffixesItRunsWith() {
    DlqTopics topics = new DlqTopics(null, TopicNames.of(".valid", ".quarantine"));
    assertThat(topics.of("broker.cdc_lab.orders.valid"))
        .isEqualTo("broker.cdc_lab.orders.quarantine");
    assertThat(topics.of("broker.cdc_lab.orders.clean"))
        .as("not a clean topic of this router")
        .isEqualTo("broker.cdc_lab.orders.clean.quarantine");
  }

  @Test
  void aConfiguredTopicWins() {
    assertThat(new DlqTopics("sink.dlq", TopicNames.DEFAULTS).of("broker.cdc_lab.orders.clean"))
        .isEqualTo("sink.dlq");
    assertThat(new DlqTopics(" ", TopicNames.DEFAULTS).of("a.clean")).isEqualTo("a.dlq");
  }
}
