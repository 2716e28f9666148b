package io.sluice.bench.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import io.sluice.connect.upsert.commit.UpsertCommitter;
import java.io.IOException;
import java.nio.file.Path;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The tally on snapshots of a table in a real SQLite catalog (no broker). */
class SnapshotTallyTest {
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
  void addedBytesCountDataAndDeleteFilesOfEverySnapshotOnce() throws IOException {
    DataFile first = fixture.writeData(TestTable.rows(1, 100, 1));
    table
        .newAppend()
        .appendFile(first)
        .set(UpsertCommitter.COMMIT_MODE, UpsertCommitter.MODE_MERGE)
        .commit();
    DataFile second = fixture.writeData(TestTable.rows(1, 10, 2));
    DeleteFile equality = fixture.writeEqualityDeletes(1, 10);
    table
        .newRowDelta()
        .addRows(second)
        .addDeletes(equality)
        .set(UpsertCommitter.COMMIT_MODE, UpsertCommitter.MODE_EQUALITY_DELETES)
        .commit();
    DeleteFile position = fixture.writePositionDelete(first, 99);
    table
        .newRowDelta()
        .addDeletes(position)
        .set(UpsertCommitter.COMMIT_MODE, "position-deletes")
        .commit();
    SnapshotTally tally = new SnapshotTally();

    for (Snapshot s : table.snapshots()) {
      tally.add(s);
      tally.add(s);
    }

    SnapshotTally.Totals totals = tally.totals();
    assertThat(totals.addedBytes())
        .as("Iceberg's added-files-size counts the delete files too")
        .isEqualTo(
            first.fileSizeInBytes()
                + second.fileSizeInBytes()
                + equality.fileSizeInBytes()
                + position.fileSizeInBytes());
    assertThat(totals.snapshots()).isEqualTo(3);
    assertThat(totals.unsized()).isZero();
    assertThat(totals.unseenParents()).isZero();
    assertThat(totals.commitModes())
        .as("in the order of their names")
        .containsExactly(
            entry("equality-deletes", 1L), entry("merge", 1L), entry("position-deletes", 1L));
    assertThat(tally.counted(table.currentSnapshot().snapshotId())).isTrue();
  }

  @Test
  void aSnapshotWhoseParentWasNeverSeenCountsAsUnseenAndOneWithoutModeIsNotAMode()
      throws IOException {
    table.newAppend().appendFile(fixture.writeData(TestTable.rows(1, 10, 1))).commit();
    Snapshot expired = table.currentSnapshot();
    table.newAppend().appendFile(fixture.writeData(TestTable.rows(11, 20, 1))).commit();
    SnapshotTally tally = new SnapshotTally();

    tally.add(table.currentSnapshot());

    SnapshotTally.Totals totals = tally.totals();
    assertThat(totals.snapshots()).isEqualTo(1);
    assertThat(totals.unseenParents()).isEqualTo(1);
    assertThat(totals.commitModes()).isEmpty();
    assertThat(tally.counted(expired.snapshotId())).isFalse();
  }
}
