package io.sluice.tools.monitor;

import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;

/**
 * What the monitor shows of one Iceberg table after one refresh, read from its metadata only: the
 * current snapshot's time and summary totals, the number of snapshots in the metadata, and the
 * commits (new snapshots) since the previous refresh by operation.
 *
 * @param lastCommitMillis the current snapshot's timestamp (epoch ms); {@link #NO_COMMIT} when the
 *     table has no current snapshot
 * @param snapshots snapshots in the table's metadata (every branch and tag, until expired)
 * @param records the current snapshot's {@code total-records}; 0 for a table without snapshot,
 *     {@link #UNKNOWN} when the summary has no total (a writer that keeps none)
 * @param dataFiles {@code total-data-files}, likewise
 * @param deleteFiles {@code total-delete-files} (position and equality delete files), likewise
 * @param equalityDeletes {@code total-equality-deletes}: deleted rows in equality delete files,
 *     likewise
 * @param newCommits new snapshots by {@link #operation operation label}; only operations that
 *     occurred
 */
public record TableReading(
    long lastCommitMillis,
    int snapshots,
    long records,
    long dataFiles,
    long deleteFiles,
    long equalityDeletes,
    Map<String, Long> newCommits) {

  public static final long NO_COMMIT = -1;
  public static final long UNKNOWN = -1;

  /** The label of operations that are none of Iceberg's four (or missing, in old metadata). */
  public static final String OTHER_OPERATION = "other";

  /** Iceberg's snapshot operations: each has a commit counter from a table's first reading on. */
  public static final List<String> OPERATIONS =
      List.of(
          DataOperations.APPEND,
          DataOperations.REPLACE,
          DataOperations.OVERWRITE,
          DataOperations.DELETE);

  public TableReading {
    newCommits = Map.copyOf(newCommits);
  }

  /**
   * The reading of a table whose current snapshot is {@code current} (null for none).
   *
   * @param newCommits new snapshots by operation label (see {@link #operation})
   */
  public static TableReading of(Snapshot current, int snapshots, Map<String, Long> newCommits) {
    if (current == null) {
      return new TableReading(NO_COMMIT, snapshots, 0, 0, 0, 0, newCommits);
    }
    Map<String, String> summary = current.summary();
    return new TableReading(
        current.timestampMillis(),
        snapshots,
        total(summary, SnapshotSummary.TOTAL_RECORDS_PROP),
        total(summary, SnapshotSummary.TOTAL_DATA_FILES_PROP),
        total(summary, SnapshotSummary.TOTAL_DELETE_FILES_PROP),
        total(summary, SnapshotSummary.TOTAL_EQ_DELETES_PROP),
        newCommits);
  }

  /** A non-negative count from a snapshot summary; {@link #UNKNOWN} when missing or no count. */
  static long total(Map<String, String> summary, String key) {
    String value = summary == null ? null : summary.get(key);
    if (value == null) {
      return UNKNOWN;
    }
    try {
      long total = Long.parseLong(value.strip());
      return total < 0 ? UNKNOWN : total;
    } catch (NumberFormatException e) {
      return UNKNOWN;
    }
  }

  /**
   * The {@code operation} label of a snapshot: Iceberg's {@code append}, {@code replace}, {@code
   * overwrite} or {@code delete}; anything else {@value #OTHER_OPERATION}, so a writer's own
   * operation names cannot multiply the series.
   */
  public static String operation(Snapshot snapshot) {
    String operation = snapshot.operation();
    return operation != null && OPERATIONS.contains(operation) ? operation : OTHER_OPERATION;
  }
}
