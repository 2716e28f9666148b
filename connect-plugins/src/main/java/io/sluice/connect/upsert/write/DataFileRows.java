package io.sluice.connect.upsert.write;

import io.sluice.lake.ScanRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The live rows of some data files of one partition at a snapshot, as Iceberg's generic reader
 * returns them (every delete of the snapshot that applies to them applied, row lineage filled in),
 * without reading the partition's other files. {@code IcebergGenerics} reads whole scans only and
 * its reader of one task is package-private, so this plans the scan itself, keeps the tasks of the
 * files asked for, and reads each with the public parts that reader is made of: {@link ScanRows},
 * on the calling thread.
 */
public final class DataFileRows {
  private DataFileRows() {}

  /**
   * The rows of {@code locations}, one file after the other, telling {@code opening} of each file
   * before its first row.
   *
   * @param specId the spec of the partition the files are in
   * @param partition the partition tuple (empty for an unpartitioned spec)
   * @param locations data files of that partition live at {@code snapshot}
   * @param projection the schema of the rows returned (the table's, plus row lineage columns)
   * @throws IllegalStateException when a file is not live at {@code snapshot}
   */
  public static CloseableIterable<Record> read(
      Table table,
      Snapshot snapshot,
      int specId,
      StructLike partition,
      Set<String> locations,
      Schema projection,
      Consumer<DataFile> opening) {
    List<FileScanTask> tasks = tasks(table, snapshot, specId, partition, locations);
    // Lazy: concat opens each file once the rows before it are read, and closes it after.
    return CloseableIterable.concat(
        () ->
            tasks.stream()
                .map(
                    task -> {
                      opening.accept(task.file());
                      return open(table, task, projection);
                    })
                .iterator());
  }

  private static List<FileScanTask> tasks(
      Table table, Snapshot snapshot, int specId, StructLike partition, Set<String> locations) {
    Map<String, FileScanTask> live = live(table, snapshot, specId, partition, locations);
    if (!live.keySet().equals(locations)) {
      Set<String> missing = new HashSet<>(locations);
      missing.removeAll(live.keySet());
      throw new IllegalStateException(
          "data files "
              + missing
              + " are not live in snapshot "
              + snapshot.snapshotId()
              + " of "
              + table.name());
    }
    return new ArrayList<>(live.values());
  }

  /**
   * The scan tasks of those of {@code locations} that are live at {@code snapshot}, by location,
   * each with every delete file that applies to it there; in the order the scan plans them.
   */
  public static Map<String, FileScanTask> live(
      Table table, Snapshot snapshot, int specId, StructLike partition, Set<String> locations) {
    PartitionSpec spec = table.specs().get(specId);
    Map<String, FileScanTask> tasks = new LinkedHashMap<>();
    // planFiles, not planTasks: one task per whole file, with every delete file that applies.
    try (CloseableIterable<FileScanTask> planned =
        ScanRows.plan(
            table
                .newScan()
                .useSnapshot(snapshot.snapshotId())
                .filter(PartitionFilter.of(table.schema(), spec, partition)))) {
      planned.forEach(
          task -> {
            if (locations.contains(task.file().location())) {
              tasks.put(task.file().location(), task);
            }
          });
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return tasks;
  }

  /**
   * One file's rows with its deletes applied. No residual filter: the scan's filter selects the
   * partition, which every row of the file is in.
   */
  private static CloseableIterable<Record> open(Table table, FileScanTask task, Schema projection) {
    return open(table, task, projection, null);
  }

  /**
   * One file's rows with its deletes applied, but those of row groups that {@code filter} shows to
   * hold no matching row: a row returned may still not match.
   *
   * @param projection the schema of the rows returned, which may hold {@code _pos}
   * @param filter a filter of the table's columns; null: none
   */
  static CloseableIterable<Record> open(
      Table table, FileScanTask task, Schema projection, Expression filter) {
    return ScanRows.open(table, task, projection, filter);
  }
}
