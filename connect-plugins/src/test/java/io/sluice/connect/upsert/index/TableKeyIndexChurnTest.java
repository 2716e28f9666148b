package io.sluice.connect.upsert.index;

import static io.sluice.connect.upsert.index.KeyTable.KEY;
import static io.sluice.connect.upsert.index.KeyTable.key;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.Table;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A table whose keys churn through files: each round another writer appends a file of new keys and
 * removes the oldest (a queue table drained file by file). The index caught up each round places
 * the keys of the files present and none of the removed ones, in bytes that follow the live keys.
 */
class TableKeyIndexChurnTest {
  private static final int ROWS_PER_FILE = 500;
  private static final int FILES_KEPT = 4;
  private static final int ROUNDS = 24;

  @TempDir Path spillDir;
  private final KeyTable keys = new KeyTable();

  @AfterEach
  void closeCatalog() throws IOException {
    keys.close();
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void keysOfRemovedFilesAreForgottenAndTheBytesFollowTheLiveKeys(boolean spilled) {
    KeyIndexLimits limits =
        spilled
            ? new KeyIndexLimits(1, 1L << 30, spillDir)
            : new KeyIndexLimits(Long.MAX_VALUE, 0, spillDir);
    Deque<DataFile> present = new ArrayDeque<>();
    present.add(keys.append(0, ROWS_PER_FILE));
    Table table = keys.table();
    TableKeyIndex index = TableKeyIndex.build(table, table.currentSnapshot(), KEY, limits);
    for (int round = 1; round <= ROUNDS; round++) {
      present.add(keys.append((long) round * ROWS_PER_FILE, (long) (round + 1) * ROWS_PER_FILE));
      if (present.size() > FILES_KEPT) {
        keys.remove(present.poll());
      }
      assertThat(index.catchUpWithinLimits(keys.table())).isTrue();

      long live = (long) present.size() * ROWS_PER_FILE;
      long first = (long) (round + 1 - present.size()) * ROWS_PER_FILE;
      for (long k = Math.max(0, first - 2 * ROWS_PER_FILE); k < first; k++) {
        assertThat(index.locate(key(k))).as("round %d: key %d was removed", round, k).isNull();
      }
      for (long k = first; k < first + live; k++) {
        assertThat(index.locate(key(k))).as("round %d: key %d", round, k).isNotNull();
        assertThat(index.locate(key(k)).position()).isEqualTo(k % ROWS_PER_FILE);
      }
      // The removed files' rows are forgotten once they outnumber the others (or 1,024); then the
      // absent keys once they outnumber the live ones (or 256).
      assertThat(index.bytes())
          .as("round %d: %d live keys, %d with a slot", round, live, index.keys())
          .isLessThanOrEqualTo(64 * (live + 1024 + 256) + 64L * 2 * FILES_KEPT);
    }
    assertThat(index.spilledBytes() > 0).isEqualTo(spilled);
    index.release();
  }
}
