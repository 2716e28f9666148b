package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.BaseTable;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Which tables the watcher reads, and what it does when one cannot be read, on a real catalog. */
class IcebergWatcherTest {
  private static final Map<String, String> CATALOG = Map.of("name", "mem", "type", "in-memory");

  private final InMemoryCatalog catalog = LakeFixtures.inMemoryCatalog();
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private IcebergWatcher watcher;

  @AfterEach
  void close() {
    if (watcher != null) {
      watcher.close();
    }
  }

  @Test
  void byDefaultEveryTableOfEveryNamespaceIsWatchedAndListedAgainEachRefresh() {
    Table current = create("cdc_lab", "orders_current");
    create("cdc_lab.archive", "orders_2025");
    watcher = watcher(List.of());

    assertThat(watcher.refresh()).isEqualTo(2);
    assertThat(tablesIn(registry.scrape()))
        .containsExactlyInAnyOrder("cdc_lab.orders_current", "cdc_lab.archive.orders_2025");

    create("other", "events");
    catalog.dropTable(TableIdentifier.of("cdc_lab", "archive", "orders_2025"));
    LakeFixtures.append(current, 2);

    assertThat(watcher.refresh()).isEqualTo(2);
    assertThat(tablesIn(registry.scrape()))
        .containsExactlyInAnyOrder("cdc_lab.orders_current", "other.events");
    assertThat(
            Scrape.of(registry.scrape())
                .value(
                    "sluice_iceberg_table_commits_total",
                    Map.of("table", "cdc_lab.orders_current", "operation", "append")))
        .hasValue(1);
  }

  @Test
  void namedNamespacesAndTablesAreTheOnlyOnesWatchedAndAMissingTableHasNoSeries() {
    create("cdc_lab", "orders_current");
    create("cdc_lab", "orders_changelog");
    create("other", "events");
    create("other", "clicks");
    watcher = watcher(List.of("cdc_lab", "other.events", "other.not_yet"));

    assertThat(watcher.refresh()).isEqualTo(3);
    assertThat(tablesIn(registry.scrape()))
        .containsExactlyInAnyOrder(
            "cdc_lab.orders_current", "cdc_lab.orders_changelog", "other.events");

    create("other", "not_yet");
    assertThat(watcher.refresh()).isEqualTo(4);
  }

  @Test
  void aTableThatCannotBeLoadedIsCountedAndTheOthersGoOn() {
    Table broken = create("cdc_lab", "orders_changelog");
    Table fine = create("cdc_lab", "orders_current");
    LakeFixtures.append(broken, 1);
    // Its current metadata file is gone: the catalog points at nothing.
    broken.io().deleteFile(((BaseTable) broken).operations().current().metadataFileLocation());
    watcher = watcher(List.of());

    assertThat(watcher.refresh()).isEqualTo(2);
    LakeFixtures.append(fine, 3);
    assertThat(watcher.refresh()).isEqualTo(2);

    Scrape scrape = Scrape.of(registry.scrape());
    assertThat(
            scrape.value(
                "sluice_iceberg_table_load_failures_total",
                Map.of("table", "cdc_lab.orders_changelog")))
        .hasValue(2);
    assertThat(
            scrape.value(
                "sluice_iceberg_table_load_failures_total",
                Map.of("table", "cdc_lab.orders_current")))
        .hasValue(0);
    assertThat(
            scrape.value("sluice_iceberg_table_records", Map.of("table", "cdc_lab.orders_current")))
        .hasValue(3);
  }

  @Test
  void aCatalogThatCannotBeOpenedFailsTheRefreshAndIsOpenedAgainNextTime() {
    create("cdc_lab", "orders_current");
    AtomicInteger attempts = new AtomicInteger();
    watcher =
        new IcebergWatcher(
            IcebergSettings.NONE.withCatalog(CATALOG),
            new IcebergMetrics(registry),
            settings -> {
              if (attempts.incrementAndGet() == 1) {
                throw new IllegalStateException("catalog at http://rest:8181 unreachable");
              }
              return catalog;
            });

    assertThatThrownBy(watcher::refresh)
        .isInstanceOf(IllegalStateException.class)
        .hasMessage("catalog at http://rest:8181 unreachable");
    assertThat(watcher.refresh()).isEqualTo(1);
    assertThat(attempts).hasValue(2);
  }

  private IcebergWatcher watcher(List<String> tables) {
    return new IcebergWatcher(
        IcebergSettings.NONE.withCatalog(CATALOG).withTables(tables),
        new IcebergMetrics(registry),
        settings -> catalog);
  }

  private Table create(String namespace, String name) {
    Namespace ns = Namespace.of(namespace.split("\\."));
    for (int level = 1; level <= ns.length(); level++) {
      Namespace prefix = Namespace.of(java.util.Arrays.copyOf(ns.levels(), level));
      if (!catalog.namespaceExists(prefix)) {
        catalog.createNamespace(prefix);
      }
    }
    return catalog.createTable(TableIdentifier.of(ns, name), LakeFixtures.ORDERS);
  }

  private static List<String> tablesIn(String scrape) {
    return Scrape.of(scrape).samples().stream()
        .filter(s -> s.name().equals("sluice_iceberg_table_snapshots"))
        .map(s -> s.labels().get("table"))
        .toList();
  }
}
