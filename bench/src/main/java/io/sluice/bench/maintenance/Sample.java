package io.sluice.bench.maintenance;

/**
 * One look at the table along a run.
 *
 * @param commits the sink's commits so far
 * @param elapsedMs since the run's first record was produced
 * @param snapshotId the snapshot scanned
 * @param rows the rows the snapshot holds (deletes applied)
 * @param files its live files
 * @param scanMs median time of a full scan with Iceberg's generic reader
 * @param compactedScanMs the same for a copy of those rows in one data file without deletes
 * @param ratio {@code scanMs / compactedScanMs}
 * @param compactedBytes the size of the compacted copy's one data file: what the rows cost written
 *     once, compacted
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
    long compactedBytes) {
  /** A sample; the ratio from the two scan times (0 when the compacted scan took no time). */
  public static Sample of(
      int commits,
      long elapsedMs,
      long snapshotId,
      long rows,
      TableFiles files,
      double scanMs,
      double compactedScanMs,
      long compactedBytes) {
    return new Sample(
        commits,
        elapsedMs,
        snapshotId,
        rows,
        files,
        scanMs,
        compactedScanMs,
        compactedScanMs > 0 ? scanMs / compactedScanMs : 0,
        compactedBytes);
  }
}
