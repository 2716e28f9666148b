package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.write.RollingFiles;
import io.sluice.connect.upsert.write.RowLineage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Function;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.RollingDataWriter;

/**
 * Writes rows of one partition, as a rewrite reads them with Iceberg's reader (deletes applied),
 * into new data files of about the target size, not committed. On any failure, or when the task
 * stops, the files written so far are deleted.
 */
final class PartitionWriter {
  private final int taskId;
  private final long targetFileSizeBytes;
  private final BooleanSupplier stopping;
  private long attempt;

  PartitionWriter(int taskId, long targetFileSizeBytes, BooleanSupplier stopping) {
    this.taskId = taskId;
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.stopping = stopping;
  }

  /**
   * @param rows the rows to write, read in the schema given (the table's current one, plus the row
   *     lineage columns on v3)
   * @throws CancellationException when the task stops meanwhile
   */
  List<DataFile> write(
      Table table, FileGroup group, Function<Schema, CloseableIterable<Record>> rows) {
    return write(table, group, rows, row -> {});
  }

  /**
   * As {@link #write(Table, FileGroup, Function)}, showing {@code each} every row before it is
   * written. The files are in the order they were written, the rows in each in the order read.
   */
  List<DataFile> write(
      Table table,
      FileGroup group,
      Function<Schema, CloseableIterable<Record>> rows,
      Consumer<Record> each) {
    // The current schema: rows of an older snapshot schema read with it have nulls for columns
    // added since, and the files are written in the schema the table has now.
    // On v3 every row keeps its lineage: a rewrite changes no row.
    Schema carried = RowLineage.carried(table, table.schema());
    PartitionSpec spec = table.specs().get(group.specId());
    RollingDataWriter<Record> writer =
        RollingFiles.open(
            table,
            carried,
            taskId,
            ++attempt,
            "maintenance",
            targetFileSizeBytes,
            spec,
            group.partition());
    try {
      try (CloseableIterable<Record> read = rows.apply(carried)) {
        long count = 0;
        for (Record row : read) {
          if (++count % 1024 == 0 && (stopping.getAsBoolean() || Thread.interrupted())) {
            throw new CancellationException("the task stops");
          }
          each.accept(row);
          writer.write(row);
        }
      } finally {
        writer.close();
      }
      return writer.result().dataFiles();
    } catch (IOException e) {
      RewriteCommit.delete(table, writtenSoFar(writer));
      throw new UncheckedIOException(
          "cannot rewrite " + table.name() + " " + group.name() + ": " + e.getMessage(), e);
    } catch (RuntimeException e) {
      RewriteCommit.delete(table, writtenSoFar(writer));
      throw e;
    }
  }

  private static List<DataFile> writtenSoFar(RollingDataWriter<Record> writer) {
    try {
      return writer.result().dataFiles();
    } catch (RuntimeException e) {
      // The writer did not close: its last file is incomplete, left to orphan removal.
      return List.of();
    }
  }
}
