package io.sluice.tools.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contract.TopicNames;
import java.util.Collection;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class DlqTopicChoiceTest {
  private static final List<String> BROKER =
      List.of(
          "broker.cdc_lab.orders",
          "broker.cdc_lab.orders.clean",
          "broker.cdc_lab.orders.dlq",
          "broker.cdc_lab.orders.dlq.repairs",
          "broker.cdc_lab.customers.dlq",
          "broker.cdc_lab.orders.quarantine",
          "sluice-changelog-sink.dlq",
          "_schemas");
  private static final Supplier<Collection<String>> NOT_LISTED =
      () -> {
        throw new AssertionError("the broker's topics are not needed");
      };

  @Test
  void theDlqTopicsAreTheNamesEndingWithTheDlqSuffix() {
    assertThat(choice(TopicNames.DEFAULTS, null, null).dlqTopics(BROKER))
        .containsExactly(
            "broker.cdc_lab.customers.dlq",
            "broker.cdc_lab.orders.dlq",
            "sluice-changelog-sink.dlq");
    assertThat(choice(TopicNames.of(".clean", ".quarantine"), null, null).dlqTopics(BROKER))
        .containsExactly("broker.cdc_lab.orders.quarantine");
  }

  @Test
  void theFlagThenTheTableThenTheIdChoose() {
    assertThat(choice(TopicNames.DEFAULTS, "x.dlq", null).chosen("y.dlq", NOT_LISTED))
        .hasValue("x.dlq");
    assertThat(choice(TopicNames.DEFAULTS, null, null).chosen("y.dlq", NOT_LISTED))
        .hasValue("y.dlq");
    assertThat(choice(TopicNames.DEFAULTS, null, null).chosen(null, NOT_LISTED)).isEmpty();
    assertThat(choice(TopicNames.DEFAULTS, null, "cdc_lab.orders").chosen("y.dlq", () -> BROKER))
        .hasValue("broker.cdc_lab.orders.dlq");
  }

  @Test
  void aTableIsADbAndTableAnInputTopicOrItsCleanTopic() {
    for (String table :
        List.of("cdc_lab.orders", "broker.cdc_lab.orders", "broker.cdc_lab.orders.clean")) {
      assertThat(choice(TopicNames.DEFAULTS, null, table).chosen(null, () -> BROKER))
          .as(table)
          .hasValue("broker.cdc_lab.orders.dlq");
    }
    assertThat(
            choice(TopicNames.of(".clean", ".quarantine"), null, "orders")
                .chosen(null, () -> BROKER))
        .hasValue("broker.cdc_lab.orders.quarantine");
  }

  @Test
  void anExactInputTopicWinsOverLongerNamesEndingWithIt() {
    List<String> topics = List.of("cdc_lab.orders.dlq", "broker.cdc_lab.orders.dlq");
    assertThat(choice(TopicNames.DEFAULTS, null, "cdc_lab.orders").chosen(null, () -> topics))
        .hasValue("cdc_lab.orders.dlq");
  }

  @Test
  void aTableWithNoOrSeveralDlqTopicsIsNamed() {
    assertThatThrownBy(
            () -> choice(TopicNames.DEFAULTS, null, "payments").chosen(null, () -> BROKER))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "no DLQ topic of --table payments: no topic payments.dlq nor any <prefix>.payments.dlq"
                + " (DLQ topics: broker.cdc_lab.customers.dlq, broker.cdc_lab.orders.dlq,"
                + " sluice-changelog-sink.dlq); the router creates it when it first routes the"
                + " input topic");
    List<String> twice = List.of("a.shop.orders.dlq", "b.shop.orders.dlq");
    assertThatThrownBy(
            () -> choice(TopicNames.DEFAULTS, null, "shop.orders").chosen(null, () -> twice))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "--table shop.orders matches 2 DLQ topics: a.shop.orders.dlq, b.shop.orders.dlq; pass"
                + " --dlq-topic with one of them, or its input topic as --table");
  }

  @Test
  void noneChosenNamesTheDlqTopicsOrSaysThereAreNone() {
    assertThat(choice(TopicNames.DEFAULTS, null, null).noneChosen("dlq replay", BROKER, "h:1"))
        .isEqualTo(
            "dlq replay acts on one DLQ topic: pass --dlq-topic TOPIC, or --table DB.TABLE for"
                + " the router's DLQ topic of a table; DLQ topics (suffix .dlq) on h:1:"
                + " broker.cdc_lab.customers.dlq, broker.cdc_lab.orders.dlq,"
                + " sluice-changelog-sink.dlq (another suffix: --dlq-suffix)");
    assertThat(
            choice(TopicNames.of(".clean", ".q"), null, null)
                .noneChosen("dlq show", List.of("a"), "h:1"))
        .isEqualTo(
            "dlq show acts on one DLQ topic: pass --dlq-topic TOPIC, or --table DB.TABLE for the"
                + " router's DLQ topic of a table; there is no DLQ topic (suffix .q) on h:1"
                + " (another suffix: --dlq-suffix)");
  }

  private static DlqTopicChoice choice(TopicNames names, String dlqTopic, String table) {
    return new DlqTopicChoice(names, dlqTopic, table);
  }
}
