package io.sluice.router.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.contract.TopicNames;
import io.sluice.dlq.DlqFormat;
import io.sluice.router.RouterTopology;
import io.sluice.router.TopicRoles;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.Test;

class RouterConfigTest {

  private static Map<String, Object> minimal() {
    Map<String, Object> props = new HashMap<>();
    props.put("bootstrap.servers", "127.0.0.1:9092");
    props.put("schema.registry.url", "http://127.0.0.1:8081");
    return props;
  }

  private static Map<String, Object> with(String key, Object value) {
    Map<String, Object> props = minimal();
    props.put(key, value);
    return props;
  }

  @Test
  void defaultsAreThoseOfTheDesign() {
    RouterConfig config = new RouterConfig(minimal());
    assertThat(config.applicationId()).isEqualTo("sluice-router");
    assertThat(config.processingGuarantee()).isEqualTo("exactly_once_v2");
    assertThat(config.metricsHost()).isEqualTo("127.0.0.1");
    assertThat(config.metricsPort()).isZero();
    assertThat(config.cleanTopicSuffix()).isEqualTo(".clean");
    assertThat(config.dlqTopicSuffix()).isEqualTo(".dlq");
    assertThat(config.tombstones()).isEqualTo(TombstoneMode.PASS);
    assertThat(config.dlqFormat()).isEqualTo(DlqFormat.ENVELOPE);
    assertThat(config.contractAllowedOps()).containsExactly("c", "u", "d", "r");
    assertThat(config.registryRetryTimeoutMs()).isEqualTo(60_000L);
    assertThat(config.transactionTimeoutMs()).isEqualTo(90_000L);
    assertThat(config.stateDir()).isNull();
  }

  @Test
  void validateAheadIsOffByDefaultOnAnyMachine() {
    RouterConfig config = new RouterConfig(minimal());

    assertThat(config.getString(RouterConfig.VALIDATE_AHEAD_CONFIG)).isEqualTo("false");
    assertThat(config.validateAhead(1)).isFalse();
    assertThat(config.validateAhead(3)).isFalse();
    assertThat(config.validateAhead(64)).isFalse();
  }

  @Test
  void validateAheadAutoDependsOnTheProcessorCount() {
    for (Object auto : new Object[] {"auto", "AUTO"}) {
      RouterConfig config = new RouterConfig(with("validate.ahead", auto));
      assertThat(config.validateAhead(1)).as("%s on 1 processor", auto).isFalse();
      assertThat(config.validateAhead(2)).as("%s on 2 processors", auto).isFalse();
      assertThat(config.validateAhead(3)).as("%s on 3 processors", auto).isTrue();
      assertThat(config.validateAhead(16)).as("%s on 16 processors", auto).isTrue();
    }
  }

  @Test
  void validateAheadTrueOrFalseHoldsOnAnyMachine() {
    for (Object on : new Object[] {"true", "TRUE", Boolean.TRUE}) {
      RouterConfig config = new RouterConfig(with("validate.ahead", on));
      assertThat(config.validateAhead(1)).as("%s on 1 processor", on).isTrue();
      assertThat(config.validateAhead(64)).as("%s on 64 processors", on).isTrue();
    }
    for (Object off : new Object[] {"false", "False", Boolean.FALSE}) {
      RouterConfig config = new RouterConfig(with("validate.ahead", off));
      assertThat(config.validateAhead(64)).as("%s on 64 processors", off).isFalse();
    }
  }

