package io.sluice.tools.dlq.repair;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class CdcTopicTest {

  @Test
  void theLastTwoPartsAreDbAndTable() {
    assertThat(CdcTopic.parse("broker.cdc_lab.orders"))
        .isEqualTo(new CdcTopic("broker", "cdc_lab", "orders"));
    assertThat(CdcTopic.parse("eu.prod.shop.orders"))
        .isEqualTo(new CdcTopic("eu.prod", "shop", "orders"));
  }

  @Test
  void aTopicWithoutThreePartsIsRefused() {
    assertThatThrownBy(() -> CdcTopic.parse("orders.dlq"))
        .isInstanceOf(RepairException.class)
        .hasMessage(
            "cannot take the database and table from topic 'orders.dlq': expected"
                + " <prefix>.<db>.<table> as Debezium names it");
    assertThatThrownBy(() -> CdcTopic.parse("a..b"))
        .isInstanceOf(RepairException.class)
        .hasMessageContaining("'a..b'");
  }
}
