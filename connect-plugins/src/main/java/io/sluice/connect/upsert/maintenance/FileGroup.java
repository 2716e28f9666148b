package io.sluice.connect.upsert.maintenance;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * The live files of one partition of a snapshot (one partition of one spec): what a whole-partition
 * rewrite replaces (equality deletes are partition-scoped), and what the data files a file rewrite
 * replaces together belong to (the new files are written into one partition).
 */
final class FileGroup {
  private final int specId;
  private final StructLike partition;
  private final String name;
  private final List<DataFile> dataFiles = new ArrayList<>();
  private final List<DeleteFile> deleteFiles = new ArrayList<>();

  /**
   * @param partition the partition tuple (empty for an unpartitioned spec)
   * @param name the partition's path, for logs ("" when unpartitioned)
   */
  FileGroup(int specId, StructLike partition, String name) {
    this.specId = specId;
    this.partition = partition;
    this.name = name;
  }

  int specId() {
    return specId;
  }

  StructLike partition() {
    return partition;
  }

  String name() {
    return name.isEmpty() ? "(unpartitioned)" : name;
  }

  List<DataFile> dataFiles() {
    return dataFiles;
  }

  List<DeleteFile> deleteFiles() {
    return deleteFiles;
  }

  /**
   * Delete files that may apply to several of the partition's data files: equality deletes and
   * position deletes that name more than one file. Only a rewrite of the whole partition removes
   * them.
   */
  long partitionWideDeleteFiles() {
    return deleteFiles.stream().filter(f -> referencedDataFile(f) == null).count();
  }

  /** Each data file with the delete files that name it alone (none for most). */
  List<DataFileDeletes> filesWithDeletes() {
    Map<String, List<DeleteFile>> byFile = new HashMap<>();
    for (DeleteFile delete : deleteFiles) {
      String target = referencedDataFile(delete);
      if (target != null) {
        byFile.computeIfAbsent(target, k -> new ArrayList<>()).add(delete);
      }
    }
    return dataFiles.stream()
        .map(f -> new DataFileDeletes(f, byFile.getOrDefault(f.location(), List.of())))
        .toList();
  }

  /**
   * The one data file a position delete names: set on DVs and on the file-scoped position deletes
   * of v2, otherwise told by the bounds of its path column as Iceberg's own scan planning does;
   * null for equality deletes and position deletes of several files.
   */
  static String referencedDataFile(DeleteFile delete) {
    return ContentFileUtil.referencedDataFileLocation(delete);
  }
}
