package io.sluice.connect.upsert;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;

/**
 * Another engine's orphan removal, as Spark's {@code remove_orphan_files} does it: every file under
 * the table's location that no snapshot, metadata file or statistics file reaches ({@link
 * ReachableFileUtil} and every manifest's entries) and that is older than a cutoff is deleted.
 */
public final class ExternalOrphanRemoval {
  private ExternalOrphanRemoval() {}

  /**
   * @param olderThanMillis files created before this instant may go (Spark: now - 3 days)
   * @return the files deleted
   */
  public static List<String> removeOnce(Table table, long olderThanMillis) {
    SupportsPrefixOperations io = (SupportsPrefixOperations) table.io();
    Set<String> reachable = reachable(table);
    List<String> orphans =
        java.util.stream.StreamSupport.stream(io.listPrefix(table.location()).spliterator(), false)
            .filter(f -> f.createdAtMillis() < olderThanMillis)
            .map(FileInfo::location)
            .filter(location -> !reachable.contains(location))
            .toList();
    orphans.forEach(io::deleteFile);
    return orphans;
  }

  private static Set<String> reachable(Table table) {
    Set<String> reachable = new HashSet<>();
    reachable.add(((HasTableOperations) table).operations().current().metadataFileLocation());
    reachable.addAll(ReachableFileUtil.metadataFileLocations(table, true));
    reachable.add(ReachableFileUtil.versionHintLocation(table));
    reachable.addAll(ReachableFileUtil.manifestListLocations(table));
    reachable.addAll(ReachableFileUtil.statisticsFilesLocations(table));
    for (Snapshot snapshot : table.snapshots()) {
      for (ManifestFile manifest : snapshot.allManifests(table.io())) {
        if (!reachable.add(manifest.path())) {
          continue;
        }
        try {
          if (manifest.content() == ManifestContent.DATA) {
            try (CloseableIterable<DataFile> files =
                ManifestFiles.read(manifest, table.io(), table.specs())) {
              files.forEach(f -> reachable.add(location(f)));
            }
          } else {
            try (CloseableIterable<DeleteFile> files =
                ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
              files.forEach(f -> reachable.add(location(f)));
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }
    }
    return reachable;
  }

  private static String location(ContentFile<?> file) {
    return file.location();
  }
}
