package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.junit.jupiter.api.Test;

/** The current snapshot's summary, as Iceberg writes it, to the values the gauges show. */
class TableReadingTest {
  private final InMemoryCatalog catalog = LakeFixtures.inMemoryCatalog();

  @Test
  void theTotalsComeFromTheCurrentSnapshotsSummary() {
    Table table = table("orders_current");
    LakeFixtures.append(table, 5);
    LakeFixtures.upsert(table, 2, 2);
    LakeFixtures.upsert(table, 1, 1);

    TableReading reading = TableReading.of(table.currentSnapshot(), 3, Map.of("overwrite", 2L));

    assertThat(reading.lastCommitMillis()).isEqualTo(table.currentSnapshot().timestampMillis());
    assertThat(reading.snapshots()).isEqualTo(3);
    // Iceberg's total-records counts rows in data files: deletes are not subtracted.
    assertThat(reading.records()).isEqualTo(8);
    assertThat(reading.dataFiles()).isEqualTo(3);
    assertThat(reading.deleteFiles()).isEqualTo(2);
    assertThat(reading.equalityDeletes()).isEqualTo(3);
    assertThat(reading.newCommits()).containsExactly(Map.entry("overwrite", 2L));
  }

  @Test
  void aTableWithoutSnapshotHasNoCommitAndNothingInIt() {
    TableReading reading = TableReading.of(table("empty").currentSnapshot(), 0, Map.of());

    assertThat(reading.lastCommitMillis()).isEqualTo(TableReading.NO_COMMIT);
    assertThat(reading.records()).isZero();
    assertThat(reading.dataFiles()).isZero();
    assertThat(reading.deleteFiles()).isZero();
    assertThat(reading.equalityDeletes()).isZero();
  }

  @Test
  void aMissingOrUnreadableTotalIsUnknownNotZero() {
    Map<String, String> summary =
        Map.of("total-records", "12", "total-data-files", "x", "total-delete-files", "-3");

    assertThat(TableReading.total(summary, "total-records")).isEqualTo(12);
    assertThat(TableReading.total(summary, "total-data-files")).isEqualTo(TableReading.UNKNOWN);
    assertThat(TableReading.total(summary, "total-delete-files")).isEqualTo(TableReading.UNKNOWN);
    assertThat(TableReading.total(summary, "total-equality-deletes"))
        .isEqualTo(TableReading.UNKNOWN);
    assertThat(TableReading.total(null, "total-records")).isEqualTo(TableReading.UNKNOWN);
  }

  @Test
  void eachCommitKindHasItsOperationLabel() {
    Table table = table("orders_changelog");
    LakeFixtures.append(table, 1);
    assertThat(TableReading.operation(table.currentSnapshot())).isEqualTo("append");
    LakeFixtures.upsert(table, 1, 1);
    assertThat(TableReading.operation(table.currentSnapshot())).isEqualTo("overwrite");
    table
        .newDelete()
        .deleteFromRowFilter(org.apache.iceberg.expressions.Expressions.alwaysTrue())
        .commit();
    assertThat(TableReading.operation(table.currentSnapshot())).isEqualTo("delete");
    assertThat(TableReading.OPERATIONS)
        .containsExactlyInAnyOrder("append", "replace", "overwrite", "delete");
  }

  private Table table(String name) {
    Namespace namespace = Namespace.of("cdc_lab");
    if (!catalog.namespaceExists(namespace)) {
      catalog.createNamespace(namespace);
    }
    return catalog.createTable(TableIdentifier.of(namespace, name), LakeFixtures.ORDERS);
  }
}
