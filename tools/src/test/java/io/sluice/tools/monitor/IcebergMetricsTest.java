package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.api.Test;

class IcebergMetricsTest {
  private static final String TABLE = "cdc_lab.orders_current";
  private static final Map<String, String> TAGS = Map.of("table", TABLE);

  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final IcebergMetrics metrics = new IcebergMetrics(registry);

  @Test
  void aTablesFirstReadingRegistersEveryCommitCounterAtZeroAndItsTotals() {
    metrics.table(TABLE).publish(new TableReading(1_767_225_600_500L, 4, 120, 4, 3, 9, Map.of()));

    Scrape scrape = Scrape.of(registry.scrape());
    for (String operation : TableReading.OPERATIONS) {
      assertThat(commits(scrape, operation)).as(operation).isEqualTo(0.0);
    }
    assertThat(value(scrape, "sluice_iceberg_table_last_commit_timestamp_seconds"))
        .isEqualTo(1_767_225_600.5);
    assertThat(value(scrape, "sluice_iceberg_table_snapshots")).isEqualTo(4.0);
    assertThat(value(scrape, "sluice_iceberg_table_records")).isEqualTo(120.0);
    assertThat(value(scrape, "sluice_iceberg_table_data_files")).isEqualTo(4.0);
    assertThat(value(scrape, "sluice_iceberg_table_delete_files")).isEqualTo(3.0);
    assertThat(value(scrape, "sluice_iceberg_table_equality_deletes")).isEqualTo(9.0);
    assertThat(value(scrape, "sluice_iceberg_table_load_failures_total")).isEqualTo(0.0);
    assertThat(scrape.value("sluice_iceberg_refresh_failures_total", Map.of())).hasValue(0);
  }

  @Test
  void newCommitsAddUpByOperationAndGaugesFollowTheLatestReading() {
    IcebergMetrics.TableMeters meters = metrics.table(TABLE);
    meters.publish(new TableReading(1_000, 1, 10, 1, 0, 0, Map.of()));
    meters.publish(new TableReading(2_000, 3, 12, 3, 2, 2, Map.of("overwrite", 2L)));
    meters.publish(new TableReading(3_000, 5, 12, 3, 2, 2, Map.of("overwrite", 1L, "other", 1L)));

    Scrape scrape = Scrape.of(registry.scrape());
    assertThat(commits(scrape, "overwrite")).isEqualTo(3.0);
    assertThat(commits(scrape, "append")).isEqualTo(0.0);
    assertThat(commits(scrape, "other")).isEqualTo(1.0);
    assertThat(value(scrape, "sluice_iceberg_table_last_commit_timestamp_seconds")).isEqualTo(3.0);
    assertThat(value(scrape, "sluice_iceberg_table_snapshots")).isEqualTo(5.0);
    assertThat(value(scrape, "sluice_iceberg_table_equality_deletes")).isEqualTo(2.0);
  }

  @Test
  void aTableWithoutSnapshotHasNoLastCommitSeriesUntilItsFirstCommit() {
    IcebergMetrics.TableMeters meters = metrics.table(TABLE);
    meters.publish(new TableReading(TableReading.NO_COMMIT, 0, 0, 0, 0, 0, Map.of()));

    assertThat(registry.scrape())
        .doesNotContain("sluice_iceberg_table_last_commit_timestamp_seconds{")
        .contains("sluice_iceberg_table_records{table=\"" + TABLE + "\"} 0.0");

    meters.publish(new TableReading(5_000, 1, 1, 1, 0, 0, Map.of("append", 1L)));

    Scrape scrape = Scrape.of(registry.scrape());
    assertThat(value(scrape, "sluice_iceberg_table_last_commit_timestamp_seconds")).isEqualTo(5.0);
    assertThat(commits(scrape, "append")).isEqualTo(1.0);
  }

  @Test
  void aTotalTheSummaryLacksIsNaNNotZero() {
    metrics
        .table(TABLE)
        .publish(new TableReading(1_000, 1, TableReading.UNKNOWN, 2, 0, 0, Map.of()));

    Scrape scrape = Scrape.of(registry.scrape());
    assertThat(value(scrape, "sluice_iceberg_table_records")).isNaN();
    assertThat(value(scrape, "sluice_iceberg_table_data_files")).isEqualTo(2.0);
  }

  @Test
  void aLoadFailureIsCountedWithTheTableEvenBeforeAnyReading() {
    IcebergMetrics.TableMeters meters = metrics.table(TABLE);
    meters.loadFailed();
    meters.loadFailed();

    Scrape scrape = Scrape.of(registry.scrape());
    assertThat(value(scrape, "sluice_iceberg_table_load_failures_total")).isEqualTo(2.0);
    assertThat(scrape.value("sluice_iceberg_table_records", TAGS)).isEmpty();

    meters.publish(new TableReading(1_000, 1, 1, 1, 0, 0, Map.of()));
    assertThat(value(Scrape.of(registry.scrape()), "sluice_iceberg_table_load_failures_total"))
        .isEqualTo(2.0);
  }

  @Test
  void closingATablesMetersRemovesItsSeries() {
    IcebergMetrics.TableMeters meters = metrics.table(TABLE);
    meters.publish(new TableReading(1_000, 1, 1, 1, 0, 0, Map.of("append", 1L)));

    meters.close();

    assertThat(registry.scrape()).doesNotContain(TABLE);
  }

  @Test
  void theLastRefreshIsAnEpochTimestampInSeconds() {
    metrics.refreshed(Instant.parse("2026-03-01T12:00:00Z"));
    metrics.refreshFailed();

    Scrape scrape = Scrape.of(registry.scrape());
    assertThat(scrape.value("sluice_iceberg_last_refresh_timestamp_seconds", Map.of()))
        .hasValue(Instant.parse("2026-03-01T12:00:00Z").getEpochSecond());
    assertThat(scrape.value("sluice_iceberg_refresh_failures_total", Map.of())).hasValue(1);
  }

  private static double value(Scrape scrape, String name) {
    return scrape.value(name, TAGS).orElseThrow(() -> new AssertionError("no " + name));
  }

  private static double commits(Scrape scrape, String operation) {
    return scrape
        .value("sluice_iceberg_table_commits_total", Map.of("table", TABLE, "operation", operation))
        .orElseThrow(() -> new AssertionError("no commits series for " + operation));
  }
}
