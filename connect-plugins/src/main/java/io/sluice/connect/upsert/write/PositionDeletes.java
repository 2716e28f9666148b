package io.sluice.connect.upsert.write;

import io.sluice.lake.ScanRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.BaseDVFileWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.encryption.EncryptedOutputFile;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.CharSequenceSet;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Deletes by position of rows of some data files, one delete file per data file, each merged with
 * the position deletes that data file had: on format v3 a deletion vector, on v2 a file-scoped
 * position-delete file (its referenced data file set, so that readers and the maintenance know its
 * one file). The delete files they replace are named in the result as rewritten; a partition-scoped
 * position-delete file (one of several data files) never is, as it still covers the others. Used by
 * the sink's commits ({@link PositionDeltaWriter}) and by a file rewrite that carries deletes
 * committed while it ran over to its new files.
 */
public final class PositionDeletes {
  private PositionDeletes() {}

  /**
   * Where a write's delete files go, named for what they hold: Puffin files of DVs on v3 ({@code
   * .puffin}), Parquet position-delete files on v2; a fresh operation id each time.
   *
   * @param operation names the writer in the files' names ({@code upsert}, {@code maintenance})
   */
  public static OutputFileFactory files(Table table, int taskId, long attempt, String operation) {
    return OutputFileFactory.builderFor(table, taskId, attempt)
        .format(TableUtil.formatVersion(table) >= 3 ? FileFormat.PUFFIN : FileFormat.PARQUET)
        .operationId(operation + "-" + UUID.randomUUID())
        .build();
  }

  /**
   * A new file of {@code partition}: directly in the data location when {@code spec} is
   * unpartitioned, as Iceberg's own writers place it ({@code newOutputFile(spec, partition)} names
   * it {@code data//<name>} there, a key Hadoop's paths and some tools collapse to another).
   */
  static EncryptedOutputFile newOutputFile(
      OutputFileFactory files, PartitionSpec spec, StructLike partition) {
    return spec.isUnpartitioned() ? files.newOutputFile() : files.newOutputFile(spec, partition);
  }

  /**
   * @param positionsByFile new positions to delete, by data file location
   * @param targets the data file of each location of {@code positionsByFile}
   * @param previous every position delete that applies to each data file now (absent: none): its
   *     DV, or its file-scoped and partition-scoped position deletes. A DV merges them all, since
   *     readers apply a file's DV alone; on v2 the new file merges the file-scoped ones and the
   *     partition-scoped ones stay as they are
   * @throws IOException when a file cannot be written; those written are then deleted
   */
  public static DeleteWriteResult write(
      Table table,
      OutputFileFactory files,
      Map<String, List<Long>> positionsByFile,
      Map<String, DataFile> targets,
      Map<String, List<DeleteFile>> previous)
      throws IOException {
    return TableUtil.formatVersion(table) >= 3
        ? writeDvs(table, files, positionsByFile, targets, previous)
        : writePositionDeletes(table, files, positionsByFile, targets, previous);
  }

  /**
   * One DV per touched data file, holding the positions it had (its current DV, or the position
   * deletes of a table upgraded from v2) and the new ones; the old ones are rewritten but for
   * partition-scoped ones ({@link BaseDVFileWriter} keeps those).
   */
  private static DeleteWriteResult writeDvs(
      Table table,
      OutputFileFactory files,
      Map<String, List<Long>> positionsByFile,
      Map<String, DataFile> targets,
      Map<String, List<DeleteFile>> previous)
      throws IOException {
    BaseDeleteLoader loader = loader(table);
    BaseDVFileWriter dvs =
        new BaseDVFileWriter(
            files,
            path -> {
              List<DeleteFile> old = previous.get(path);
              return old == null ? null : loader.loadPositionDeletes(old, path);
            });
    try (dvs) {
      for (Map.Entry<String, List<Long>> entry : positionsByFile.entrySet()) {
        DataFile target = targets.get(entry.getKey());
        PartitionSpec spec = table.specs().get(target.specId());
        for (long position : entry.getValue()) {
          dvs.delete(entry.getKey(), position, spec, target.partition());
        }
      }
    }
    return dvs.result();
  }

