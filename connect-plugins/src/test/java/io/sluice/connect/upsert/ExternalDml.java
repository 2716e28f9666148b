package io.sluice.connect.upsert;

import io.sluice.connect.upsert.write.DataFileRows;
import io.sluice.connect.upsert.write.PositionDeletes;
import io.sluice.connect.upsert.write.RollingFiles;
import io.sluice.connect.upsert.write.RowLineage;
import io.sluice.lake.SameThreadExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
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
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.util.ContentFileUtil;
import org.slf4j.LoggerFactory;

/**
 * Another engine's row-level DML on a table keyed by one {@code id} column, in one {@link
 * RowDelta}, its own catalog client:
 *
 * <ul>
 *   <li>{@link #updateByPosition}: merge-on-read {@code UPDATE}/{@code DELETE} as Spark writes it,
 *       a delete by position of each key's row (a DV merged with the file's DV on v3, a file-scoped
 *       position delete on v2) plus the new rows;
 *   <li>{@link #moveScoped}: rows of two or more data files of one partition moved unchanged with
 *       ONE partition-scoped position-delete file (no referenced data file), as older Spark or
 *       {@code write.delete.granularity=partition} writes them (format v2 only);
 *   <li>{@link #upsertByEquality}: a Flink-style upsert, an equality delete of each key plus its
 *       new row.
 * </ul>
 *
 * New rows are written in the table's current spec, in the partition of their values.
 */
public final class ExternalDml {
  /** A key's new values; {@code v == null && amount == null} with {@code deleted} removes it. */
  public record Change(boolean deleted, String v, Long amount) {
    public static Change delete() {
      return new Change(true, null, null);
    }

    public static Change set(String v, long amount) {
      return new Change(false, v, amount);
    }
  }

  private record Located(FileScanTask task, long position, Record row) {}

  /** What {@link #moveScoped} moved, and the keys of the other live rows of the files it named. */
  public record ScopedMove(String description, Set<Long> neighbours) {}

  private final Catalog catalog;
  private final TableIdentifier id;

  public ExternalDml(Catalog catalog, TableIdentifier id) {
    this.catalog = catalog;
    this.id = id;
  }

