package io.sluice.bench.maintenance;

import io.sluice.connect.upsert.index.TableKeyIndex;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.types.TypeUtil;

/**
 * The upsert sink's key index of a table, built anew in this JVM from the table's current snapshot
 * ({@link TableKeyIndex#build}, the same build a sink task runs on its first commit to a table and
 * when its index cannot follow the table): its size and how long the build took.
 *
 * @param keys the keys in the index
 * @param bytes the heap bytes it holds ({@link TableKeyIndex#bytes()})
 * @param bytesPerKey {@code bytes / keys}; 0 without keys
 * @param rowsRead the rows read from the live data files, deletes applied
 * @param buildMs the wall-clock time of a second build: planning the scan, reading the key columns,
 *     applying the deletes, filling the index, with the classes loaded and the files in the page
 *     cache, as for a sink task that built an index before
 * @param firstBuildMs the same for the first build, which loaded them
 */
public record KeyIndexRebuild(
    long keys, long bytes, double bytesPerKey, long rowsRead, double buildMs, double firstBuildMs) {
  public static final KeyIndexRebuild NONE = of(0, 0, 0, 0, 0);

  /** The figures of an index of {@code keys} keys in {@code bytes}. */
  public static KeyIndexRebuild of(
      long keys, long bytes, long rowsRead, double buildMs, double firstBuildMs) {
    return new KeyIndexRebuild(
        keys, bytes, keys > 0 ? (double) bytes / keys : 0, rowsRead, buildMs, firstBuildMs);
  }

  /**
   * Builds the key index of {@code table}'s current snapshot twice, keyed by the table's identifier
   * fields as the sink keys it; the second build is the one timed ({@link #buildMs()}). {@link
   * #NONE} when the table has no snapshot.
   */
  public static KeyIndexRebuild of(Table table) {
    Snapshot snapshot = table.currentSnapshot();
    if (snapshot == null) {
      return NONE;
    }
    Schema keySchema = TypeUtil.select(table.schema(), table.schema().identifierFieldIds());
    long started = System.nanoTime();
    TableKeyIndex.build(table, snapshot, keySchema);
    double firstBuildMs = (System.nanoTime() - started) / 1e6;
    started = System.nanoTime();
    TableKeyIndex index = TableKeyIndex.build(table, snapshot, keySchema);
    double buildMs = (System.nanoTime() - started) / 1e6;
    return of(index.keys(), index.bytes(), index.rowsRead(), buildMs, firstBuildMs);
  }
}
