package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Commits counted from the snapshots that appear between two readings of a table's metadata. */
class TableCommitsTest {
  private static final TableIdentifier ORDERS = TableIdentifier.of("cdc_lab", "orders_current");

  private final InMemoryCatalog catalog = LakeFixtures.inMemoryCatalog();
  private final TableCommits commits = new TableCommits();

  @BeforeEach
  void createNamespace() {
    catalog.createNamespace(Namespace.of("cdc_lab"));
  }

  @Test
  void theFirstReadingCountsNothingThenEachNewSnapshotCountsOnceByOperation() {
    Table table = catalog.createTable(ORDERS, LakeFixtures.ORDERS);
    LakeFixtures.append(table, 3);
    LakeFixtures.append(table, 3);

    TableReading first = commits.read(table);
    assertThat(first.newCommits()).isEmpty();
    assertThat(first.snapshots()).isEqualTo(2);

    DataFile file = LakeFixtures.append(table, 4);
    LakeFixtures.upsert(table, 1, 1);
    LakeFixtures.upsert(table, 1, 1);
    table.newDelete().deleteFile(file).commit();
    TableReading second = commits.read(table);
    assertThat(second.newCommits())
        .containsExactlyInAnyOrderEntriesOf(Map.of("append", 1L, "overwrite", 2L, "delete", 1L));
    assertThat(second.snapshots()).isEqualTo(6);

    assertThat(commits.read(table).newCommits()).as("nothing new").isEmpty();
  }

  @Test
  void commitsToAnotherBranchCountToo() {
    Table table = catalog.createTable(ORDERS, LakeFixtures.ORDERS);
    LakeFixtures.append(table, 1);
    commits.read(table);

    table.manageSnapshots().createBranch("audit", table.currentSnapshot().snapshotId()).commit();
    table.newAppend().appendFile(LakeFixtures.dataFile(table, 2)).toBranch("audit").commit();

    assertThat(commits.read(table).newCommits()).containsExactly(Map.entry("append", 1L));
  }

  @Test
  void expiredSnapshotsNeitherCountNorHideNewOnes() {
    Table table = catalog.createTable(ORDERS, LakeFixtures.ORDERS);
    LakeFixtures.append(table, 1);
    LakeFixtures.append(table, 1);
    commits.read(table);

    LakeFixtures.append(table, 1);
    table.expireSnapshots().retainLast(1).expireOlderThan(Long.MAX_VALUE).commit();
    table.refresh();

    TableReading reading = commits.read(table);
    assertThat(reading.newCommits()).containsExactly(Map.entry("append", 1L));
    assertThat(reading.snapshots()).isEqualTo(1);
  }

  @Test
  void aTableCreatedAgainUnderTheSameNameCountsAllItsSnapshots() {
    Table table = catalog.createTable(ORDERS, LakeFixtures.ORDERS);
    for (int i = 0; i < 3; i++) {
      LakeFixtures.append(table, 1);
    }
    commits.read(table);

    catalog.dropTable(ORDERS, false);
    Table again = catalog.createTable(ORDERS, LakeFixtures.ORDERS);
    LakeFixtures.append(again, 1);

    TableReading reading = commits.read(again);
    assertThat(reading.newCommits()).containsExactly(Map.entry("append", 1L));
    assertThat(reading.records()).isEqualTo(1);
  }
}
