package io.sluice.connect.upsert.maintenance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes files under a table's data location that no retained snapshot references and that are
 * older than a bound: what a commit that failed after writing, a killed task or an expiry cut short
 * left behind. Younger files may belong to a commit in progress (of any writer) and are left alone.
 * Locations are compared by path, without scheme and authority, so {@code file:/x} and {@code
 * file:///x} are one file.
 */
final class OrphanFiles {
  private static final Logger log = LoggerFactory.getLogger(OrphanFiles.class);
  private static final Pattern SCHEME = Pattern.compile("^[A-Za-z][A-Za-z0-9+.-]*:");

  private final Set<String> unsupported = new HashSet<>();

  /**
   * Deletes the orphans of {@code table} last modified before {@code cutoffMs}.
   *
   * @param io the table's FileIO
   * @return how many were deleted; -1 when {@code io} cannot list a prefix (logged once per table)
   */
  int remove(Table table, FileIO io, long cutoffMs) {
    if (!(io instanceof SupportsPrefixOperations listing)) {
      if (unsupported.add(table.name())) {
        log.info(
            "No orphan-file removal for {}: its FileIO {} cannot list files",
            table.name(),
            io.getClass().getName());
      }
      return -1;
    }
    Set<String> referenced = referenced(table, io);
    String location = dataLocation(table);
    int deleted = 0;
    for (FileInfo file : listing.listPrefix(location)) {
      if (file.createdAtMillis() < cutoffMs && !referenced.contains(path(file.location()))) {
        io.deleteFile(file.location());
        deleted++;
      }
    }
    log.info("Removed {} orphan files under {}", deleted, location);
    return deleted;
  }

  /** The path of every file a manifest of a retained snapshot lists. */
  private static Set<String> referenced(Table table, FileIO io) {
    Map<Integer, PartitionSpec> specs = table.specs();
    Set<String> manifests = new HashSet<>();
    Set<String> files = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        if (manifests.add(manifest.path())) {
          try (ManifestReader<? extends ContentFile<?>> reader =
              manifest.content() == ManifestContent.DATA
                  ? ManifestFiles.read(manifest, io, specs)
                  : ManifestFiles.readDeleteManifest(manifest, io, specs)) {
            reader.forEach(f -> files.add(path(f.location())));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        }
      }
    }
    return files;
  }

  private static String dataLocation(Table table) {
    String location =
        table
            .properties()
            .getOrDefault(TableProperties.WRITE_DATA_LOCATION, table.location() + "/data");
    return location.endsWith("/") ? location : location + "/";
  }

  /** {@code location} without scheme and authority, slashes collapsed. */
  static String path(String location) {
    String path = location;
    if (SCHEME.matcher(path).find()) {
      path = path.substring(path.indexOf(':') + 1);
      if (path.startsWith("//")) {
        int slash = path.indexOf('/', 2);
        path = slash < 0 ? "/" : path.substring(slash);
      }
    }
    return path.replaceAll("/+", "/");
  }
}
