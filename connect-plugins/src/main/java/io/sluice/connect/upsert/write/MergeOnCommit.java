package io.sluice.connect.upsert.write;

import io.sluice.connect.upsert.config.MergeLimits;
import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.event.Operation;
import io.sluice.connect.upsert.index.KeySet;
import io.sluice.lake.ScanRows;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.RollingDataWriter;
import org.apache.iceberg.util.StructLikeMap;
import org.apache.iceberg.util.StructLikeSet;
import org.apache.iceberg.util.StructProjection;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a batch merged into the partitions it touches (copy-on-write): each touched partition's
 * live rows at the base snapshot, read with Iceberg's reader (deletes applied), minus the batch's
 * keys, plus the batch's new rows, into new data files that replace all of the partition's data and
 * delete files. The table then holds no delete file for those partitions, and a read of them costs
 * what a read of the compacted table costs.
 *
 * <p>Only for batches whose touched partitions are small: the work is a read and a write of those
 * partitions at every commit. A batch that touches more than {@code maxBytes} of data files, or
 * more than {@code maxRowsPerKey} rows for each key it changes (the merge would rewrite many rows
 * for each it changes), or a table whose live files are in more than one partition spec or that is
 * partitioned by a column that is not the key, is not merged ({@link #write} is empty) and goes the
 * merge-on-read way ({@link BatchWriter}: equality deletes, applied later by the table
 * maintenance).
 */
public final class MergeOnCommit {
  private static final Logger log = LoggerFactory.getLogger(MergeOnCommit.class);

  private final int taskId;
  private final long maxBytes;
  private final long maxRowsPerKey;
  private final long targetFileSizeBytes;
  private long attempt;

  /**
   * The new files of a merged batch and the files they replace, not yet committed.
   *
   * @param partitions a row filter that selects exactly the merged partitions (conflict detection)
   */
  public record Merged(
      List<DataFile> added,
      List<DataFile> replacedData,
      List<DeleteFile> replacedDeletes,
      Expression partitions,
      long replacedBytes) {}

  /**
   * Which batches are merged.
   *
   * @param maxBytes the most bytes of data files a batch may merge; 0 never merges
   * @param maxRowsPerKey the most rows of data files a batch may merge per key it changes; 0 for no
   *     such limit
   */
  public record Limits(long maxBytes, long maxRowsPerKey) {}

  /**
   * @param taskId the Connect task index, part of every file name
   * @param limits which batches are merged
   * @param targetFileSizeBytes size of the merged data files
   */
  public MergeOnCommit(int taskId, MergeLimits limits, long targetFileSizeBytes) {
    this.taskId = taskId;
    this.maxBytes = limits.maxBytes();
    this.maxRowsPerKey = limits.maxRowsPerKey();
    this.targetFileSizeBytes = targetFileSizeBytes;
  }

  /**
   * @param base the snapshot the batch is merged into (null: the table has none yet)
   * @param converted every event of {@code batch} (one per key), converted by {@link
   *     BatchWriter#convert} with the converter of the table's current schema
   * @return the merged files; empty when the batch is not merged (nothing written then)
   * @throws ConnectException when the files cannot be written (those written are deleted)
   */
  public Optional<Merged> write(
      Table table,
      Snapshot base,
      Schema keySchema,
      List<ChangeEvent> batch,
      Map<ChangeEvent, BatchWriter.Converted> converted) {
    if (maxBytes <= 0) {
      return Optional.empty();
    }
    Schema schema = table.schema();
    PartitionSpec spec = table.spec();
    if (!KeyDeleteTargets.byKey(spec, schema.identifierFieldIds())) {
      // A key's old row may be in another partition than its new one, which a merge leaves alone.
      return Optional.empty();
    }
    Map<StructLike, List<ChangeEvent>> byPartition = byPartition(schema, spec, batch, converted);
    Expression filter = Expressions.alwaysFalse();
    for (StructLike partition : byPartition.keySet()) {
      filter = Expressions.or(filter, PartitionFilter.of(schema, spec, partition));
    }
    List<DataFile> replacedData = new ArrayList<>();
    Map<String, DeleteFile> replacedDeletes = new LinkedHashMap<>();
    long bytes = 0;
    long rows = 0;
    long maxRows = maxRowsPerKey > 0 ? maxRowsPerKey * batch.size() : Long.MAX_VALUE;
    if (base != null) {
      try (CloseableIterable<FileScanTask> tasks =
          ScanRows.plan(table.newScan().useSnapshot(base.snapshotId()).filter(filter))) {
        for (FileScanTask task : tasks) {
          DataFile file = task.file();
          if (file.specId() != spec.specId()) {
            return Optional.empty();
          }
          bytes += file.fileSizeInBytes();
          rows += file.recordCount();
          if (bytes > maxBytes || rows > maxRows) {
            return Optional.empty();
          }
          replacedData.add(file);
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot plan a read of " + table.name(), e);
      }
      if (!deletesOf(table, base, spec, byPartition.keySet(), replacedDeletes)) {
        return Optional.empty();
      }
    }
    List<DataFile> added = new ArrayList<>();
    try {
      // By key, not entrySet(): StructLikeMap's entry set is a new HashSet hashing every entry's
      // value, here each partition's events down to their Connect structs.
      for (StructLike partition : byPartition.keySet()) {
        added.addAll(
            writePartition(
                table, base, schema, keySchema, partition, byPartition.get(partition), converted));
      }
    } catch (IOException | RuntimeException e) {
      delete(table, added);
      throw new ConnectException(
          "cannot merge a batch of "
              + batch.size()
              + " keys into table "
              + table.name()
              + ": "
              + e.getMessage(),
          e);
    }
    return Optional.of(
        new Merged(added, replacedData, List.copyOf(replacedDeletes.values()), filter, bytes));
  }

  /**
   * Collects every delete file of the merged partitions at {@code base}, also those that apply to
   * no live data file any more: once the partitions' data files are all replaced by files of a
   * newer sequence number, none of them applies to anything.
   *
   * @return false when the table has a delete file of another spec (one of an unpartitioned spec
   *     applies to every partition): the batch is not merged then
   */
  private static boolean deletesOf(
      Table table,
      Snapshot base,
      PartitionSpec spec,
      Set<StructLike> partitions,
      Map<String, DeleteFile> into) {
    StructLikeSet merged = StructLikeSet.create(spec.partitionType());
    merged.addAll(partitions);
    for (ManifestFile manifest : base.deleteManifests(table.io())) {
      try (CloseableIterable<DeleteFile> files =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile file : files) {
          if (file.specId() != spec.specId()) {
            return false;
          }
          if (merged.contains(file.partition())) {
            into.putIfAbsent(file.location(), file.copyWithoutStats());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the delete manifests of " + table.name(), e);
      }
    }
    return true;
  }

  private List<DataFile> writePartition(
      Table table,
      Snapshot base,
      Schema schema,
      Schema keySchema,
      StructLike partition,
      List<ChangeEvent> events,
      Map<ChangeEvent, BatchWriter.Converted> converted)
      throws IOException {
    PartitionSpec spec = table.spec();
    KeySet keys = new KeySet(keySchema);
    List<Record> upserts = new ArrayList<>(events.size());
    for (ChangeEvent event : events) {
      BatchWriter.Converted rows = converted.get(event);
      keys.addRecord(rows.key());
      if (event.operation() == Operation.UPSERT) {
        upserts.add(rows.row());
      }
    }
    // On v3 the carried-over rows keep their lineage (RowLineage).
    Schema carried = RowLineage.carried(table, schema);
    RollingDataWriter<Record> writer =
        RollingFiles.open(
            table, carried, taskId, ++attempt, "merge", targetFileSizeBytes, spec, partition);
    boolean closed = false;
    try {
      if (base != null) {
        InternalRecordWrapper rows = new InternalRecordWrapper(carried.asStruct());
        StructProjection key = StructProjection.create(carried, keySchema);
        try (CloseableIterable<Record> current =
            ScanRows.read(
                table
                    .newScan()
                    .useSnapshot(base.snapshotId())
                    .project(carried)
                    .filter(PartitionFilter.of(schema, spec, partition)))) {
          for (Record row : current) {
            if (!keys.contains(key.wrap(rows.wrap(row)))) {
              writer.write(row);
            }
          }
        }
      }
      for (Record row : upserts) {
        writer.write(RowLineage.asNew(row, carried));
      }
      writer.close();
      closed = true;
      return writer.result().dataFiles();
    } finally {
      if (!closed) {
        abandon(table, writer);
      }
    }
  }

  private static Map<StructLike, List<ChangeEvent>> byPartition(
      Schema schema,
      PartitionSpec spec,
      List<ChangeEvent> batch,
      Map<ChangeEvent, BatchWriter.Converted> converted) {
    Map<StructLike, List<ChangeEvent>> byPartition = StructLikeMap.create(spec.partitionType());
    PartitionKey partitionKey = new PartitionKey(spec, schema);
    InternalRecordWrapper wrapper = new InternalRecordWrapper(schema.asStruct());
    for (ChangeEvent event : batch) {
      BatchWriter.Converted rows = converted.get(event);
      Record asRow = event.operation() == Operation.UPSERT ? rows.row() : rows.keyAsRow();
      partitionKey.partition(wrapper.wrap(asRow));
      List<ChangeEvent> events = byPartition.get(partitionKey);
      if (events == null) {
        events = new ArrayList<>();
        byPartition.put(partitionKey.copy(), events);
      }
      events.add(event);
    }
    return byPartition;
  }

  private static void abandon(Table table, RollingDataWriter<Record> writer) {
    try {
      writer.close();
      delete(table, writer.result().dataFiles());
    } catch (IOException | RuntimeException e) {
      // The writer did not close: its last file is incomplete, left to orphan removal.
      log.warn("Could not delete the files of an abandoned merge into {}", table.name(), e);
    }
  }

  /** Deletes files of a merge that was not committed. */
  public static void delete(Table table, List<DataFile> files) {
    try {
      files.forEach(f -> table.io().deleteFile(f.location()));
    } catch (RuntimeException e) {
      log.warn("Could not delete the files of an uncommitted merge into {}", table.name(), e);
    }
  }
}
