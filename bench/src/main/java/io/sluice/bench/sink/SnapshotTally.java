package io.sluice.bench.sink;

import io.sluice.connect.upsert.commit.UpsertCommitter;
import java.util.Collections;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;

/**
 * What a table's snapshots wrote, each counted once as the poller first sees it: the bytes of the
 * files they added (Iceberg's {@code added-files-size}, which counts data and delete files alike),
 * and how many carried each upsert sink commit mode ({@value UpsertCommitter#COMMIT_MODE}).
 * Snapshots can expire between two polls; a snapshot whose parent was never seen says one was
 * missed. Thread-safe: one poller adds, the benchmark reads.
 */
public final class SnapshotTally {
  /**
   * The tally so far.
   *
   * @param snapshots snapshots seen
   * @param addedBytes their {@code added-files-size}, summed
   * @param unsized snapshots that added files without an {@code added-files-size} (Iceberg leaves
   *     it out when it cannot trust it): their bytes are missing from {@code addedBytes}
   * @param unseenParents snapshots whose parent the poller never saw: at least this many expired
   *     before a poll, and their bytes are missing
   * @param commitModes snapshots by their {@value UpsertCommitter#COMMIT_MODE}; those without it
   *     (the table's maintenance) are not counted here
   */
  public record Totals(
      long snapshots,
      long addedBytes,
      long unsized,
      long unseenParents,
      Map<String, Long> commitModes) {
    public static final Totals NONE = new Totals(0, 0, 0, 0, Map.of());

    public Totals {
      commitModes = Collections.unmodifiableMap(new TreeMap<>(commitModes));
    }
  }

  private final Set<Long> seen = new HashSet<>();
  private final Set<Long> parents = new HashSet<>();
  private final Map<String, Long> commitModes = new TreeMap<>();
  private long addedBytes;
  private long unsized;

  /** Counts {@code snapshot} unless it was counted before. */
  public synchronized void add(Snapshot snapshot) {
    if (!seen.add(snapshot.snapshotId())) {
      return;
    }
    if (snapshot.parentId() != null) {
      parents.add(snapshot.parentId());
    }
    Map<String, String> summary = snapshot.summary();
    String size = summary.get(SnapshotSummary.ADDED_FILE_SIZE_PROP);
    if (size != null) {
      addedBytes += Long.parseLong(size);
    } else if (summary.containsKey(SnapshotSummary.ADDED_FILES_PROP)
        || summary.containsKey(SnapshotSummary.ADDED_DELETE_FILES_PROP)) {
      unsized++;
    }
    String mode = summary.get(UpsertCommitter.COMMIT_MODE);
    if (mode != null) {
      commitModes.merge(mode, 1L, Long::sum);
    }
  }

  /** Whether {@code snapshotId} was counted. */
  public synchronized boolean counted(long snapshotId) {
    return seen.contains(snapshotId);
  }

  public synchronized Totals totals() {
    long unseen = parents.stream().filter(p -> !seen.contains(p)).count();
    return new Totals(seen.size(), addedBytes, unsized, unseen, commitModes);
  }
}
