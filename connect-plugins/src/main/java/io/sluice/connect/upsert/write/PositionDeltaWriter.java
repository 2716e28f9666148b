package io.sluice.connect.upsert.write;

import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.event.Operation;
import io.sluice.connect.upsert.index.TableKeyIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
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
import org.apache.iceberg.util.ContentFileUtil;
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
 */
public final class PositionDeltaWriter {
  private static final Logger log = LoggerFactory.getLogger(PositionDeltaWriter.class);
  private static final int LENGTH_CHECK_ROWS = 1024;

  private final int taskId;
  private final long targetFileSizeBytes;
  private long attempt;

  /** The written files, and what the index must learn once they are committed. */
  public record Written(
      WriteResult result, Map<DataFile, List<StructLike>> keysByFile, List<StructLike> deleted) {}

  public PositionDeltaWriter(int taskId, long targetFileSizeBytes) {
    this.taskId = taskId;
    this.targetFileSizeBytes = targetFileSizeBytes;
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
    PartitionSpec spec = table.spec();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, taskId, ++attempt)
            .format(FileFormat.PARQUET)
            .operationId("upsert-" + UUID.randomUUID())
            .build();
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(schema)
            .dataFileFormat(FileFormat.PARQUET)
            .build();
    Map<String, List<Long>> positionsByFile = new LinkedHashMap<>();
    Map<String, DataFile> targets = new HashMap<>();
    List<StructLike> deleted = new ArrayList<>();
    Map<StructLike, Rows> rowsByPartition = new HashMap<>();
    PartitionKey partitionKey = new PartitionKey(spec, schema);
    InternalRecordWrapper rowWrapper = new InternalRecordWrapper(schema.asStruct());
    List<DeleteFile> deleteFiles = new ArrayList<>();
    try {
      for (ChangeEvent event : batch) {
        BatchWriter.Converted rows = converted.get(event);
        StructLike key = new InternalRecordWrapper(index.keySchema().asStruct()).wrap(rows.key());
        TableKeyIndex.Location at = index.locate(key);
        if (at != null) {
          positionsByFile
              .computeIfAbsent(at.file().location(), k -> new ArrayList<>())
              .add(at.position());
          targets.putIfAbsent(at.file().location(), at.file());
        }
        if (event.operation() == Operation.UPSERT) {
          partitionKey.partition(rowWrapper.wrap(rows.row()));
          Rows partition = rowsByPartition.get(partitionKey);
          if (partition == null) {
            StructLike copy = partitionKey.copy();
            partition = new Rows(table, writers, files, spec, spec.isUnpartitioned() ? null : copy);
            rowsByPartition.put(copy, partition);
          }
          partition.write(rows.row(), key);
        } else {
          deleted.add(key);
        }
      }
      Map<DataFile, List<StructLike>> keysByFile = new LinkedHashMap<>();
      for (Rows partition : rowsByPartition.values()) {
        partition.close(keysByFile);
      }
      WriteResult.Builder result = WriteResult.builder().addDataFiles(keysByFile.keySet());
      if (!positionsByFile.isEmpty()) {
        Map<String, List<DeleteFile>> previous =
            previousDeletes(table, base, positionsByFile.keySet());
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
      return new Written(result.build(), keysByFile, deleted);
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

  /** The DVs and file-scoped position deletes {@code base} has for each of {@code paths}. */
  private static Map<String, List<DeleteFile>> previousDeletes(
      Table table, Snapshot base, Set<String> paths) {
    Map<String, List<DeleteFile>> previous = new HashMap<>();
    if (base == null) {
      return previous;
    }
    for (ManifestFile manifest : base.deleteManifests(table.io())) {
      try (CloseableIterable<DeleteFile> deletes =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        for (DeleteFile file : deletes) {
          if (file.content() != FileContent.POSITION_DELETES) {
            continue;
          }
          String target = ContentFileUtil.referencedDataFileLocation(file);
          if (target != null && paths.contains(target)) {
            previous.computeIfAbsent(target, k -> new ArrayList<>()).add(file.copyWithoutStats());
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read the delete manifests of " + table.name(), e);
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

    void write(Record row, StructLike key) throws IOException {
      if (current == null) {
        current = writers.newDataWriter(files.newOutputFile(spec, partition), spec, partition);
        keys = new ArrayList<>();
      }
      current.write(row);
      keys.add(key);
      if (keys.size() % LENGTH_CHECK_ROWS == 0 && current.length() >= targetFileSizeBytes) {
        roll();
      }
    }

    private void roll() throws IOException {
      current.close();
      closed.put(current.toDataFile(), keys);
      current = null;
      keys = null;
    }

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
