package io.sluice.spark;

import io.sluice.lake.offsets.SnapshotOffsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;

/**
 * A table's current ancestry read for who committed what: the sink's commits (they carry its
 * offsets) and Spark's rewrite groups, and which of those a sink commit overtook.
 */
final class RewriteHistory {
  private final Table table;
  private final String connector;
  private final List<Snapshot> oldestFirst = new ArrayList<>();

  RewriteHistory(Table table, String connector) {
    this.table = table;
    this.connector = connector;
    SnapshotUtil.currentAncestors(table).forEach(oldestFirst::add);
    Collections.reverse(oldestFirst);
  }

  long sinkCommits() {
    return oldestFirst.stream().filter(this::isSinkCommit).count();
  }

  /** Snapshots of Spark rewrite groups: replaces by Spark that added data files. */
  List<Snapshot> sparkRewrites() {
    return oldestFirst.stream()
        .filter(
            s ->
                DataOperations.REPLACE.equals(s.operation())
                    && "spark".equals(s.summary().get("engine-name"))
                    && s.addedDataFiles(table.io()).iterator().hasNext())
        .toList();
  }

  /**
   * Spark rewrite groups that committed after a sink commit landed since the snapshot they started
   * from (the data sequence number their new files carry).
   */
  long sparkRewritesRacedBySink() {
    return sparkRewrites().stream().filter(this::racedBySink).count();
  }

  private boolean racedBySink(Snapshot rewrite) {
    long start = Long.MAX_VALUE;
    for (DataFile f : rewrite.addedDataFiles(table.io())) {
      start = Math.min(start, f.dataSequenceNumber());
    }
    long from = start;
    return oldestFirst.stream()
        .anyMatch(
            s ->
                isSinkCommit(s)
                    && s.sequenceNumber() > from
                    && s.sequenceNumber() < rewrite.sequenceNumber());
  }

  private boolean isSinkCommit(Snapshot s) {
    return s.summary().containsKey(SnapshotOffsets.KEY_PREFIX + connector);
  }
}