  @Test
  void validateAheadRejectsOtherValuesNamingTheKey() {
    assertThatThrownBy(() -> new RouterConfig(with("validate.ahead", "sometimes")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("validate.ahead")
        .hasMessageContaining("sometimes");
  }

  @Test
  void missingBootstrapServersIsNamed() {
    Map<String, Object> props = minimal();
    props.remove("bootstrap.servers");
    assertThatThrownBy(() -> new RouterConfig(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("\"bootstrap.servers\"")
        .hasMessageContaining("no default value");
  }

  @Test
  void unknownKeyFailsNamingTheKey() {
    assertThatThrownBy(() -> new RouterConfig(with("tombstone", "drop")))
        .isInstanceOf(ConfigException.class)
        .hasMessageStartingWith("Unknown router configuration key 'tombstone'")
        .hasMessageContaining("'streams.'");
    assertThatThrownBy(() -> new RouterConfig(with("stream.sasl.jaas.config", "password=s3cret")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("'stream.sasl.jaas.config'")
        .message()
        .doesNotContain("s3cret");
  }

  @Test
  void invalidEnumValueListsTheChoices() {
    assertThatThrownBy(() -> new RouterConfig(with("tombstones", "keep")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("Invalid value keep for configuration tombstones")
        .hasMessageContaining("pass, drop");
    assertThatThrownBy(() -> new RouterConfig(with("dlq.format", "avro")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("envelope, raw");
  }

  @Test
  void invalidRegexIsReported() {
    assertThatThrownBy(() -> new RouterConfig(with("input.topic.pattern", "broker.(")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("input.topic.pattern")
        .hasMessageContaining("not a valid Java regex");
  }

  @Test
  void registryUrlMustBeHttp() {
    assertThatThrownBy(() -> new RouterConfig(with("schema.registry.url", "localhost:8081")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("schema.registry.url")
        .hasMessageContaining("http:// or https://");
  }

  @Test
  void streamsKeysThatTheRouterOwnsAreRefused() {
    assertThatThrownBy(() -> new RouterConfig(with("streams.application.id", "x")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("streams.application.id")
        .hasMessageContaining("set 'application.id' without the prefix instead");
  }

  @Test
  void handlersThatSkipRecordsAreRefused() {
    assertThatThrownBy(
            () ->
                new RouterConfig(
                    with(
                        "streams.processing.exception.handler",
                        "org.apache.kafka.streams.errors.LogAndContinueProcessingExceptionHandler")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("streams.processing.exception.handler")
        .hasMessageContaining("instead of skipping records");
  }

  @Test
  void retryTimeoutMustStayBelowTheTransactionTimeout() {
    Map<String, Object> props = with("streams.producer.transaction.timeout.ms", "10000");
    assertThatThrownBy(() -> new RouterConfig(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("Invalid value 60000 for configuration registry.retry.timeout.ms")
        .hasMessageContaining("below the producer's transaction.timeout.ms (10000)");
    props.put("registry.retry.timeout.ms", 5000);
    assertThat(new RouterConfig(props).transactionTimeoutMs()).isEqualTo(10_000L);
    props.put("processing.guarantee", "at_least_once");
    props.put("registry.retry.timeout.ms", 60000);
    assertThat(new RouterConfig(props).registryRetryTimeoutMs()).isEqualTo(60_000L);
  }

  @Test
  void retryTimeoutMustStayBelowMaxPollInterval() {
    assertThatThrownBy(
            () -> new RouterConfig(with("streams.consumer.max.poll.interval.ms", "30000")))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("registry.retry.timeout.ms")
        .hasMessageContaining("below the consumer's max.poll.interval.ms (30000)");
  }

  @Test
  void backoffMaxMustNotBeBelowTheFirstBackoff() {
    Map<String, Object> props = with("registry.retry.backoff.ms", 2000);
    props.put("registry.retry.backoff.max.ms", 1000);
    assertThatThrownBy(() -> new RouterConfig(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("registry.retry.backoff.max.ms")
        .hasMessageContaining("must be at least registry.retry.backoff.ms (2000)");
  }

  @Test
  void cleanAndDlqSuffixesMustDiffer() {
    Map<String, Object> props = with("clean.topic.suffix", ".out");
    props.put("dlq.topic.suffix", ".out");
    assertThatThrownBy(() -> new RouterConfig(props))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("dlq.topic.suffix")
        .hasMessageContaining("must differ from clean.topic.suffix");
  }

  @Test
  void aSuffixIsCheckedAsATopicSuffixNamingTheKeyAndTheValue() {
    assertThatThrownBy(() -> new RouterConfig(with("dlq.topic.suffix", ".dead letters")))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "Invalid value .dead letters for configuration dlq.topic.suffix: may hold only"
                + " letters, digits, '.', '_' and '-' (a Kafka topic's)");
    assertThatThrownBy(() -> new RouterConfig(with("dlq.topic.suffix", ".x.repairs")))
        .isInstanceOf(ConfigException.class)
        .hasMessage(
            "Invalid value .repairs for configuration repairs.topic.suffix: must not end with, nor"
                + " be the end of, dlq.topic.suffix ('.x.repairs'): a topic would have both"
                + " roles");
  }

  @Test
  void theSuffixesNameTheOutputsAndTheOutputsAreNeverInputs() {
    Map<String, Object> props = with("input.topic.pattern", ".*");
    props.put("dlq.topic.suffix", ".quarantine");
    RouterConfig config = new RouterConfig(props);
    assertThat(config.topicNames()).isEqualTo(TopicNames.of(".clean", ".quarantine"));
    TopicRoles roles = TopicRoles.from(config);
    assertThat(roles.dlqTopic("broker.cdc_lab.orders"))
        .isEqualTo("broker.cdc_lab.orders.quarantine");
    assertThat(roles.isInput("broker.cdc_lab.orders.quarantine")).isFalse();
    assertThat(roles.isInput("broker.cdc_lab.orders.quarantine.repairs")).isFalse();
    assertThat(roles.isInput("broker.cdc_lab.orders.dlq")).as("no output of this router").isTrue();
  }

  @Test
  void replicationFactorIsMinusOneOrPositive() {
    assertThatThrownBy(() -> new RouterConfig(with("replication.factor", 0)))
        .isInstanceOf(ConfigException.class)
        .hasMessageContaining("must be -1 (broker default) or at least 1");
    assertThat(new RouterConfig(with("replication.factor", "3")).replicationFactor()).isEqualTo(3);
  }

  @Test
  void defaultPatternMatchesDebeziumTopicsOnly() {
    Pattern pattern = new RouterConfig(minimal()).inputTopicPattern();
    assertThat(pattern.matcher("broker.cdc_lab.orders").matches()).isTrue();
    assertThat(pattern.matcher("dbserver1.inventory.customers-v2").matches()).isTrue();
    assertThat(pattern.matcher("broker.cdc_lab.orders.clean").matches()).isFalse();
    assertThat(pattern.matcher("cdc_lab.orders.clean").matches()).isFalse();
    assertThat(pattern.matcher("cdc_lab.orders.dlq").matches()).isFalse();
    assertThat(pattern.matcher("cdc_lab.orders.repairs").matches()).isFalse();
    assertThat(pattern.matcher("_schemas.a.b").matches()).isFalse();
    assertThat(pattern.matcher("__consumer_offsets").matches()).isFalse();
    assertThat(pattern.matcher("broker").matches()).isFalse();
    assertThat(pattern.matcher("broker.cdc_lab").matches()).isFalse();
  }

  @Test
  void outputTopicsAreNeverInputsWhateverThePattern() {
    TopicRoles roles = TopicRoles.from(new RouterConfig(with("input.topic.pattern", ".*")));
    assertThat(roles.isInput("broker.cdc_lab.orders")).isTrue();
    assertThat(roles.isInput("broker.cdc_lab.orders.clean")).isFalse();
    assertThat(roles.isInput("broker.cdc_lab.orders.dlq")).isFalse();
    assertThat(roles.isInput("broker.cdc_lab.orders.dlq.repairs")).isFalse();
    assertThat(roles.isInput("_schemas")).isFalse();
  }

  @Test
  void streamsConfigCarriesTheRouterDefaultsAndTheOverrides() {
    Map<String, Object> props = with("streams.commit.interval.ms", "250");
    props.put("streams.num.stream.threads", "2");
    props.put("topic.refresh.interval.ms", 2000);
    props.put("state.dir", "/tmp/state");
    Properties streams = RouterTopology.streamsConfig(new RouterConfig(props));
    assertThat(streams)
        .containsEntry("application.id", "sluice-router")
        .containsEntry("bootstrap.servers", "127.0.0.1:9092")
        .containsEntry("processing.guarantee", "exactly_once_v2")
        .containsEntry("state.dir", "/tmp/state")
        .containsEntry("commit.interval.ms", "250")
        .containsEntry("num.stream.threads", "2")
        .containsEntry("consumer.metadata.max.age.ms", "2000")
        .containsEntry("producer.transaction.timeout.ms", "90000")
        .containsEntry("producer.batch.size", "65536")
        .containsEntry(
            "processing.exception.handler",
            "org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler");
  }

  @Test
  void streamsOverridesWinOverTheRouterProducerDefaults() {
    Map<String, Object> props = with("streams.producer.batch.size", "16384");
    props.put("streams.producer.max.request.size", "1048576");
    Properties streams = RouterTopology.streamsConfig(new RouterConfig(props));
    assertThat(streams)
        .containsEntry("producer.batch.size", "16384")
        .containsEntry("producer.max.request.size", "1048576");
  }

  @Test
  void everyKeyHasDocumentation() {
    RouterConfig.configDef()
        .configKeys()
        .values()
        .forEach(
            key -> {
              assertThat(key.documentation).as(key.name).isNotBlank();
              assertThat(key.importance).as(key.name).isNotNull();
            });
  }
}
