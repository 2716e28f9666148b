package io.sluice.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class TopicNamesTest {
  private static final TopicNames DEFAULTS = TopicNames.DEFAULTS;
  private static final TopicNames CUSTOM = TopicNames.of("-valid", ".quarantine");

  @Test
  void theDefaultsAreCleanDlqAndRepairs() {
    assertThat(DEFAULTS.cleanSuffix()).isEqualTo(".clean");
    assertThat(DEFAULTS.dlqSuffix()).isEqualTo(".dlq");
    assertThat(DEFAULTS.repairsSuffix()).isEqualTo(".repairs");
    assertThat(TopicNames.of(".clean", ".dlq")).isEqualTo(DEFAULTS);
  }

  @Test
  void namesDerivedFromAnInputTopic() {
    assertThat(DEFAULTS.cleanTopic("broker.cdc_lab.orders"))
        .isEqualTo("broker.cdc_lab.orders.clean");
    assertThat(DEFAULTS.dlqTopic("broker.cdc_lab.orders")).isEqualTo("broker.cdc_lab.orders.dlq");
    assertThat(DEFAULTS.repairsTopic("broker.cdc_lab.orders"))
        .isEqualTo("broker.cdc_lab.orders.dlq.repairs");
    assertThat(DEFAULTS.repairsTopicOfDlq("sluice-changelog-sink.dlq"))
        .isEqualTo("sluice-changelog-sink.dlq.repairs");

    assertThat(CUSTOM.cleanTopic("a.b.c")).isEqualTo("a.b.c-valid");
    assertThat(CUSTOM.dlqTopic("a.b.c")).isEqualTo("a.b.c.quarantine");
    assertThat(CUSTOM.repairsTopic("a.b.c")).isEqualTo("a.b.c.quarantine.repairs");
  }

  @Test
  void theInputTopicOfACleanOrDlqTopic() {
    Map<String, String> cases =
        Map.of(
            "broker.cdc_lab.orders.clean", "broker.cdc_lab.orders",
            "broker.cdc_lab.orders.dlq", "broker.cdc_lab.orders",
            "sluice-changelog-sink.dlq", "sluice-changelog-sink");
    cases.forEach((topic, input) -> assertThat(DEFAULTS.inputTopic(topic)).hasValue(input));
    assertThat(DEFAULTS.inputTopic("broker.cdc_lab.orders")).isEmpty();
    assertThat(DEFAULTS.inputTopic("broker.cdc_lab.orders.dlq.repairs")).isEmpty();
    assertThat(DEFAULTS.inputTopic(".dlq")).as("nothing before the suffix").isEmpty();

    assertThat(CUSTOM.inputTopic("a.b.c.quarantine")).hasValue("a.b.c");
    assertThat(CUSTOM.inputTopic("a.b.c-valid")).hasValue("a.b.c");
    assertThat(CUSTOM.inputTopic("a.b.c.dlq")).as("another suffix").isEmpty();
  }

  @Test
  void theDlqTopicOfTheRecordsASinkReads() {
    assertThat(DEFAULTS.dlqTopicOfRecordsIn("broker.cdc_lab.orders.clean"))
        .isEqualTo("broker.cdc_lab.orders.dlq");
    assertThat(DEFAULTS.dlqTopicOfRecordsIn("broker.cdc_lab.orders"))
        .isEqualTo("broker.cdc_lab.orders.dlq");
    assertThat(CUSTOM.dlqTopicOfRecordsIn("a.b.c-valid")).isEqualTo("a.b.c.quarantine");
    assertThat(CUSTOM.dlqTopicOfRecordsIn("a.b.c.clean")).isEqualTo("a.b.c.clean.quarantine");
  }

  @Test
  void whichTopicsAreDlqTopics() {
    assertThat(DEFAULTS.isDlqTopic("broker.cdc_lab.orders.dlq")).isTrue();
    assertThat(DEFAULTS.isDlqTopic("broker.cdc_lab.orders.dlq.repairs")).isFalse();
    assertThat(DEFAULTS.isDlqTopic("broker.cdc_lab.orders.clean")).isFalse();
    assertThat(DEFAULTS.isDlqTopic(".dlq")).isFalse();
    assertThat(DEFAULTS.isRepairsTopic("broker.cdc_lab.orders.dlq.repairs")).isTrue();
    assertThat(DEFAULTS.isCleanTopic("broker.cdc_lab.orders.clean")).isTrue();

    assertThat(DEFAULTS.dlqTopicPattern().pattern()).isEqualTo(".+\\.dlq");
    assertThat(DEFAULTS.dlqTopicPattern().matcher("broker.cdc_lab.orders.dlq").matches()).isTrue();
    assertThat(DEFAULTS.dlqTopicPattern().matcher("broker.cdc_lab.orders_dlq").matches())
        .as("the dot is literal")
        .isFalse();
    assertThat(CUSTOM.dlqTopicPattern().pattern()).isEqualTo(".+\\.quarantine");
    assertThat(CUSTOM.dlqTopicPattern().matcher("a.b.c.quarantine").matches()).isTrue();
    assertThat(CUSTOM.dlqTopicPattern().matcher("a.b.c.dlq").matches()).isFalse();
  }

  @Test
  void outputsLedgersAndInternalTopicsAreNeverInputs() {
    assertThat(DEFAULTS.isNeverInput("broker.cdc_lab.orders")).isFalse();
    assertThat(DEFAULTS.isNeverInput("broker.cdc_lab.orders.clean")).isTrue();
    assertThat(DEFAULTS.isNeverInput("broker.cdc_lab.orders.dlq")).isTrue();
    assertThat(DEFAULTS.isNeverInput("broker.cdc_lab.orders.dlq.repairs")).isTrue();
    assertThat(DEFAULTS.isNeverInput("_schemas")).isTrue();

    assertThat(CUSTOM.isNeverInput("a.b.c.quarantine")).isTrue();
    assertThat(CUSTOM.isNeverInput("a.b.c-valid")).isTrue();
    assertThat(CUSTOM.isNeverInput("a.b.c.dlq")).as("no longer an output").isFalse();
  }

  @Test
  void aBadSuffixIsNamedByItsKeyAndValue() {
    assertThatThrownBy(() -> TopicNames.of(".clean", ""))
        .isInstanceOf(TopicSuffixException.class)
        .hasMessage("dlq.topic.suffix: '' must not be empty");
    assertThatThrownBy(() -> TopicNames.of(".cl/ean", ".dlq"))
        .isInstanceOf(TopicSuffixException.class)
        .hasMessage(
            "clean.topic.suffix: '.cl/ean' may hold only letters, digits, '.', '_' and '-' (a"
                + " Kafka topic's)");
    assertThatThrownBy(
            () ->
                TopicNames.of(
                    ".clean", ".dlq", null, new TopicNames.Keys("--clean", "--dlq", "--repairs")))
        .isInstanceOf(TopicSuffixException.class)
        .hasMessage("--repairs: 'null' must not be empty");
  }

  @Test
  void noSuffixMayEndWithAnother() {
    assertThatThrownBy(() -> TopicNames.of(".clean", ".clean"))
        .isInstanceOf(TopicSuffixException.class)
        .hasMessage(
            "dlq.topic.suffix: '.clean' must differ from clean.topic.suffix ('.clean'): a topic"
                + " would have both roles")
        .satisfies(
            e -> {
              TopicSuffixException s = (TopicSuffixException) e;
              assertThat(s.key()).isEqualTo("dlq.topic.suffix");
              assertThat(s.value()).isEqualTo(".clean");
            });
    assertThatThrownBy(() -> TopicNames.of(".clean", ".x.clean"))
        .isInstanceOf(TopicSuffixException.class)
        .hasMessage(
            "dlq.topic.suffix: '.x.clean' must not end with, nor be the end of,"
                + " clean.topic.suffix ('.clean'): a topic would have both roles");
    assertThatThrownBy(() -> TopicNames.of(".clean", ".repairs"))
        .isInstanceOf(TopicSuffixException.class)
        .hasMessage(
            "repairs.topic.suffix: '.repairs' must differ from dlq.topic.suffix ('.repairs'): a"
                + " topic would have both roles");
    assertThatThrownBy(
            () -> TopicNames.of(".clean", ".dlq", ".x.dlq", new TopicNames.Keys("c", "d", "r")))
        .isInstanceOf(TopicSuffixException.class)
        .hasMessage(
            "r: '.x.dlq' must not end with, nor be the end of, d ('.dlq'): a topic would have"
                + " both roles");
  }

  @Test
  void theConfigDefValidatorNamesTheKeyAndTheValue() {
    ConfigDef.Validator validator = TopicNames.suffixValidator();
    validator.ensureValid("dlq.topic.suffix", ".quarantine");

    assertThatThrownBy(() -> validator.ensureValid("dlq.topic.suffix", "a b"))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "Invalid value a b for configuration dlq.topic.suffix: may hold only letters, digits,"
                + " '.', '_' and '-' (a Kafka topic's)");
  }
}
