package io.sluice.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class SubjectsTest {

  @Test
  void topicNameStrategy() {
    assertThat(Subjects.key("broker.cdc_lab.orders")).isEqualTo("broker.cdc_lab.orders-key");
    assertThat(Subjects.value("broker.cdc_lab.orders")).isEqualTo("broker.cdc_lab.orders-value");
    assertThat(Subjects.of("t", true)).isEqualTo("t-key");
    assertThat(Subjects.of("t", false)).isEqualTo("t-value");
  }
}
