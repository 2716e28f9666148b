package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.config.MaintenanceSettings;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

/** Which partitions of a table are due for a rewrite, by the thresholds of the settings. */
final class RewritePlanner {
  private final MaintenanceSettings settings;

  RewritePlanner(MaintenanceSettings settings) {
    this.settings = settings;
  }

  /**
   * Whether a pass must read the data manifests: some partition has reached the delete-file
   * threshold (its rewrite needs its data files), or the table has enough data files that some
   * partition could have reached the small-file threshold (the summary's total, no manifest read).
   */
  boolean needsDataFiles(TableInventory deletes) {
    return deletes.anyPartitionHasDeleteFiles(settings.rewriteDeleteFiles())
        || TableInventory.totalDataFiles(deletes.snapshot()) >= settings.rewriteSmallFiles();
  }

  /** The partitions to rewrite, those with the most delete files first. */
  List<FileGroup> due(Collection<FileGroup> groups) {
    return groups.stream()
        .filter(this::isDue)
        .sorted(Comparator.comparingInt((FileGroup g) -> g.deleteFiles().size()).reversed())
        .toList();
  }

  private boolean isDue(FileGroup group) {
    return group.deleteFiles().size() >= settings.rewriteDeleteFiles()
        || group.dataFilesSmallerThan(settings.smallFileBytes()) >= settings.rewriteSmallFiles();
  }
}
