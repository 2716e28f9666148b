package io.sluice.connect.upsert.commit;

import io.sluice.connect.upsert.write.DataFileRows;
import io.sluice.connect.upsert.write.PositionDeletes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Another engine writing the sink's {@code orders} table ({@code id}, {@code customer}) of one
 * unpartitioned spec, through its own catalog client, each operation one commit: a merge-on-read
 * {@code UPDATE} (Spark, a delete by position of the key's row and the new row in a new file), an
 * upsert by equality delete (Flink), and an insert (another task that holds the key).
 */
final class OtherWriter {
  private static final int TASK_ID = 97;

  private final Catalog catalog;
  private final TableIdentifier id;
  private long attempt;

  OtherWriter(Catalog catalog, TableIdentifier id) {
    this.catalog = catalog;
    this.id = id;
  }

  /** What the other engine does to a key. */
  enum Operation {
    MERGE_ON_READ_UPDATE,
    EQUALITY_UPSERT,
    INSERT
  }

  void apply(Operation operation, int key, String customer) {
    switch (operation) {
      case MERGE_ON_READ_UPDATE -> updateByPosition(key, customer);
      case EQUALITY_UPSERT -> upsertByEquality(key, customer);
      case INSERT -> insert(key, customer);
    }
  }

  /** A merge-on-read update: a delete by position of the key's live row and the new row. */
  void updateByPosition(int key, String customer) {
    Table table = catalog.loadTable(id);
    Snapshot base = table.currentSnapshot();
    FileScanTask task = null;
    long position = -1;
    Schema projection = TypeUtil.join(table.schema(), new Schema(MetadataColumns.ROW_POSITION));
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask candidate : tasks) {
        DataFile file = candidate.file();
        try (CloseableIterable<Record> rows =
            DataFileRows.read(
                table,
                base,
                file.specId(),
                file.partition(),
                Set.of(file.location()),
                projection,
                f -> {})) {
          for (Record row : rows) {
            if (row.getField("id").equals(key)) {
              task = candidate;
              position = (Long) row.getField(MetadataColumns.ROW_POSITION.name());
            }
          }
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (task == null) {
      throw new IllegalStateException("key " + key + " has no live row in " + id);
    }
    DataFile file = task.file();
    List<DeleteFile> previous =
        task.deletes().stream().filter(d -> d.content() == FileContent.POSITION_DELETES).toList();
    DeleteWriteResult deletes;
    try {
      deletes =
          PositionDeletes.write(
              table,
              PositionDeletes.files(table, TASK_ID, ++attempt, "other"),
              Map.of(file.location(), List.of(position)),
              Map.of(file.location(), file),
              previous.isEmpty() ? Map.of() : Map.of(file.location(), previous));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    RowDelta delta =
        table
            .newRowDelta()
            .addRows(dataFile(table, key, customer))
            .validateFromSnapshot(base.snapshotId())
            .validateDataFilesExist(List.of(file.location()));
    deletes.deleteFiles().forEach(delta::addDeletes);
    deletes.rewrittenDeleteFiles().forEach(delta::removeDeletes);
    delta.commit();
  }

  /** An upsert as an equality-delete writer makes it: a delete of the key and the new row. */
  void upsertByEquality(int key, String customer) {
    Table table = catalog.loadTable(id);
    Schema keySchema = TypeUtil.select(table.schema(), table.schema().identifierFieldIds());
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table)
            .equalityDeleteRowSchema(keySchema)
            .equalityFieldIds(
                keySchema.columns().stream().mapToInt(Types.NestedField::fieldId).toArray())
            .deleteFileFormat(FileFormat.PARQUET)
            .build();
    PartitionSpec spec = table.spec();
    EqualityDeleteWriter<Record> writer =
        writers.newEqualityDeleteWriter(files(table).newOutputFile(spec, null), spec, null);
    try (writer) {
      writer.write(GenericRecord.create(keySchema).copy(Map.of("id", key)));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    table
        .newRowDelta()
        .addDeletes(writer.toDeleteFile())
        .addRows(dataFile(table, key, customer))
        .commit();
  }

  /** A new row of the key, as a writer that does not know the key's row (another sink task). */
  void insert(int key, String customer) {
    insert(Map.of(key, customer));
  }

  /** New rows of the keys, in one data file. */
  void insert(Map<Integer, String> rows) {
    Table table = catalog.loadTable(id);
    table.newAppend().appendFile(dataFile(table, rows)).commit();
  }

  private DataFile dataFile(Table table, int key, String customer) {
    return dataFile(table, Map.of(key, customer));
  }

  private DataFile dataFile(Table table, Map<Integer, String> rows) {
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(table.schema())
            .dataFileFormat(FileFormat.PARQUET)
            .build();
    PartitionSpec spec = table.spec();
    DataWriter<Record> writer =
        writers.newDataWriter(files(table).newOutputFile(spec, null), spec, null);
    try (writer) {
      rows.forEach(
          (key, customer) ->
              writer.write(
                  GenericRecord.create(table.schema())
                      .copy(Map.of("id", key, "customer", customer))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return writer.toDataFile();
  }

  private OutputFileFactory files(Table table) {
    return OutputFileFactory.builderFor(table, TASK_ID, ++attempt)
        .format(FileFormat.PARQUET)
        .operationId("other-" + UUID.randomUUID())
        .build();
  }
}
