package io.sluice.bench.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sluice.bench.sink.TestTable;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sink's key index built on a table of a real SQLite catalog (no broker). */
class KeyIndexRebuildTest {
  @TempDir Path dir;
  private TestTable fixture;
  private Table table;

  @BeforeEach
  void createTable() throws IOException {
    fixture = new TestTable(dir);
    table = fixture.table;
  }

  @AfterEach
  void closeCatalog() {
    fixture.close();
  }

  @Test
  void theIndexHoldsEveryLiveKeyOnceAndReadsOnlyLiveRows() throws IOException {
    DataFile first = fixture.writeData(TestTable.rows(1, 100, 1));
    table.newAppend().appendFile(first).commit();
    // Keys 1-10 updated with equality deletes, key 100 deleted by position.
    table
        .newRowDelta()
        .addRows(fixture.writeData(TestTable.rows(1, 10, 2)))
        .addDeletes(fixture.writeEqualityDeletes(1, 10))
        .commit();
    table.newRowDelta().addDeletes(fixture.writePositionDelete(first, 99)).commit();

    KeyIndexRebuild rebuild = KeyIndexRebuild.of(table);

    assertThat(rebuild.keys()).isEqualTo(99);
    assertThat(rebuild.rowsRead()).as("89 left in the first file, 10 in the second").isEqualTo(99);
    assertThat(rebuild.bytes()).isPositive();
    assertThat(rebuild.bytesPerKey()).isCloseTo(rebuild.bytes() / 99.0, within(1e-9));
    assertThat(rebuild.buildMs()).isPositive();
    assertThat(rebuild.firstBuildMs()).isPositive();
  }

  @Test
  void aTableWithoutSnapshotHasNoIndex() {
    assertThat(KeyIndexRebuild.of(table)).isEqualTo(KeyIndexRebuild.NONE);
    assertThat(KeyIndexRebuild.NONE.bytesPerKey()).isZero();
  }

  @Test
  void bytesPerKeyIsBytesOverKeys() {
    assertThat(KeyIndexRebuild.of(1_000_000, 40_000_000, 1_000_000, 900, 1_000).bytesPerKey())
        .isEqualTo(40.0);
  }
}
