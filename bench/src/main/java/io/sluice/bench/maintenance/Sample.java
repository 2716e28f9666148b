package io.sluice.bench.maintenance;

/**
 * One look at the table along a run.
 *
 * @param commits the sink's commits so far
 * @param elapsedMs since the run's first record was produced
 * @param snapshotId the snapshot scanned
 * @param rows the rows the snapshot holds (deletes applied)
 * @param files its live files
 * @param scanMs the least CPU time of several full scans with Iceberg's generic reader ({@link
 *     ReadCpu})
 * @param compactedScanMs the same for a copy of those rows in one data file without deletes
 * @param ratio {@code scanMs / compactedScanMs}: the scan ratio
 * @param compactedBytes the size of the compacted copy's one data file: what the rows cost written
 *     once, compacted
 * @param scanWallMs the least wall time of the table's scans
 * @param compactedScanWallMs the same for the compacted copy
 * @param wallRatio {@code scanWallMs / compactedScanWallMs}: shown, no target (it counts what else
 *     ran on the machine meanwhile)
 */
public record Sample(
    int commits,
    long elapsedMs,
    long snapshotId,
    long rows,
    TableFiles files,
    double scanMs,
    double compactedScanMs,
    double ratio,
    long compactedBytes,
    double scanWallMs,
    double compactedScanWallMs,
    double wallRatio) {
  /** A sample; the ratios from the two scan times (0 when the compacted scan took no time). */
  public static Sample of(
      int commits,
      long elapsedMs,
      long snapshotId,
      long rows,
      TableFiles files,
      double scanMs,
      double compactedScanMs,
      long compactedBytes,
      double scanWallMs,
      double compactedScanWallMs) {
    return new Sample(
        commits,
        elapsedMs,
        snapshotId,
        rows,
        files,
        scanMs,
        compactedScanMs,
        compactedScanMs > 0 ? scanMs / compactedScanMs : 0,
        compactedBytes,
        scanWallMs,
        compactedScanWallMs,
        compactedScanWallMs > 0 ? scanWallMs / compactedScanWallMs : 0);
  }
}
