package io.sluice.connect.upsert.maintenance;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.iceberg.ContentFile;
import org.apache.iceberg.HasTableOperations;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.ReachableFileUtil;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.FileInfo;
import org.apache.iceberg.io.SupportsPrefixOperations;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes files under a table's data location that nothing of the table reaches and that are older
 * than a bound: what a commit that failed after writing, a killed task or an expiry cut short left
 * behind. Younger files may belong to a commit in progress (of any writer) and are left alone.
 *
 * <p>A file counts as reached as Iceberg's own {@code DeleteOrphanFiles} counts it: the current and
 * logged metadata files, and of every retained snapshot its manifest list, manifests, data and
 * delete files, statistics and partition-statistics files ({@link ReachableFileUtil}). Nothing
 * under a metadata location is ever deleted, whatever it reaches: a data location may contain it
 * ({@code write.data.path} set to the table's location), and a metadata file a commit in flight has
 * just written is reached by nothing yet. Locations are compared by path, without scheme and
 * authority, so {@code file:/x} and {@code file:///x} are one file.
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
    Set<String> reached = reached(table, io);
    List<String> metadata = metadataLocations(table);
    String location = directory(dataLocation(table));
    int deleted = 0;
    for (FileInfo file : listing.listPrefix(location)) {
      String path = path(file.location());
      if (file.createdAtMillis() < cutoffMs
          && !reached.contains(path)
          && metadata.stream().noneMatch(path::startsWith)) {
        io.deleteFile(file.location());
        deleted++;
      }
    }
    log.info("Removed {} orphan files under {}", deleted, location);
    return deleted;
  }

  /** The path of every file the table's metadata and its retained snapshots reach. */
  private static Set<String> reached(Table table, FileIO io) {
    Set<String> files = new HashSet<>();
    if (table instanceof HasTableOperations) {
      ReachableFileUtil.metadataFileLocations(table, false).forEach(f -> files.add(path(f)));
    }
    ReachableFileUtil.manifestListLocations(table).forEach(f -> files.add(path(f)));
    ReachableFileUtil.statisticsFilesLocations(table).forEach(f -> files.add(path(f)));
    Map<Integer, PartitionSpec> specs = table.specs();
    Set<String> manifests = new HashSet<>();
    for (Snapshot snapshot : table.snapshots()) {
      for (ManifestFile manifest : snapshot.allManifests(io)) {
        if (manifests.add(path(manifest.path()))) {
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
    files.addAll(manifests);
    return files;
  }

  /**
   * The paths (with a trailing slash) under which the table's metadata is written: {@code
   * write.metadata.path}, the directory of the current metadata file, and {@code
   * <location>/metadata}, where it went before {@code write.metadata.path} was set.
   */
  private static List<String> metadataLocations(Table table) {
    Set<String> locations = new LinkedHashSet<>();
    String configured = table.properties().get(TableProperties.WRITE_METADATA_LOCATION);
    if (configured != null) {
      locations.add(directory(path(configured)));
    }
    if (table instanceof HasTableOperations operations) {
      String current = operations.operations().current().metadataFileLocation();
      if (current != null && current.lastIndexOf('/') > 0) {
        locations.add(directory(path(current.substring(0, current.lastIndexOf('/')))));
      }
    }
    locations.add(directory(path(table.location() + "/metadata")));
    return List.copyOf(locations);
  }

  private static String dataLocation(Table table) {
    return table
        .properties()
        .getOrDefault(TableProperties.WRITE_DATA_LOCATION, table.location() + "/data");
  }

  private static String directory(String location) {
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