  /**
   * Deletes by position the live row of each key of {@code changes} and adds its new row (none for
   * a delete). Keys without a live row are left alone.
   *
   * @return the keys changed; empty when nothing was, or Iceberg refused the commit
   */
  public Set<Long> updateByPosition(Map<Long, Change> changes) {
    Table table = catalog.loadTable(id);
    Snapshot base = table.currentSnapshot();
    if (base == null) {
      return Set.of();
    }
    Map<Long, Located> found = locate(table, base, changes.keySet(), false);
    if (found.isEmpty()) {
      return Set.of();
    }
    Map<String, List<Long>> positions = new LinkedHashMap<>();
    Map<String, DataFile> targets = new HashMap<>();
    Map<String, List<DeleteFile>> previous = new HashMap<>();
    List<Record> added = new ArrayList<>();
    Schema carried = RowLineage.carried(table, table.schema());
    found.forEach(
        (key, at) -> {
          String path = at.task().file().location();
          positions.computeIfAbsent(path, k -> new ArrayList<>()).add(at.position());
          targets.put(path, at.task().file());
          // Every position delete that applies to the file, partition-scoped ones too: once the
          // file has a DV, readers ignore the others.
          List<DeleteFile> had = positionDeletes(at.task());
          if (!had.isEmpty()) {
            previous.put(path, had);
          }
          Change change = changes.get(key);
          if (!change.deleted()) {
            added.add(RowLineage.asNew(withValues(at.row(), table.schema(), change), carried));
          }
        });
    List<DataFile> dataFiles = write(table, carried, added);
    DeleteWriteResult deletes;
    try {
      deletes =
          PositionDeletes.write(
              table,
              PositionDeletes.files(table, 97, 1, "external-dml"),
              positions,
              targets,
              previous);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    RowDelta delta = table.newRowDelta();
    dataFiles.forEach(delta::addRows);
    deletes.deleteFiles().forEach(delta::addDeletes);
    // Only the file's own deletes leave; a partition-scoped one still covers other files.
    deletes.rewrittenDeleteFiles().stream()
        .filter(d -> ContentFileUtil.referencedDataFileLocation(d) != null)
        .forEach(delta::removeDeletes);
    return commit(table, base, delta, List.copyOf(positions.keySet()), dataFiles, deletes)
        ? found.keySet()
        : Set.of();
  }

  /**
   * Format v2: moves the live rows of {@code keys} unchanged (lineage kept) into a new data file,
   * deleting them with one position-delete file for all their data files and no referenced data
   * file. Only keys of one partition that live in at least two data files are taken, at most two of
   * each file.
   *
   * @return what was moved, or null when nothing was
   */
  public ScopedMove moveScoped(Set<Long> keys) {
    Table table = catalog.loadTable(id);
    Snapshot base = table.currentSnapshot();
    if (base == null || TableUtil.formatVersion(table) >= 3) {
      return null;
    }
    Map<Long, Located> found = locate(table, base, keys, true);
    // One partition (of one spec) whose keys sit in at least two files.
    Map<String, List<Located>> byPartition = new LinkedHashMap<>();
    found.values().stream()
        .sorted(Comparator.comparing((Located l) -> l.task().file().location()))
        .forEach(
            l ->
                byPartition
                    .computeIfAbsent(
                        l.task().file().specId() + "/" + l.task().file().partition(),
                        k -> new ArrayList<>())
                    .add(l));
    List<Located> moved =
        byPartition.values().stream()
            .filter(ls -> ls.stream().map(l -> l.task().file().location()).distinct().count() >= 2)
            .findFirst()
            .orElse(null);
    if (moved == null) {
      return null;
    }
    // At most two rows of each file: the delete covers several files, not whole ones.
    Map<String, Integer> perFile = new HashMap<>();
    moved =
        moved.stream()
            .filter(l -> perFile.merge(l.task().file().location(), 1, Integer::sum) <= 2)
            .toList();
    DataFile first = moved.get(0).task().file();
    PartitionSpec spec = table.specs().get(first.specId());
    StructLike partition = spec.isUnpartitioned() ? null : first.partition();
    Schema carried = RowLineage.carried(table, table.schema());
    RollingDataWriter<Record> writer =
        RollingFiles.open(
            table, carried, 97, 2, "external-scoped", Long.MAX_VALUE, spec, first.partition());
    try {
      try (writer) {
        moved.forEach(l -> writer.write(l.row()));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(table.schema())
            .deleteFileFormat(FileFormat.PARQUET)
            .build();
    OutputFileFactory files = PositionDeletes.files(table, 97, 3, "external-scoped");
    PositionDeleteWriter<Record> deletes =
        writers.newPositionDeleteWriter(files.newOutputFile(spec, partition), spec, partition);
    PositionDelete<Record> delete = PositionDelete.create();
    List<Located> ordered =
        moved.stream()
            .sorted(
                Comparator.comparing((Located l) -> l.task().file().location())
                    .thenComparingLong(Located::position))
            .toList();
    try {
      try (deletes) {
        ordered.forEach(l -> deletes.write(delete.set(l.task().file().location(), l.position())));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DeleteFile scoped = deletes.toDeleteFile();
    if (ContentFileUtil.referencedDataFileLocation(scoped) != null) {
      throw new IllegalStateException("a position delete over two files names one: " + scoped);
    }
    List<String> referenced =
        ordered.stream().map(l -> l.task().file().location()).distinct().toList();
    List<DataFile> dataFiles = writer.result().dataFiles();
    RowDelta delta = table.newRowDelta().addDeletes(scoped);
    dataFiles.forEach(delta::addRows);
    DeleteWriteResult result =
        new DeleteWriteResult(
            List.of(scoped), org.apache.iceberg.util.CharSequenceSet.of(referenced));
    if (!commit(table, base, delta, referenced, dataFiles, result)) {
      return null;
    }
    Set<Long> neighbours = new java.util.TreeSet<>();
    Set<Long> movedKeys = new java.util.HashSet<>();
    moved.forEach(l -> movedKeys.add(((Number) l.row().getField("id")).longValue()));
    found.forEach(
        (key, l) -> {
          if (referenced.contains(l.task().file().location()) && !movedKeys.contains(key)) {
            neighbours.add(key);
          }
        });
    return new ScopedMove(
        moved.size() + " rows of " + referenced.size() + " files with one scoped delete",
        neighbours);
  }

  /**
   * A Flink-style upsert of each key of {@code changes} that has a live row: an equality delete of
   * the key, in the partition of its new row in the current spec, plus the new row (none for a
   * delete). Only keys whose live row is in the current spec are taken (an equality delete applies
   * to its own spec and partition only).
   *
   * @return the keys changed; empty when nothing was, or Iceberg refused the commit
   */
  public Set<Long> upsertByEquality(Map<Long, Change> changes) {
    Table table = catalog.loadTable(id);
    Snapshot base = table.currentSnapshot();
    if (base == null) {
      return Set.of();
    }
    Map<Long, Located> found = locate(table, base, changes.keySet(), false);
    found.values().removeIf(l -> l.task().file().specId() != table.spec().specId());
    if (found.isEmpty()) {
      return Set.of();
    }
    Schema schema = table.schema();
    Schema keySchema = TypeUtil.select(schema, schema.identifierFieldIds());
    int[] equalityIds = schema.identifierFieldIds().stream().mapToInt(i -> i).toArray();
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(schema)
            .deleteFileFormat(FileFormat.PARQUET)
            .equalityFieldIds(equalityIds)
            .equalityDeleteRowSchema(keySchema)
            .build();
    OutputFileFactory files = PositionDeletes.files(table, 97, 4, "external-equality");
    PartitionSpec spec = table.spec();
    Map<StructLike, List<Record>> keysByPartition = new LinkedHashMap<>();
    Map<StructLike, StructLike> partitions = new HashMap<>();
    List<Record> added = new ArrayList<>();
    found.forEach(
        (key, at) -> {
          StructLike partition = at.task().file().partition();
          partitions.putIfAbsent(partition, partition);
          Record keyRow = GenericRecord.create(keySchema);
          keySchema.columns().forEach(c -> keyRow.setField(c.name(), at.row().getField(c.name())));
          keysByPartition
              .computeIfAbsent(partitions.get(partition), k -> new ArrayList<>())
              .add(keyRow);
          Change change = changes.get(key);
          if (!change.deleted()) {
            added.add(withValues(at.row(), schema, change));
          }
        });
    List<DeleteFile> deleteFiles = new ArrayList<>();
    try {
      for (Map.Entry<StructLike, List<Record>> e : keysByPartition.entrySet()) {
        StructLike partition = spec.isUnpartitioned() ? null : e.getKey();
        EqualityDeleteWriter<Record> writer =
            writers.newEqualityDeleteWriter(files.newOutputFile(spec, partition), spec, partition);
        try (writer) {
          e.getValue().forEach(writer::write);
        }
        deleteFiles.add(writer.toDeleteFile());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    List<DataFile> dataFiles = write(table, schema, added);
    RowDelta delta = table.newRowDelta();
    dataFiles.forEach(delta::addRows);
    deleteFiles.forEach(delta::addDeletes);
    return commit(table, base, delta, List.of(), dataFiles, new DeleteWriteResult(deleteFiles))
        ? found.keySet()
        : Set.of();
  }

  private boolean commit(
      Table table,
      Snapshot base,
      RowDelta delta,
      List<String> referenced,
      List<DataFile> dataFiles,
      DeleteWriteResult deletes) {
    delta.validateFromSnapshot(base.snapshotId()).validateNoConflictingDeleteFiles();
    if (!referenced.isEmpty()) {
      delta.validateDataFilesExist(referenced).validateDeletedFiles();
    }
    try {
      SameThreadExecutor.manifestsOnThisThread(delta).commit();
      return true;
    } catch (ValidationException e) {
      dataFiles.forEach(f -> table.io().deleteFile(f.location()));
      deletes.deleteFiles().forEach(d -> table.io().deleteFile(d.location()));
      LoggerFactory.getLogger(ExternalDml.class)
          .info("External DML on {} refused: {}", id, e.getMessage());
      return false;
    }
  }

  /**
   * Where the live row of each of {@code keys} is at {@code base}: its file's scan task, its
   * position, the row in the carried schema (lineage columns on v3).
   */
  private static Map<Long, Located> locate(
      Table table, Snapshot base, Set<Long> keys, boolean carryLineage) {
    Schema carried = RowLineage.carried(table, table.schema());
    Schema projection = TypeUtil.join(carried, new Schema(MetadataColumns.ROW_POSITION));
    int positionField = carried.columns().size();
    Map<Long, Located> found = new LinkedHashMap<>();
    List<FileScanTask> tasks = new ArrayList<>();
    try (CloseableIterable<FileScanTask> planned =
        table.newScan().useSnapshot(base.snapshotId()).planFiles()) {
      planned.forEach(tasks::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    for (FileScanTask task : tasks) {
      DataFile file = task.file();
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
          long key = ((Number) row.getField("id")).longValue();
          if (keys.contains(key)) {
            Record copy = GenericRecord.create(carried);
            for (int i = 0; i < positionField; i++) {
              copy.set(i, row.get(i));
            }
            found.put(
                key,
                new Located(
                    task,
                    (Long) row.get(positionField),
                    carryLineage ? copy : dropLineage(copy, table.schema())));
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return found;
  }

  private static Record dropLineage(Record row, Schema schema) {
    Record out = GenericRecord.create(schema);
    schema.columns().forEach(c -> out.setField(c.name(), row.getField(c.name())));
    return out;
  }

  private static Record withValues(Record row, Schema schema, Change change) {
    Record out = GenericRecord.create(schema);
    schema.columns().forEach(c -> out.setField(c.name(), row.getField(c.name())));
    out.setField("v", change.v());
    out.setField("amount", change.amount());
    return out;
  }

  /** The DVs and position deletes that apply to the task's file. */
  private static List<DeleteFile> positionDeletes(FileScanTask task) {
    return task.deletes().stream()
        .filter(d -> d.content() == FileContent.POSITION_DELETES)
        .toList();
  }

  /** {@code rows} in new data files of the current spec, one per partition of their values. */
  private static List<DataFile> write(Table table, Schema schema, List<Record> rows) {
    PartitionSpec spec = table.spec();
    PartitionKey key = new PartitionKey(spec, table.schema());
    InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
    Map<PartitionKey, List<Record>> byPartition = new LinkedHashMap<>();
    for (Record row : rows) {
      key.partition(wrapper.wrap(row));
      byPartition.computeIfAbsent(key.copy(), k -> new ArrayList<>()).add(row);
    }
    List<DataFile> files = new ArrayList<>();
    byPartition.forEach(
        (partition, part) -> {
          RollingDataWriter<Record> writer =
              RollingFiles.open(
                  table,
                  schema,
                  97,
                  Math.abs(UUID.randomUUID().getLeastSignificantBits() % 1000),
                  "external-dml",
                  Long.MAX_VALUE,
                  spec,
                  partition);
          try {
            try (writer) {
              part.forEach(writer::write);
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          files.addAll(writer.result().dataFiles());
        });
    return files;
  }
}
