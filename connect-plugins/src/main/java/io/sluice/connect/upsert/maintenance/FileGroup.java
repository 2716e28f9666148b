package io.sluice.connect.upsert.maintenance;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.StructLike;

/**
 * The live files of one partition of a snapshot (one partition of one spec): the unit a rewrite
 * replaces, since equality deletes are partition-scoped.
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

  long equalityDeleteFiles() {
    return deleteFiles.stream().filter(f -> f.content() == FileContent.EQUALITY_DELETES).count();
  }

  /** Data files smaller than {@code bytes}. */
  long dataFilesSmallerThan(long bytes) {
    return dataFiles.stream().filter(f -> f.fileSizeInBytes() < bytes).count();
  }
}
