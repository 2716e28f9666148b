package io.sluice.connect.upsert;

import io.sluice.connect.upsert.write.DataFileRows;
import io.sluice.connect.upsert.write.PositionDeletes;
import io.sluice.connect.upsert.write.RollingFiles;
import io.sluice.connect.upsert.write.RowLineage;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.types.TypeUtil;
import org.slf4j.LoggerFactory;

/**
 * Another engine moving some rows of one data file by merge-on-read, as an {@code UPDATE} that sets
 * rows to their own values would: a delete by position of each (a DV merged with the file's DV on
 * v3, a file-scoped position delete on v2) and the same rows, lineage kept, in a new data file, in
 * one {@link RowDelta}. The table reads the same afterwards; what it adds is a delete file for a
 * data file that a sink commit may be copying meanwhile. Its own catalog client.
 */
public final class ExternalRowMove {
  private final Catalog catalog;
  private final TableIdentifier id;
  private final Random random;

  public ExternalRowMove(Catalog catalog, TableIdentifier id, Random random) {
    this.catalog = catalog;
    this.id = id;
    this.random = random;
  }

  /**
   * Moves up to {@code rows} live rows of a data file picked at random; a commit Iceberg refuses is
   * given up.
   *
   * @return a description of what was moved, or null when nothing was
   */
  public String moveOnce(int rows) {
    Table table = catalog.loadTable(id);
    Snapshot base = table.currentSnapshot();
    if (base == null) {
      return null;
    }
    List<FileScanTask> live = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(base.snapshotId()).planFiles()) {
      tasks.forEach(live::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    live.removeIf(t -> t.file().specId() != table.spec().specId());
    if (live.isEmpty()) {
      return null;
    }
    FileScanTask task = live.get(random.nextInt(live.size()));
    DataFile file = task.file();
    Schema carried = RowLineage.carried(table, table.schema());
    Schema projection = TypeUtil.join(carried, new Schema(MetadataColumns.ROW_POSITION));
    int positionField = carried.columns().size();
    List<Record> moved = new ArrayList<>();
    List<Long> positions = new ArrayList<>();
    try (CloseableIterable<Record> read =
        DataFileRows.read(
            table,
            base,
            file.specId(),
            file.partition(),
            Set.of(file.location()),
            projection,
            f -> {})) {
      for (Record row : read) {
        if (moved.size() < rows && random.nextInt(3) == 0) {
          positions.add((Long) row.get(positionField));
          Record copy = GenericRecord.create(carried);
          for (int i = 0; i < positionField; i++) {
            copy.set(i, row.get(i));
          }
          moved.add(copy);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (moved.isEmpty()) {
      return null;
    }
    // Every position delete that applies to the file: a DV merges them all, and on v2 the new
    // file-scoped delete keeps partition-scoped ones (PositionDeletes).
    List<DeleteFile> previous =
        task.deletes().stream().filter(d -> d.content() == FileContent.POSITION_DELETES).toList();
    DataFile added = write(table, file, moved);
    DeleteWriteResult deletes;
    try {
      deletes =
          PositionDeletes.write(
              table,
              PositionDeletes.files(table, 98, 1, "external-move"),
              Map.of(file.location(), positions),
              Map.of(file.location(), file),
              previous.isEmpty() ? Map.of() : Map.of(file.location(), previous));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    RowDelta delta =
        table
            .newRowDelta()
            .addRows(added)
            .validateFromSnapshot(base.snapshotId())
            .validateDataFilesExist(List.of(file.location()))
            // A delete committed since (an equality delete of the sink's) would not apply to the
            // moved rows, which take a new sequence number.
            .validateNoConflictingDeleteFiles();
    deletes.deleteFiles().forEach(delta::addDeletes);
    deletes.rewrittenDeleteFiles().forEach(delta::removeDeletes);
    try {
      delta.commit();
    } catch (ValidationException e) {
      table.io().deleteFile(added.location());
      deletes.deleteFiles().forEach(d -> table.io().deleteFile(d.location()));
      LoggerFactory.getLogger(ExternalRowMove.class)
          .info("External row move in {} refused: {}", id, e.getMessage());
      return null;
    }
    return moved.size() + " rows of " + file.location();
  }

  /** The rows in one new data file of {@code like}'s partition (the sink's own rolling writer). */
  private static DataFile write(Table table, DataFile like, List<Record> rows) {
    RollingDataWriter<Record> writer =
        RollingFiles.open(
            table,
            RowLineage.carried(table, table.schema()),
            98,
            1,
            "external-move",
            Long.MAX_VALUE,
            table.specs().get(like.specId()),
            like.partition());
    try {
      try (writer) {
        rows.forEach(writer::write);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.result().dataFiles().get(0);
  }
}
