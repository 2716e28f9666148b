package io.sluice.connect.upsert.config;

/**
 * What the sink's table maintenance does and when (the {@code maintenance.*} keys).
 *
 * @param rewriteDeleteFiles a partition is rewritten whole once it has this many equality or
 *     partition-wide position deletes; on v2 a data file once this many position deletes name it
 * @param rewriteSmallFiles a partition's small files (below {@link #smallFileBytes()}) are merged
 *     once it has this many
 * @param rewriteDeletedFraction a data file is rewritten once this fraction of its rows is deleted
 *     by deletes that name it
 * @param targetFileSizeBytes size of the data files a rewrite writes
 * @param keepLastSnapshots snapshots always kept
 * @param snapshotMaxAgeMs snapshots younger than this are always kept
 * @param offsetsHorizonMs a connector's partition whose newest snapshot is older than this no
 *     longer keeps snapshots from expiring
 * @param orphansOlderThanMs unreferenced files younger than this are never removed
 * @param orphansIntervalMs how often a table's data location is searched for orphans
 * @param manifestsMaxCount data manifests of the current snapshot above which they are rewritten
 * @param checkIntervalMs how often maintained tables are checked besides after the task's commits
 */
public record MaintenanceSettings(
    int rewriteDeleteFiles,
    int rewriteSmallFiles,
    double rewriteDeletedFraction,
    long targetFileSizeBytes,
    int keepLastSnapshots,
    long snapshotMaxAgeMs,
    long offsetsHorizonMs,
    long orphansOlderThanMs,
    long orphansIntervalMs,
    int manifestsMaxCount,
    long checkIntervalMs) {

  /** Data files below three quarters of the target count as small (Iceberg's rewrite default). */
  public long smallFileBytes() {
    return targetFileSizeBytes / 4 * 3;
  }
}
