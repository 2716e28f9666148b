package io.sluice.connect.upsert.metrics;

import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.connect.upsert.config.UpsertSinkConfig;
import io.sluice.connect.upsert.error.SinkErrorCode;
import io.sluice.connect.upsert.event.BatchPreparer;
import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.event.SourceOp;
import io.sluice.connect.upsert.table.TableNames;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.Test;

class SinkMetersTest {
  private static final String TOPIC = "broker.cdc_lab.orders.clean";
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final long NOW = 1_700_000_010_000L;
  private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC);
  private static final TableNames NAMES =
      new TableNames(
          Pattern.compile(UpsertSinkConfig.TABLE_TOPIC_REGEX_DEFAULT),
          UpsertSinkConfig.TABLE_NAME_FORMAT_DEFAULT);

  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final SinkMeters meters = new SinkMeters(registry, CLOCK);
  private final SinkMetrics task = new SinkMetrics(meters, "orders-upsert", NAMES);

  @Test
  void recordsAreCountedByTheTableOfTheirTopicAndTheirSourceOp() {
    task.received(TOPIC, event(SourceOp.CREATE, 1, 1, ChangeEvent.NO_TIME));
    task.received(TOPIC, event(SourceOp.CREATE, 2, 2, ChangeEvent.NO_TIME));
    task.received(TOPIC, event(SourceOp.READ, 3, 3, ChangeEvent.NO_TIME));
    task.received(TOPIC, event(SourceOp.DELETE, 4, 3, ChangeEvent.NO_TIME));
    task.received(TOPIC, null);

    assertThat(records("c")).isEqualTo(2);
    assertThat(records("r")).isEqualTo(1);
    assertThat(records("u")).as("registered before the first update").isZero();
    assertThat(records("d")).isEqualTo(1);
    assertThat(records("tombstone")).isEqualTo(1);
  }

  @Test
  void everyQuarantineCodeIsCountedFromZeroSoARateOfItHasData() {
    TableMeters table = meters.table("orders-upsert", TABLE.toString());
    for (SinkErrorCode code : SinkErrorCode.values()) {
      assertThat(quarantined(code)).as("%s before any quarantine", code).isZero();
    }

    table.quarantined(SinkErrorCode.SINK_DECIMAL_OUT_OF_RANGE.name());

    assertThat(quarantined(SinkErrorCode.SINK_DECIMAL_OUT_OF_RANGE)).isEqualTo(1);
    assertThat(quarantined(SinkErrorCode.SINK_NULL_KEY_FIELD)).isZero();
  }

  private double quarantined(SinkErrorCode code) {
    return registry
        .get(SinkMeters.QUARANTINED)
        .tag("table", TABLE.toString())
        .tag("code", code.name())
        .counter()
        .count();
  }

  @Test
  void aCommitCountsTheRowsItWroteAndTimesFreshnessFromTheSourceTime() {
    List<ChangeEvent> events =
        List.of(
            event(SourceOp.CREATE, 1, 1, NOW - 10_000),
            event(SourceOp.UPDATE, 2, 1, NOW - 5_000),
            event(SourceOp.DELETE, 3, 2, NOW - 2_000),
            event(SourceOp.CREATE, 4, 3, ChangeEvent.NO_TIME));
    TableMeters table = task.table(TABLE);
    assertThat(registry.find(SinkMeters.LAST_COMMIT_TIMESTAMP).gauge())
        .as("no last-commit gauge before the first commit")
        .isNull();

    table.committed(
        BatchPreparer.prepare(events, events.stream().map(e -> e.key().get("id")).toList()),
        events,
        42_000_000L);

    assertThat(counter(SinkMeters.ROWS_UPSERTED)).as("keys 1 and 3").isEqualTo(2);
    assertThat(counter(SinkMeters.ROWS_DELETED)).as("key 2").isEqualTo(1);
    assertThat(commits("success")).isEqualTo(1);
    assertThat(commits("failure")).isZero();
    Timer duration = registry.get(SinkMeters.COMMIT_DURATION).timer();
    assertThat(duration.count()).isEqualTo(1);
    assertThat(duration.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(42);
    Timer freshness = registry.get(SinkMeters.FRESHNESS).tags("table", TABLE.toString()).timer();
    assertThat(freshness.count()).as("events with a source time").isEqualTo(3);
    assertThat(freshness.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(17_000);
    assertThat(freshness.max(TimeUnit.MILLISECONDS)).isEqualTo(10_000);
    assertThat(registry.get(SinkMeters.LAST_COMMIT_TIMESTAMP).gauge().value())
        .isEqualTo(NOW / 1000.0);
  }

  @Test
  void aFailedCommitCountsNoRows() {
    TableMeters table = task.table(TABLE);
    table.commitFailed();
    assertThat(commits("failure")).isEqualTo(1);
    assertThat(commits("success")).isZero();
    assertThat(counter(SinkMeters.ROWS_UPSERTED)).isZero();
    assertThat(registry.get(SinkMeters.COMMIT_DURATION).timer().count()).isZero();
  }

  @Test
  void tasksOfOneConnectorShareTheirTablesMetersAndConnectorsDoNot() {
    SinkMetrics sameConnector = new SinkMetrics(meters, "orders-upsert", NAMES);
    SinkMetrics otherConnector = new SinkMetrics(meters, "orders-copy", NAMES);
    assertThat(sameConnector.table(TABLE)).isSameAs(task.table(TABLE));
    assertThat(otherConnector.table(TABLE)).isNotSameAs(task.table(TABLE));

    List<ChangeEvent> one = List.of(event(SourceOp.CREATE, 1, 1, NOW));
    task.table(TABLE).committed(one, one, 1);
    sameConnector.table(TABLE).committed(one, one, 1);
    assertThat(counter(SinkMeters.ROWS_UPSERTED)).isEqualTo(2);
    assertThat(registry.get(SinkMeters.LAST_COMMIT_TIMESTAMP).gauges()).hasSize(1);
  }

  @Test
  void prometheusShowsTheNamesTheDashboardsQuery() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    SinkMetrics metrics =
        new SinkMetrics(new SinkMeters(prometheus, CLOCK), "orders-upsert", NAMES);
    ChangeEvent create = event(SourceOp.CREATE, 1, 1, NOW - 1_500);
    metrics.received(TOPIC, create);
    metrics.table(TABLE).committed(List.of(create), List.of(create), 200_000_000L);

    String tags = "connector=\"orders-upsert\",table=\"cdc_lab.orders_current\"";
    assertThat(prometheus.scrape())
        .contains("sluice_sink_records_total{connector=\"orders-upsert\",op=\"c\",")
        .contains("sluice_sink_rows_upserted_total{" + tags + "} 1.0")
        .contains("sluice_sink_rows_deleted_total{" + tags + "} 0.0")
        .contains(
            "sluice_sink_commits_total{connector=\"orders-upsert\",result=\"success\","
                + "table=\"cdc_lab.orders_current\"} 1.0")
        .contains("sluice_sink_commit_duration_seconds_count{" + tags + "} 1")
        .contains("sluice_sink_commit_duration_seconds_bucket{" + tags + ",le=\"0.25\"} 1")
        .contains("sluice_sink_freshness_seconds_bucket{" + tags + ",le=\"1.0\"} 0")
        .contains("sluice_sink_freshness_seconds_bucket{" + tags + ",le=\"2.0\"} 1")
        .contains("sluice_sink_freshness_seconds_max{" + tags + "} 1.5")
        .contains("sluice_sink_last_commit_timestamp_seconds{" + tags + "} 1.70000001E9");
    prometheus.close();
  }

  @Test
  void theKeyIndexSizeShowsItsBytesAndThePartInMappedFiles() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    TableMeters table = new SinkMeters(prometheus, CLOCK).table("orders-upsert", TABLE.toString());
    String tags = "connector=\"orders-upsert\",table=\"cdc_lab.orders_current\"";
    assertThat(prometheus.scrape())
        .contains("sluice_sink_key_index_spilled_bytes{" + tags + "} 0.0");

    table.keyIndexSize(1_000, 40_960, 32_768);

    assertThat(prometheus.scrape())
        .contains("sluice_sink_key_index_keys{" + tags + "} 1000.0")
        .contains("sluice_sink_key_index_bytes{" + tags + "} 40960.0")
        .contains("sluice_sink_key_index_spilled_bytes{" + tags + "} 32768.0");
    prometheus.close();
  }

  @Test
  void duplicateKeysFoundAtAnIndexBuildCountFromZero() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    TableMeters table = new SinkMeters(prometheus, CLOCK).table("orders-upsert", TABLE.toString());
    String series =
        "sluice_sink_duplicate_keys_total{connector=\"orders-upsert\",found=\"index-build\","
            + "table=\"cdc_lab.orders_current\"}";
    assertThat(prometheus.scrape()).contains(series + " 0.0");

    table.duplicateKeys("index-build", 0);
    table.duplicateKeys("index-build", 2);

    assertThat(prometheus.scrape()).contains(series + " 2.0");
    prometheus.close();
  }

  @Test
  void maintenanceRewritesCountFromZeroAndTheTableGaugesAppearWithTheFirstPass() {
    PrometheusMeterRegistry prometheus = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    MaintenanceMeters maintenance =
        new SinkMeters(prometheus, CLOCK).table("orders-upsert", TABLE.toString()).maintenance();
    String tags = "connector=\"orders-upsert\",table=\"cdc_lab.orders_current\"";
    assertThat(prometheus.scrape())
        .contains(
            "sluice_sink_maintenance_rewrites_total{connector=\"orders-upsert\","
                + "result=\"failure\",table=\"cdc_lab.orders_current\"} 0.0")
        .doesNotContain("sluice_sink_table_delete_files")
        .doesNotContain("sluice_sink_offsets_retired_partitions")
        .doesNotContain("sluice_sink_maintenance_last_timestamp_seconds");

    maintenance.offsetsRetired(2);
    maintenance.inspected(new TableFileCounts(3, 2, 1, 40, 7));
    maintenance.rewritten();
    maintenance.ran(250_000_000L);

    assertThat(prometheus.scrape())
        .contains("sluice_sink_table_data_files{" + tags + "} 3.0")
        .contains(
            "sluice_sink_table_delete_files{connector=\"orders-upsert\",kind=\"equality\","
                + "table=\"cdc_lab.orders_current\"} 2.0")
        .contains(
            "sluice_sink_table_delete_files{connector=\"orders-upsert\",kind=\"position\","
                + "table=\"cdc_lab.orders_current\"} 1.0")
        .contains("sluice_sink_table_equality_deleted_rows{" + tags + "} 40.0")
        .contains("sluice_sink_table_snapshots{" + tags + "} 7.0")
        .contains("sluice_sink_offsets_retired_partitions{" + tags + "} 2.0")
        .contains(
            "sluice_sink_maintenance_rewrites_total{connector=\"orders-upsert\","
                + "result=\"success\",table=\"cdc_lab.orders_current\"} 1.0")
        .contains("sluice_sink_maintenance_last_duration_seconds{" + tags + "} 0.25")
        .contains("sluice_sink_maintenance_last_timestamp_seconds{" + tags + "} 1.70000001E9");
    maintenance.inspected(new TableFileCounts(1, 0, 0, 0, 8));
    assertThat(prometheus.scrape()).contains("sluice_sink_table_data_files{" + tags + "} 1.0");
    prometheus.close();
  }

  private double records(String op) {
    return registry
        .get(SinkMeters.RECORDS)
        .tags("connector", "orders-upsert", "table", TABLE.toString(), "op", op)
        .counter()
        .count();
  }

  private double commits(String result) {
    return registry.get(SinkMeters.COMMITS).tags("result", result).counter().count();
  }

  private double counter(String name) {
    return registry.get(name).counters().stream().mapToDouble(Counter::count).sum();
  }

  private static ChangeEvent event(SourceOp op, long offset, int id, long sourceTimeMs) {
    return new ChangeEvent(
        TOPIC,
        0,
        offset,
        op,
        key(id),
        op == SourceOp.DELETE ? null : row(id, "c" + id),
        sourceTimeMs);
  }
}
