package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.metrics.TableFileCounts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;

/**
 * The live files of one snapshot, grouped by partition, read from its manifests (metadata only).
 * Delete manifests are always read: maintenance keeps them few. Data manifests are read only when
 * asked, since a rewrite or a small-file count needs them.
 */
final class TableInventory {
  private final Map<String, FileGroup> groups = new LinkedHashMap<>();
  private final Set<Integer> specIds = new TreeSet<>();
  private final Snapshot snapshot;
  private final int dataManifests;
  private long equalityDeleteFiles;
  private long positionDeleteFiles;
  private long equalityDeletedRows;

  private TableInventory(Snapshot snapshot, int dataManifests) {
    this.snapshot = snapshot;
    this.dataManifests = dataManifests;
  }

  /** The files of {@code snapshot} of {@code table}; data files only {@code withDataFiles}. */
  static TableInventory read(Table table, Snapshot snapshot, boolean withDataFiles) {
    Map<Integer, PartitionSpec> specs = table.specs();
    TableInventory inventory =
        new TableInventory(snapshot, snapshot.dataManifests(table.io()).size());
    for (ManifestFile manifest : snapshot.deleteManifests(table.io())) {
      try (ManifestReader<DeleteFile> files =
          ManifestFiles.readDeleteManifest(manifest, table.io(), specs)) {
        files.forEach(f -> inventory.addDelete(specs, f));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    if (withDataFiles) {
      for (ManifestFile manifest : snapshot.dataManifests(table.io())) {
        try (ManifestReader<DataFile> files = ManifestFiles.read(manifest, table.io(), specs)) {
          files.forEach(f -> inventory.group(specs, f).dataFiles().add(f));
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return inventory;
  }

  Snapshot snapshot() {
    return snapshot;
  }

  Collection<FileGroup> groups() {
    return groups.values();
  }

  /** The partition specs that live files (of what was read) are written in. */
  Set<Integer> specIds() {
    return specIds;
  }

  int dataManifests() {
    return dataManifests;
  }

  /** The counts maintenance publishes; data files and totals from the snapshot summary. */
  TableFileCounts counts(long snapshots) {
    return new TableFileCounts(
        totalDataFiles(snapshot),
        equalityDeleteFiles,
        positionDeleteFiles,
        equalityDeletedRows,
        snapshots);
  }

  /** The snapshot's total of data files, from its summary (no manifest read). */
  static long totalDataFiles(Snapshot snapshot) {
    return Long.parseLong(
        snapshot.summary().getOrDefault(SnapshotSummary.TOTAL_DATA_FILES_PROP, "0"));
  }

  private void addDelete(Map<Integer, PartitionSpec> specs, DeleteFile file) {
    group(specs, file).deleteFiles().add(file);
    if (file.content() == FileContent.EQUALITY_DELETES) {
      equalityDeleteFiles++;
      equalityDeletedRows += file.recordCount();
    } else {
      positionDeleteFiles++;
    }
  }

  private FileGroup group(Map<Integer, PartitionSpec> specs, ContentFile<?> file) {
    PartitionSpec spec = specs.get(file.specId());
    specIds.add(file.specId());
    String path = spec.partitionToPath(file.partition());
    return groups.computeIfAbsent(
        file.specId() + "/" + path, k -> new FileGroup(file.specId(), file.partition(), path));
  }
}
