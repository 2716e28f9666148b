package io.sluice.bench.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.bench.sink.TestTable;
import io.sluice.lake.IcebergRows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sampler on a table of a real SQLite catalog in a temporary directory (no broker). */
class ScanSamplerTest {
  private static final TableIdentifier TABLE = TestTable.TABLE;
  private static final TableIdentifier COMPACTED =
      TableIdentifier.of("cdc_lab", "orders_current_compacted");

  @TempDir Path dir;
  private TestTable fixture;
  private Catalog catalog;
  private Table table;

  @BeforeEach
  void createTable() throws IOException {
    fixture = new TestTable(dir);
    catalog = fixture.catalog;
    table = fixture.table;
  }

  @AfterEach
  void closeCatalog() {
    fixture.close();
  }

  @Test
  void aTableWithoutSnapshotHasNoSample() {
    assertThat(new ScanSampler(catalog, TABLE, COMPACTED).sample(0, 0)).isEmpty();
    assertThat(TableFiles.of(table, table.currentSnapshot())).isEqualTo(TableFiles.NONE);
  }

  @Test
  void aSampleScansTheRowsLeftByDeletesAndCountsEveryKindOfFile() throws IOException {
    DataFile first = fixture.writeData(TestTable.rows(1, 10, 1));
    table.newAppend().appendFile(first).commit();
    // As the sink commits an update of keys 1-3: their equality deletes and the new rows.
    table
        .newRowDelta()
        .addRows(fixture.writeData(TestTable.rows(1, 3, 2)))
        .addDeletes(fixture.writeEqualityDeletes(1, 3))
        .commit();
    // And a position delete of the first file's last row (key 10).
    table.newRowDelta().addDeletes(fixture.writePositionDelete(first, 9)).commit();

    Sample sample = new ScanSampler(catalog, TABLE, COMPACTED).sample(3, 1_234).orElseThrow();

    table.refresh();
    assertThat(sample.snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    assertThat(sample.commits()).isEqualTo(3);
    assertThat(sample.elapsedMs()).isEqualTo(1_234);
    assertThat(sample.rows()).isEqualTo(9);
    assertThat(sample.files()).isEqualTo(new TableFiles(2, 13, 1, 3, 1, 1));
    assertThat(sample.scanMs()).isPositive();
    assertThat(sample.compactedScanMs()).isPositive();
    assertThat(sample.ratio()).isEqualTo(sample.scanMs() / sample.compactedScanMs());
    assertThat(sample.scanWallMs()).isPositive();
    assertThat(sample.wallRatio()).isEqualTo(sample.scanWallMs() / sample.compactedScanWallMs());
    assertThat(sample.compactedBytes()).as("one small Parquet file").isBetween(100L, 10_000L);
    assertThat(catalog.tableExists(COMPACTED)).as("the copy is dropped again").isFalse();
  }

  @Test
  void theCompactedCopyHoldsExactlyTheRowsInOneDataFileWithoutDeletes() throws IOException {
    table.newAppend().appendFile(fixture.writeData(TestTable.rows(1, 10, 1))).commit();
    table
        .newRowDelta()
        .addRows(fixture.writeData(TestTable.rows(4, 6, 2)))
        .addDeletes(fixture.writeEqualityDeletes(4, 6))
        .commit();
    List<Record> scanned = new ArrayList<>();
    IcebergRows.read(table, 0, r -> scanned.add(r.copy()));

    ScanSampler sampler = new ScanSampler(catalog, TABLE, COMPACTED);
    Table copy = sampler.writeCompacted(table, scanned);

    assertThat(TableFiles.of(copy, copy.currentSnapshot()))
        .isEqualTo(new TableFiles(1, 10, 0, 0, 0, 0));
    assertThat(eventIds(copy)).isEqualTo(eventIds(table));
    assertThat(copy.schema().identifierFieldNames()).containsExactly("order_id");
    Table second = sampler.writeCompacted(table, scanned.subList(0, 2));
    assertThat(TableFiles.of(second, second.currentSnapshot()))
        .as("a second copy replaces the first")
        .isEqualTo(new TableFiles(1, 2, 0, 0, 0, 0));
  }

  private static Map<Long, Long> eventIds(Table t) {
    Map<Long, Long> ids = new TreeMap<>();
    IcebergRows.read(
        t, 0, r -> ids.put((Long) r.getField("order_id"), (Long) r.getField("event_id")));
    return ids;
  }
}