  /**
   * One position-delete file per touched data file, holding the positions its file-scoped position
   * deletes had and the new ones, in order; the old files are rewritten. So a v2 data file, like a
   * v3 one, has at most one delete file the sink wrote, however many commits touched it.
   * Partition-scoped position deletes still apply next to it on v2, and are left alone.
   */
  private static DeleteWriteResult writePositionDeletes(
      Table table,
      OutputFileFactory files,
      Map<String, List<Long>> positionsByFile,
      Map<String, DataFile> targets,
      Map<String, List<DeleteFile>> previous)
      throws IOException {
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(table.schema())
            .deleteFileFormat(FileFormat.PARQUET)
            .build();
    List<DeleteFile> written = new ArrayList<>();
    List<DeleteFile> rewritten = new ArrayList<>();
    BaseDeleteLoader loader = loader(table);
    try {
      for (Map.Entry<String, List<Long>> entry : positionsByFile.entrySet()) {
        List<Long> positions = new ArrayList<>(entry.getValue());
        List<DeleteFile> old = fileScoped(previous.getOrDefault(entry.getKey(), List.of()));
        if (!old.isEmpty()) {
          PositionDeleteIndex had = loader.loadPositionDeletes(old, entry.getKey());
          had.forEach(positions::add);
          rewritten.addAll(old);
        }
        DataFile target = targets.get(entry.getKey());
        PartitionSpec spec = table.specs().get(target.specId());
        StructLike partition = spec.isUnpartitioned() ? null : target.partition();
        PositionDeleteWriter<Record> writer =
            writers.newPositionDeleteWriter(newOutputFile(files, spec, partition), spec, partition);
        PositionDelete<Record> delete = PositionDelete.create();
        long[] sorted = positions.stream().mapToLong(Long::longValue).sorted().distinct().toArray();
        try (writer) {
          for (long position : sorted) {
            writer.write(delete.set(entry.getKey(), position));
          }
        }
        // Named as file-scoped, so that readers match it to its one data file without bounds, and
        // the maintenance knows whose deleted fraction it is.
        written.add(
            FileMetadata.deleteFileBuilder(spec)
                .copy(writer.toDeleteFile())
                .withReferencedDataFile(entry.getKey())
                .build());
      }
    } catch (IOException | RuntimeException e) {
      written.forEach(f -> table.io().deleteFile(f.location()));
      throw e;
    }
    return new DeleteWriteResult(written, CharSequenceSet.of(positionsByFile.keySet()), rewritten);
  }

  /** Those of {@code deletes} that name their one data file: DVs and file-scoped deletes. */
  public static List<DeleteFile> fileScoped(List<DeleteFile> deletes) {
    return deletes.stream().filter(ContentFileUtil::isFileScoped).toList();
  }

  /**
   * How many rows of data file {@code location} {@code deletes} delete: the record count of a DV or
   * file-scoped delete, the rows of that file in a partition-scoped one (read).
   *
   * @param deletes position deletes that apply to the file
   */
  public static long deletedRows(Table table, String location, List<DeleteFile> deletes) {
    long rows = 0;
    List<DeleteFile> ofSeveralFiles = new ArrayList<>();
    for (DeleteFile delete : deletes) {
      if (ContentFileUtil.isFileScoped(delete)) {
        rows += delete.recordCount();
      } else {
        ofSeveralFiles.add(delete);
      }
    }
    if (!ofSeveralFiles.isEmpty()) {
      rows += loader(table).loadPositionDeletes(ofSeveralFiles, location).cardinality();
    }
    return rows;
  }

  /** Reads position deletes and DVs of {@code table}. */
  public static BaseDeleteLoader loader(Table table) {
    return loader(table.io());
  }

  /** Reads delete files (DVs, position and equality deletes) through {@code io}. */
  public static BaseDeleteLoader loader(FileIO io) {
    return ScanRows.deleteLoader(io);
  }
}
