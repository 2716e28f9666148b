package io.sluice.bench.maintenance;

import io.sluice.bench.sink.SnapshotTally;

/**
 * Bytes the sink and its table maintenance wrote per byte of the rows the workload changed.
 *
 * <p>Written: every snapshot's {@code added-files-size} (Iceberg counts data and delete files
 * alike: the sink's commits, its merges and rewrites), each snapshot once, as the poller first saw
 * it. Changed: every change produced (inserts, updates, deletes) times the bytes one row takes
 * written compacted, i.e. the last sample's compacted copy (the rows the workload leaves, one
 * Parquet file) over its rows. Every mode leaves the same rows, so this yardstick does not depend
 * on the mode; 1.0 would be every change written once, as compactly as the copy.
 *
 * @param writtenBytes the {@code added-files-size} of every snapshot seen
 * @param snapshots the snapshots seen
 * @param unsizedSnapshots snapshots that added files without an {@code added-files-size}: their
 *     bytes are missing, so the ratio is a lower bound when this is not 0
 * @param unseenSnapshots snapshots expired before the poller saw them (at least this many),
 *     likewise
 * @param changedRecords every change produced
 * @param bytesPerRow the compacted copy's bytes over its rows; 0 when no sample had rows
 * @param ratio {@code writtenBytes / (changedRecords * bytesPerRow)}; 0 when that is 0
 */
public record WriteAmplification(
    long writtenBytes,
    long snapshots,
    long unsizedSnapshots,
    long unseenSnapshots,
    long changedRecords,
    double bytesPerRow,
    double ratio) {
  public static final WriteAmplification NONE = new WriteAmplification(0, 0, 0, 0, 0, 0, 0);

  /**
   * The write amplification of what {@code written} counted for {@code changedRecords} changes.
   *
   * @param compactedBytes the last sample's compacted copy's size
   * @param compactedRows the rows of that copy
   */
  public static WriteAmplification of(
      SnapshotTally.Totals written, long changedRecords, long compactedBytes, long compactedRows) {
    double bytesPerRow = compactedRows > 0 ? (double) compactedBytes / compactedRows : 0;
    double changedBytes = changedRecords * bytesPerRow;
    return new WriteAmplification(
        written.addedBytes(),
        written.snapshots(),
        written.unsized(),
        written.unseenParents(),
        changedRecords,
        bytesPerRow,
        changedBytes > 0 ? written.addedBytes() / changedBytes : 0);
  }

  /** Whether some snapshot's bytes are missing from {@link #writtenBytes()}. */
  public boolean lowerBound() {
    return unsizedSnapshots > 0 || unseenSnapshots > 0;
  }
}
