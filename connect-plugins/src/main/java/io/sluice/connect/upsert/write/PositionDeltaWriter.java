package io.sluice.connect.upsert.write;

import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.event.Operation;
import io.sluice.connect.upsert.index.TableKeyIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.PartitionMap;
import org.apache.iceberg.util.StructLikeMap;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a prepared batch (one event per key) as new data files plus deletes BY POSITION of the
 * rows the keys had, found in the table's {@link TableKeyIndex}: on format v3 one deletion vector
 * per touched data file, merged with the DV that file already had (which the commit removes); on v2
 * one position-delete file per touched data file. No equality delete is written, so a read of the
 * table never joins keys against deletes. Not committed; on failure the files written so far are
 * deleted.
 *
 * <p><b>Copy instead of delete.</b> A touched data file that the batch would leave with at least
 * the copy fraction of its rows deleted (counting the rows its DV or position deletes delete
 * already) gets no new delete: its rows live at the base snapshot, minus the batch's keys, are
 * copied into the batch's new data files of its partition (on v3 with their row lineage), and the
 * commit removes it and its delete files ({@link Written#copied()}). So no file the sink commits to
 * is left with more deleted rows than the maintenance would rewrite it for, even while updates
 * arrive faster than the maintenance rewrites (a rewrite after the commit leaves the table read
 * slower until it lands). The copied rows are read with every delete of the base snapshot applied;
 * the commit is refused when a delete file added since then may apply to a copied file ({@code
 * TableCommitter}), since the copy would bring its rows back.
 */
public final class PositionDeltaWriter {
  private static final Logger log = LoggerFactory.getLogger(PositionDeltaWriter.class);
  private static final int LENGTH_CHECK_ROWS = 1024;
  private static final Set<Integer> PATH_COLUMN =
      Set.of(MetadataColumns.DELETE_FILE_PATH.fieldId());

  private final int taskId;
  private final long targetFileSizeBytes;
  private final double copyFraction;
  private long attempt;

  /**
   * The written files, and what the index must learn once they are committed.
   *
   * @param keysByFile the keys of the rows of each new data file, in row order; null for a file
   *     that holds copied rows (the index reads its keys once it is committed)
   * @param deleted keys deleted without a new row
   * @param copied data files whose rows were copied into new ones: the commit removes them
   * @param footprint what the batch takes for granted of its base snapshot, which the commit checks
   */
  public record Written(
      WriteResult result,
      Map<DataFile, List<StructLike>> keysByFile,
      List<StructLike> deleted,
      List<DataFile> copied,
      Footprint footprint) {}

  /**
   * What a batch written by position takes for granted of the snapshot it was written at: the rows
   * it deletes are its keys' only live rows. A commit since then that deleted one of those rows, or
   * wrote one of its keys, makes the batch wrong (the key twice, or a deleted key back).
   *
   * @param keySchema the schema of {@code keys}
   * @param keys every key of the batch, written or deleted (Iceberg's internal values)
   * @param positions the row positions the batch deletes, by data file location (not those of files
   *     it copies, which it removes)
   * @param files the data file of each location of {@code positions}
   */
  public record Footprint(
      Schema keySchema,
      List<StructLike> keys,
      Map<String, List<Long>> positions,
      Map<String, DataFile> files) {}

  /**
   * @param copyFraction a touched data file that the batch would leave with at least this fraction
   *     of its rows deleted is copied instead of given a delete; above 1, none is
   */
  public PositionDeltaWriter(int taskId, long targetFileSizeBytes, double copyFraction) {
    this.taskId = taskId;
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.copyFraction = copyFraction;
  }

  /**
   * @param base the snapshot {@code index} is sound at, which the commit validates from
   * @param converted every event of {@code batch}, converted with the current schema's converter
   * @throws ConnectException when the files cannot be written (those written are deleted)
   */
  public Written write(
      Table table,
      Snapshot base,
      TableKeyIndex index,
      List<ChangeEvent> batch,
      Map<ChangeEvent, BatchWriter.Converted> converted) {
    Schema schema = table.schema();
    // On v3 copied rows keep their lineage; new rows are written with it null (RowLineage).
    Schema carried = RowLineage.carried(table, schema);
    PartitionSpec spec = table.spec();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, taskId, ++attempt)
            .format(FileFormat.PARQUET)
            .operationId("upsert-" + UUID.randomUUID())
            .build();
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(carried)
            .dataFileFormat(FileFormat.PARQUET)
            .build();
    Map<String, List<Long>> positionsByFile = new LinkedHashMap<>();
    Map<String, DataFile> targets = new HashMap<>();
    List<StructLike> deleted = new ArrayList<>();
    List<StructLike> keys = new ArrayList<>(batch.size());
    Map<StructLike, Rows> rowsByPartition = new HashMap<>();
    PartitionKey partitionKey = new PartitionKey(spec, schema);
    InternalRecordWrapper rowWrapper = new InternalRecordWrapper(schema.asStruct());
    // The writer of a row's partition; a copied row is read in the table's schema plus lineage
    // and position columns after it, which the partition's accessors do not reach.
    Function<Record, Rows> rowsOf =
        row -> {
          partitionKey.partition(rowWrapper.wrap(row));
          Rows rows = rowsByPartition.get(partitionKey);
          if (rows == null) {
            StructLike partition = partitionKey.copy();
            rows = new Rows(table, writers, files, spec, spec.isUnpartitioned() ? null : partition);
            rowsByPartition.put(partition, rows);
          }
          return rows;
        };
    List<DeleteFile> deleteFiles = new ArrayList<>();
    try {
      for (ChangeEvent event : batch) {
        BatchWriter.Converted rows = converted.get(event);
        StructLike key = new InternalRecordWrapper(index.keySchema().asStruct()).wrap(rows.key());
        keys.add(key);
        // More than one row when the key is in the table twice: all are deleted.
        for (TableKeyIndex.Location at : index.locateAll(key)) {
          positionsByFile
              .computeIfAbsent(at.file().location(), k -> new ArrayList<>())
              .add(at.position());
          targets.putIfAbsent(at.file().location(), at.file());
        }
        if (event.operation() == Operation.UPSERT) {
          rowsOf.apply(rows.row()).write(RowLineage.asNew(rows.row(), carried), key);
        } else {
          deleted.add(key);
        }
      }
      Map<String, List<DeleteFile>> previous =
          positionsByFile.isEmpty() ? Map.of() : previousDeletes(table, base, targets);
      Map<String, DataFile> copied = toCopy(table, spec, positionsByFile, targets, previous);
      WriteResult.Builder result = WriteResult.builder();
      if (!copied.isEmpty()) {
        long rows = copy(table, base, carried, copied.values(), positionsByFile, rowsOf);
        log.info(
            "Copying {} data files of {} ({} rows live at snapshot {}, less the batch's) instead of"
                + " deleting from them: the batch would leave at least {} of their rows deleted",
            copied.size(),
            table.name(),
            rows,
            base.snapshotId(),
            copyFraction);
        for (String location : copied.keySet()) {
          positionsByFile.remove(location);
          // A partition-scoped delete stays: it covers other data files too.
          result.addRewrittenDeleteFiles(
              PositionDeletes.fileScoped(previous.getOrDefault(location, List.of())));
        }
      }
      Map<DataFile, List<StructLike>> keysByFile = new LinkedHashMap<>();
      for (Rows partition : rowsByPartition.values()) {
        partition.close(keysByFile);
      }
      result.addDataFiles(keysByFile.keySet());
      if (!positionsByFile.isEmpty()) {
        DeleteWriteResult deletes =
            PositionDeletes.write(
                table,
                PositionDeletes.files(table, taskId, attempt, "upsert"),
                positionsByFile,
                targets,
                previous);
        deleteFiles.addAll(deletes.deleteFiles());
        result
            .addDeleteFiles(deletes.deleteFiles())
            .addRewrittenDeleteFiles(deletes.rewrittenDeleteFiles())
            .addReferencedDataFiles(new ArrayList<CharSequence>(positionsByFile.keySet()));
      }
      targets.keySet().retainAll(positionsByFile.keySet());
      Footprint footprint = new Footprint(index.keySchema(), keys, positionsByFile, targets);
      return new Written(
          result.build(), keysByFile, deleted, List.copyOf(copied.values()), footprint);
    } catch (IOException | RuntimeException e) {
      rowsByPartition.values().forEach(Rows::abandon);
      delete(table, List.of(), deleteFiles);
      throw new ConnectException(
          "cannot write "
              + batch.size()
              + " keys with position deletes to table "
              + table.name()
              + ": "
              + e.getMessage(),
          e);
    }
  }

  /**
   * The touched data files to copy: those of the current spec that the batch would leave with at
   * least {@link #copyFraction} of their rows deleted.
   */
  private Map<String, DataFile> toCopy(
      Table table,
      PartitionSpec spec,
      Map<String, List<Long>> positionsByFile,
      Map<String, DataFile> targets,
      Map<String, List<DeleteFile>> previous) {
    Map<String, DataFile> copied = new LinkedHashMap<>();
    if (copyFraction > 1) {
      return copied;
    }
    for (Map.Entry<String, List<Long>> entry : positionsByFile.entrySet()) {
      DataFile file = targets.get(entry.getKey());
      if (file.specId() != spec.specId()) {
        continue;
      }
      long deletedBefore =
          PositionDeletes.deletedRows(
              table, entry.getKey(), previous.getOrDefault(entry.getKey(), List.of()));
      if (deletedBefore + entry.getValue().size() >= copyFraction * file.recordCount()) {
        copied.put(entry.getKey(), file);
      }
    }
    return copied;
  }

  /**
   * Writes the rows of {@code copied} live at {@code base}, but those at the batch's positions, to
   * the writer of their partition.
   *
   * @return the rows written
   */
  private static long copy(
      Table table,
      Snapshot base,
      Schema carried,
      Collection<DataFile> copied,
      Map<String, List<Long>> positionsByFile,
      Function<Record, Rows> rowsOf)
      throws IOException {
    PartitionSpec spec = table.spec();
    Map<StructLike, Set<String>> byPartition = StructLikeMap.create(spec.partitionType());
    for (DataFile file : copied) {
      byPartition.computeIfAbsent(file.partition(), p -> new HashSet<>()).add(file.location());
    }
    Map<String, long[]> skipped = new HashMap<>();
    for (DataFile file : copied) {
      long[] positions =
          positionsByFile.get(file.location()).stream().mapToLong(Long::longValue).toArray();
      Arrays.sort(positions);
      skipped.put(file.location(), positions);
    }
    // The row position last, where a writer of the carried schema does not look.
    Schema projection = TypeUtil.join(carried, new Schema(MetadataColumns.ROW_POSITION));
    int positionField = carried.columns().size();
    long[][] skipping = new long[1][];
    long written = 0;
    for (Map.Entry<StructLike, Set<String>> partition : byPartition.entrySet()) {
      try (CloseableIterable<Record> rows =
          DataFileRows.read(
              table,
              base,
              spec.specId(),
              partition.getKey(),
              partition.getValue(),
              projection,
              file -> skipping[0] = skipped.get(file.location()))) {
        for (Record row : rows) {
          if (Arrays.binarySearch(skipping[0], (Long) row.get(positionField)) < 0) {
            rowsOf.apply(row).write(row, null);
            written++;
          }
        }
      }
    }
    return written;
  }

  /**
   * The position deletes that apply at {@code base} to each of {@code targets}, as Iceberg's
   * readers apply them: its DV alone when it has one, else its file-scoped position deletes and the
   * partition-scoped ones of its spec and partition (kept through an upgrade from v2, or written by
   * other engines) that are not older than it. A DV merges them all: once a file has a DV, readers
   * ignore every other position delete of it.
   */
  private static Map<String, List<DeleteFile>> previousDeletes(
      Table table, Snapshot base, Map<String, DataFile> targets) {
    Map<String, List<DeleteFile>> previous = new HashMap<>();
    if (base == null) {
      return previous;
    }
    Map<String, DeleteFile> dvs = new HashMap<>();
    PartitionMap<List<DeleteFile>> byPartition = PartitionMap.create(table.specs());
    for (ManifestFile manifest : base.deleteManifests(table.io())) {
      try (CloseableIterable<DeleteFile> deletes =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile file : deletes) {
          if (file.content() != FileContent.POSITION_DELETES) {
            continue;
          }
          String target = ContentFileUtil.referencedDataFileLocation(file);
          // The bounds of the path column stay: a file-scoped delete of an older writer is told by
          // them.
          DeleteFile kept = file.copyWithStats(PATH_COLUMN);
          if (target == null) {
            byPartition.computeIfAbsent(kept.specId(), kept.partition(), ArrayList::new).add(kept);
          } else if (targets.containsKey(target)) {
            if (ContentFileUtil.isDV(file)) {
              dvs.put(target, kept);
            }
            previous.computeIfAbsent(target, k -> new ArrayList<>()).add(kept);
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the delete manifests of " + table.name(), e);
      }
    }
    for (DataFile target : targets.values()) {
      DeleteFile dv = dvs.get(target.location());
      if (dv != null) {
        previous.put(target.location(), List.of(dv));
        continue;
      }
      Long sequence = target.dataSequenceNumber();
      List<DeleteFile> ofPartition = byPartition.get(target.specId(), target.partition());
      for (DeleteFile file : ofPartition == null ? List.<DeleteFile>of() : ofPartition) {
        // A position delete applies to data files of its sequence number and older; one of a file
        // the index knows without its sequence number (the task's own) is taken to, harmlessly:
        // reading it for the file's path finds none of an older delete.
        Long deleteSequence = file.dataSequenceNumber();
        if (sequence == null || deleteSequence == null || deleteSequence >= sequence) {
          previous.computeIfAbsent(target.location(), k -> new ArrayList<>()).add(file);
        }
      }
    }
    return previous;
  }

  /**
   * Deletes files written for a batch that was not committed (any writer's: a Puffin file holding
   * several DVs is deleted once).
   */
  public static void delete(Table table, List<DataFile> data, List<DeleteFile> deletes) {
    try {
      data.forEach(f -> table.io().deleteFile(f.location()));
      // A DV file holds the DVs of several data files: delete each Puffin file once.
      deletes.stream()
          .map(DeleteFile::location)
          .collect(Collectors.toSet())
          .forEach(table.io()::deleteFile);
    } catch (RuntimeException e) {
      log.warn("Could not delete the files of an uncommitted batch for {}", table.name(), e);
    }
  }

  /** The new rows of one partition, in data files of about the target size. */
  private final class Rows {
    private final Table table;
    private final GenericFileWriterFactory writers;
    private final OutputFileFactory files;
    private final PartitionSpec spec;
    private final StructLike partition;
    private final Map<DataFile, List<StructLike>> closed = new LinkedHashMap<>();
    private DataWriter<Record> current;
    private List<StructLike> keys;
    private long rows;

    Rows(
        Table table,
        GenericFileWriterFactory writers,
        OutputFileFactory files,
        PartitionSpec spec,
        StructLike partition) {
      this.table = table;
      this.writers = writers;
      this.files = files;
      this.spec = spec;
      this.partition = partition;
    }

    /**
     * @param key the row's key; null for a copied row, whose key is not kept (a copy may hold
     *     millions): the file's keys are then read back once it is committed
     */
    void write(Record row, StructLike key) throws IOException {
      if (current == null) {
        current =
            writers.newDataWriter(
                PositionDeletes.newOutputFile(files, spec, partition), spec, partition);
        keys = new ArrayList<>();
        rows = 0;
      }
      current.write(row);
      rows++;
      if (keys != null && key != null) {
        keys.add(key);
      } else {
        keys = null;
      }
      if (rows % LENGTH_CHECK_ROWS == 0 && current.length() >= targetFileSizeBytes) {
        roll();
      }
    }

    private void roll() throws IOException {
      current.close();
      closed.put(current.toDataFile(), keys);
      current = null;
      keys = null;
    }

    /** Adds the closed files to {@code into}, with their keys (null: a file with copied rows). */
    void close(Map<DataFile, List<StructLike>> into) throws IOException {
      if (current != null) {
        roll();
      }
      into.putAll(closed);
    }

    void abandon() {
      if (current != null) {
        try {
          current.close();
          closed.put(current.toDataFile(), keys);
        } catch (IOException | RuntimeException e) {
          log.debug("An abandoned data file did not close", e);
        }
        current = null;
      }
      closed.keySet().forEach(f -> table.io().deleteFile(f.location()));
    }
  }
}
