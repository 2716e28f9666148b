package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.contract.TopicNames;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MonitorMetricsTest {
  private static final Instant NOW = Instant.parse("2026-03-01T12:00:00Z");
  private static final String DLQ = "broker.cdc_lab.orders.dlq";
  private static final String TAGS = "dlq_topic=\"" + DLQ + "\",topic=\"broker.cdc_lab.orders\"";
  private static final QuarantineCause ROUTER =
      new QuarantineCause("router", "NOT_AVRO_WIRE_FORMAT");
  private static final QuarantineCause SINK =
      new QuarantineCause("sink", "SINK_DECIMAL_OUT_OF_RANGE");

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final MonitorMetrics metrics =
      new MonitorMetrics(registry, Clock.fixed(NOW, ZoneOffset.UTC), TopicNames.DEFAULTS);

  @Test
  void aNewDlqTopicShowsZerosForEverySeriesTheDashboardsQuery() {
    metrics.dlqTopic(DLQ, DlqSnapshot.EMPTY);

    assertThat(registry.scrape())
        .contains("sluice_dlq_records{" + causeTags(QuarantineCause.UNREADABLE) + "} 0.0")
        .contains("sluice_dlq_inputs{" + causeTags(QuarantineCause.UNREADABLE) + "} 0.0")
        .contains("sluice_dlq_backlog_records{" + causeTags(QuarantineCause.UNREADABLE) + "} 0.0")
        .contains("sluice_dlq_oldest_unrepaired_age_seconds{" + TAGS + "} 0.0")
        .contains("sluice_dlq_records_handled_total{action=\"repaired\"," + TAGS + "} 0.0")
        .contains("sluice_dlq_records_handled_total{action=\"replayed\"," + TAGS + "} 0.0")
        .contains(
            "sluice_dlq_unreadable_records_total{dlq_topic=\""
                + DLQ
                + "\",kind=\"envelope\",topic=\"broker.cdc_lab.orders\"} 0.0")
        .contains(
            "sluice_dlq_unreadable_records_total{dlq_topic=\""
                + DLQ
                + "\",kind=\"ledger\",topic=\"broker.cdc_lab.orders\"} 0.0")
        .contains("sluice_monitor_refresh_failures_total 0.0");
  }

  @Test
  void theOldestAgeIsNowMinusTheOldestQuarantineTime() {
    MonitorMetrics.DlqMeters meters = metrics.dlqTopic(DLQ, DlqSnapshot.EMPTY);

    meters.publish(
        new DlqSnapshot(
            Map.of(ROUTER, 5L),
            Map.of(ROUTER, 4L),
            Map.of(ROUTER, 2L),
            NOW.minusSeconds(90),
            3,
            1,
            0,
            0));

    assertThat(meters.oldestAgeSeconds()).isEqualTo(90.0);
    assertThat(registry.scrape())
        .contains("sluice_dlq_oldest_unrepaired_age_seconds{" + TAGS + "} 90.0")
        .contains("sluice_dlq_backlog_records{" + causeTags(ROUTER) + "} 2.0")
        .contains("sluice_dlq_records{" + causeTags(ROUTER) + "} 5.0")
        .contains("sluice_dlq_inputs{" + causeTags(ROUTER) + "} 4.0")
        .contains("sluice_dlq_records_handled_total{action=\"repaired\"," + TAGS + "} 3.0")
        .contains("sluice_dlq_records_handled_total{action=\"replayed\"," + TAGS + "} 1.0");
  }

  @Test
  void aRestartedMonitorRegistersItsCountersAtWhatTheLedgerHolds() {
    metrics.dlqTopic(
        DLQ, new DlqSnapshot(Map.of(ROUTER, 4L), Map.of(ROUTER, 4L), Map.of(), null, 4, 0, 0, 0));

    assertThat(registry.scrape())
        .contains("sluice_dlq_records_handled_total{action=\"repaired\"," + TAGS + "} 4.0")
        .doesNotContain("sluice_dlq_records_handled_total{action=\"repaired\"," + TAGS + "} 0.0");
  }

  @Test
  void recordsAndBacklogHaveASeriesPerStageAndCodeThatStaysOnceSeen() {
    MonitorMetrics.DlqMeters meters = metrics.dlqTopic(DLQ, DlqSnapshot.EMPTY);
    QuarantineCause connect = new QuarantineCause("sink", "SINK_CONNECT_VALUE_CONVERTER");

    meters.publish(
        new DlqSnapshot(
            Map.of(ROUTER, 2L, SINK, 1L, connect, 1L, QuarantineCause.UNREADABLE, 1L),
            Map.of(ROUTER, 2L, SINK, 1L, connect, 1L, QuarantineCause.UNREADABLE, 1L),
            Map.of(ROUTER, 2L, SINK, 1L, connect, 1L),
            NOW,
            0,
            0,
            1,
            0));
    assertThat(registry.scrape())
        .contains("sluice_dlq_records{" + causeTags(ROUTER) + "} 2.0")
        .contains("sluice_dlq_records{" + causeTags(SINK) + "} 1.0")
        .contains("sluice_dlq_records{" + causeTags(connect) + "} 1.0")
        .contains("sluice_dlq_records{" + causeTags(QuarantineCause.UNREADABLE) + "} 1.0")
        .contains("sluice_dlq_backlog_records{" + causeTags(SINK) + "} 1.0");

    meters.publish(
        new DlqSnapshot(
            Map.of(ROUTER, 2L, SINK, 1L, connect, 1L, QuarantineCause.UNREADABLE, 1L),
            Map.of(ROUTER, 2L, SINK, 1L, connect, 1L, QuarantineCause.UNREADABLE, 1L),
            Map.of(ROUTER, 2L),
            NOW,
            0,
            2,
            1,
            0));

    Scrape scrape = Scrape.of(registry.scrape());
    assertThat(scrape.value("sluice_dlq_backlog_records", labels(SINK))).hasValue(0);
    assertThat(scrape.value("sluice_dlq_backlog_records", labels(connect))).hasValue(0);
    assertThat(scrape.value("sluice_dlq_backlog_records", labels(ROUTER))).hasValue(2);
  }

  @Test
  void closingADlqTopicsMetersRemovesItsSeries() {
    metrics.dlqTopic(DLQ, DlqSnapshot.EMPTY).close();

    assertThat(registry.scrape()).doesNotContain(DLQ);
  }

  @Test
  void lagRowsAreReplacedSoAGroupThatIsGoneLosesItsSeries() {
    metrics.lag(
        Map.of(
            new GroupTopic("connect-sluice-upsert-sink", "broker.cdc_lab.orders.clean"), 12L,
            new GroupTopic("old-group", "t"), 3L));
    assertThat(registry.scrape())
        .contains(
            "sluice_consumer_group_lag_records{group=\"connect-sluice-upsert-sink\","
                + "topic=\"broker.cdc_lab.orders.clean\"} 12.0")
        .contains("group=\"old-group\"");

    metrics.lag(
        Map.of(new GroupTopic("connect-sluice-upsert-sink", "broker.cdc_lab.orders.clean"), 0L));

    assertThat(registry.scrape())
        .contains(
            "sluice_consumer_group_lag_records{group=\"connect-sluice-upsert-sink\","
                + "topic=\"broker.cdc_lab.orders.clean\"} 0.0")
        .doesNotContain("old-group");
  }

  @Test
  void theLastRefreshIsAnEpochTimestampInSeconds() {
    metrics.refreshed(NOW);

    assertThat(
            Scrape.of(registry.scrape())
                .value("sluice_monitor_last_refresh_timestamp_seconds", Map.of()))
        .hasValue(NOW.getEpochSecond());
  }

  /** The labels of a per-cause series as Prometheus renders them (sorted by name). */
  private static String causeTags(QuarantineCause cause) {
    return "dlq_topic=\""
        + DLQ
        + "\",error_code=\""
        + cause.errorCode()
        + "\",stage=\""
        + cause.stage()
        + "\",topic=\"broker.cdc_lab.orders\"";
  }

  private static Map<String, String> labels(QuarantineCause cause) {
    return Map.of("dlq_topic", DLQ, "stage", cause.stage(), "error_code", cause.errorCode());
  }

  @Test
  void theSourceTopicIsTheDlqTopicWithoutItsSuffix() {
    assertThat(metrics.sourceTopic(DLQ)).isEqualTo("broker.cdc_lab.orders");
    assertThat(metrics.sourceTopic("quarantine")).isEqualTo("quarantine");
    assertThat(metrics.sourceTopic(".dlq")).isEqualTo(".dlq");
  }

  @Test
  void withAnotherDlqSuffixTheTopicLabelIsStillTheInputTopic() {
    MonitorMetrics custom =
        new MonitorMetrics(
            registry, Clock.fixed(NOW, ZoneOffset.UTC), TopicNames.of(".clean", ".quarantine"));
    assertThat(custom.sourceTopic("broker.cdc_lab.orders.quarantine"))
        .isEqualTo("broker.cdc_lab.orders");
    assertThat(custom.sourceTopic(DLQ)).as("not a DLQ topic of this router").isEqualTo(DLQ);

    custom.dlqTopic("broker.cdc_lab.orders.quarantine", DlqSnapshot.EMPTY);

    assertThat(registry.scrape())
        .contains(
            "sluice_dlq_backlog_records{dlq_topic=\"broker.cdc_lab.orders.quarantine\","
                + "error_code=\"UNREADABLE\",stage=\"unknown\",topic=\"broker.cdc_lab.orders\"} 0.0");
  }
}
