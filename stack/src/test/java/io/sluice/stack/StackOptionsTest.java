package io.sluice.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StackOptionsTest {
  private static final Path DIR = Path.of("target", "options-test");

  private static StackOptions with(Map<String, String> router, Map<String, String> sink) {
    return StackOptions.in(DIR).withComponentConfig(router, sink);
  }

  @Test
  void routerSuffixesShapeTheLayout() {
    StackLayout layout =
        with(Map.of("dlq.topic.suffix", ".quarantine", "clean.topic.suffix", ".ok"), Map.of())
            .layout();

    assertThat(layout.dlqTopic()).isEqualTo("broker.cdc_lab.orders.quarantine");
    assertThat(layout.cleanTopic()).isEqualTo("broker.cdc_lab.orders.ok");
    assertThat(layout.cleanTopicsRegex()).isEqualTo("broker\\.cdc_lab\\.[^.]+\\.ok");
    assertThat(StackOptions.in(DIR).layout()).isEqualTo(StackLayout.DEFAULT);
  }

  @Test
  void defaultLayoutNamesTheLabPipeline() {
    StackLayout layout = StackLayout.DEFAULT;

    assertThat(layout.mainTopic()).isEqualTo("broker.cdc_lab.orders");
    assertThat(layout.cleanTopic()).isEqualTo("broker.cdc_lab.orders.clean");
    assertThat(layout.dlqTopic()).isEqualTo("broker.cdc_lab.orders.dlq");
    assertThat(layout.cleanTopicsRegex()).isEqualTo("broker\\.cdc_lab\\.[^.]+\\.clean");
    assertThat(layout.currentTable()).isEqualTo("cdc_lab.orders_current");
    assertThat(layout.changelogTable()).isEqualTo("cdc_lab.orders_changelog");
    assertThat(layout.changelogSinkDlq()).isEqualTo("sluice-changelog-sink.dlq");
  }

  @Test
  void unknownRouterKeyIsRefusedByName() {
    assertThatThrownBy(() -> with(Map.of("dlq.suffix", ".x"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--router-config dlq.suffix: not a router setting");
  }

  @Test
  void badRouterValueIsRefusedByTheRoutersOwnDefinition() {
    assertThatThrownBy(() -> with(Map.of("dlq.topic.suffix", ".clean"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--router-config")
        .hasMessageContaining("dlq.topic.suffix");
  }

  @Test
  void routerKeysTheStackOwnsAreRefused() {
    assertThatThrownBy(() -> with(Map.of("bootstrap.servers", "elsewhere:9092"), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--router-config bootstrap.servers: the stack sets this itself");
  }

  @Test
  void kafkaStreamsSettingsPassWithTheirPrefix() {
    StackOptions options = with(Map.of("streams.commit.interval.ms", "500"), Map.of());

    assertThat(options.routerConfig()).containsEntry("streams.commit.interval.ms", "500");
  }

  @Test
  void sinkSettingsAreCheckedByTheSinksDefinition() {
    assertThat(with(Map.of(), Map.of("commit.interval.ms", "500")).sinkConfig())
        .containsEntry("commit.interval.ms", "500");
    assertThatThrownBy(() -> with(Map.of(), Map.of("commit.interval.ms", "5")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--sink-config commit.interval.ms=5");
    assertThatThrownBy(() -> with(Map.of(), Map.of("no.such.key", "1")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--sink-config no.such.key: not an upsert sink setting");
    assertThatThrownBy(() -> with(Map.of(), Map.of("topics.regex", ".*")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("--sink-config topics.regex: the stack sets this itself");
  }

  @Test
  void aSinkSuffixOtherThanTheRoutersIsRefusedNamingBoth() {
    assertThatThrownBy(
            () ->
                with(
                    Map.of("dlq.topic.suffix", ".quarantine"), Map.of("dlq.topic.suffix", ".dead")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "--sink-config dlq.topic.suffix=.dead differs from the router's"
                + " dlq.topic.suffix=.quarantine (--router-config)")
        .hasMessageContaining("set it with --router-config dlq.topic.suffix=.dead")
        .hasMessageContaining("leave it out of --sink-config");
    assertThatThrownBy(() -> with(Map.of(), Map.of("clean.topic.suffix", ".ok")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining(
            "--sink-config clean.topic.suffix=.ok differs from the router's"
                + " clean.topic.suffix=.clean (its default)");
  }

  @Test
  void aSinkSuffixEqualToTheRoutersIsAccepted() {
    StackOptions options =
        with(
            Map.of("dlq.topic.suffix", ".quarantine"),
            Map.of("dlq.topic.suffix", ".quarantine", "clean.topic.suffix", ".clean"));

    assertThat(options.sinkConfig()).containsEntry("dlq.topic.suffix", ".quarantine");
    assertThat(options.layout().dlqTopic()).isEqualTo("broker.cdc_lab.orders.quarantine");
  }

  @Test
  void theSinksBrokerAndCatalogAreTheStacks() {
    for (String key :
        List.of(
            "kafka.bootstrap.servers",
            "iceberg.catalog.name",
            "iceberg.catalog.type",
            "iceberg.catalog.uri",
            "metrics.port")) {
      assertThatThrownBy(() -> with(Map.of(), Map.of(key, "elsewhere")))
          .as(key)
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("--sink-config " + key + ": the stack sets this itself");
    }
  }
}
