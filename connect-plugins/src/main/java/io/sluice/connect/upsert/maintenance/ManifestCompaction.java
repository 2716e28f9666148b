package io.sluice.connect.upsert.maintenance;

import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites the data manifests of the current snapshot into as few as their size allows, once there
 * are more than a bound: planning a read opens every manifest. The new snapshot records no offsets
 * and changes no file, so the sink's lookups walk past it.
 */
final class ManifestCompaction {
  private static final Logger log = LoggerFactory.getLogger(ManifestCompaction.class);

  private final int maxCount;

  ManifestCompaction(int maxCount) {
    this.maxCount = maxCount;
  }

  /** Rewrites when due; true when it committed. */
  boolean compact(Table table) {
    Snapshot current = table.currentSnapshot();
    if (current == null) {
      return false;
    }
    int manifests = current.dataManifests(table.io()).size();
    if (manifests <= maxCount) {
      return false;
    }
    // Clustered by spec only: one rolling set of manifests per spec, as large as Iceberg's target
    // manifest size allows.
    table.rewriteManifests().clusterBy(file -> file.specId()).commit();
    log.info(
        "Rewrote the {} data manifests of {} into {}",
        manifests,
        table.name(),
        table.currentSnapshot().dataManifests(table.io()).size());
    return true;
  }
}
