package io.sluice.bench.maintenance;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;

/**
 * The live files of one snapshot, from its manifests: data files, equality-delete files and
 * position-delete files (deletion vectors in format v3, one entry each), with the records they
 * hold. What a scan of the snapshot has to open and apply.
 */
public record TableFiles(
    long dataFiles,
    long dataRecords,
    long equalityDeleteFiles,
    long equalityDeletes,
    long positionDeleteFiles,
    long positionDeletes) {

  /** An empty table, or one without a snapshot yet. */
  public static final TableFiles NONE = new TableFiles(0, 0, 0, 0, 0, 0);

  /** The files of {@code snapshot} of {@code table}; {@link #NONE} when it is null. */
  public static TableFiles of(Table table, Snapshot snapshot) {
    if (snapshot == null) {
      return NONE;
    }
    long dataFiles = 0;
    long dataRecords = 0;
    long equalityFiles = 0;
    long equalityRecords = 0;
    long positionFiles = 0;
    long positionRecords = 0;
    for (ManifestFile manifest : snapshot.allManifests(table.io())) {
      try {
        if (manifest.content() == ManifestContent.DATA) {
          try (ManifestReader<DataFile> files =
              ManifestFiles.read(manifest, table.io(), table.specs())) {
            for (DataFile file : files) {
              dataFiles++;
              dataRecords += file.recordCount();
            }
          }
        } else {
          try (ManifestReader<DeleteFile> files =
              ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
            for (DeleteFile file : files) {
              if (file.content() == FileContent.EQUALITY_DELETES) {
                equalityFiles++;
                equalityRecords += file.recordCount();
              } else {
                positionFiles++;
                positionRecords += file.recordCount();
              }
            }
          }
        }
      } catch (IOException e) {
        throw new UncheckedIOException("cannot read manifest " + manifest.path(), e);
      }
    }
    return new TableFiles(
        dataFiles, dataRecords, equalityFiles, equalityRecords, positionFiles, positionRecords);
  }

  /** Delete files of both kinds. */
  public long deleteFiles() {
    return equalityDeleteFiles + positionDeleteFiles;
  }
}
