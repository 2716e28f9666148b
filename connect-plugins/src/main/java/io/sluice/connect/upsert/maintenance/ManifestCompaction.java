package io.sluice.connect.upsert.maintenance;

import java.util.concurrent.locks.Lock;
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
  private final Lock commits;

  /**
   * @param commits held while the commit reaches the catalog
   */
  ManifestCompaction(int maxCount, Lock commits) {
    this.maxCount = maxCount;
    this.commits = commits;
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
    commits.lock();
    try {
      table.rewriteManifests().clusterBy(file -> file.specId()).commit();
    } finally {
      commits.unlock();
    }
    log.info(
        "Rewrote the {} data manifests of {} into {}",
        manifests,
        table.name(),
        table.currentSnapshot().dataManifests(table.io()).size());
    return true;
  }
}
