package io.sluice.connect.upsert.maintenance;

import io.sluice.lake.SameThreadExecutor;
import io.sluice.lake.offsets.IcebergOffsets;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Expires the oldest snapshots of the main branch, with their files, but never one the sink's
 * offsets are found in.
 *
 * <p>The offsets of a partition are in the newest snapshot of the ancestry that names it, and every
 * lookup (the task's seek, its offset fence, the DLQ start) walks the ancestry down to it. So the
 * oldest snapshot still needed is the oldest that is some partition's newest ({@link
 * IcebergOffsets#oldestNeeded}); only strictly older ones may go. Commits that land between this
 * plan and its commit only add newer snapshots, which can make the needed one newer, never older,
 * so the plan stays safe. The snapshots are named explicitly, and Iceberg's own age rule is set to
 * keep everything else, so that nothing but the planned suffix of the ancestry is expired.
 *
 * <p>Snapshots expire in batches of at least a tenth of the kept count: each expiry is a commit
 * that races the sink's own, so one every few passes rather than one per pass.
 */
final class SnapshotExpiry {
  private static final Logger log = LoggerFactory.getLogger(SnapshotExpiry.class);

  private final int keepLast;
  private final long maxAgeMs;

  SnapshotExpiry(int keepLast, long maxAgeMs) {
    this.keepLast = keepLast;
    this.maxAgeMs = maxAgeMs;
  }

  /**
   * The snapshots of {@code ancestry} (newest first) to expire: the longest oldest-first suffix
   * whose snapshots are all older than {@code cutoffMs}, beyond the first {@code keepLast}, and
   * strictly older than the oldest snapshot the offsets need.
   */
  static List<Snapshot> expirable(List<Snapshot> ancestry, int keepLast, long cutoffMs) {
    int first = Math.max(keepLast, IcebergOffsets.oldestNeeded(ancestry) + 1);
    int from = ancestry.size();
    while (from > first && ancestry.get(from - 1).timestampMillis() < cutoffMs) {
      from--;
    }
    return ancestry.subList(from, ancestry.size());
  }

  /**
   * Expires what {@link #expirable} allows now, deleting files only they referenced.
   *
   * @return how many snapshots expired
   */
  int expire(Table table, long nowMs) {
    List<Snapshot> ancestry = new ArrayList<>();
    SnapshotUtil.currentAncestors(table).forEach(ancestry::add);
    Set<Long> referenced = new HashSet<>();
    table.refs().values().stream().map(SnapshotRef::snapshotId).forEach(referenced::add);
    List<Snapshot> expired =
        expirable(ancestry, keepLast, nowMs - maxAgeMs).stream()
            .filter(s -> !referenced.contains(s.snapshotId()))
            .toList();
    if (expired.isEmpty() || expired.size() < Math.max(1, keepLast / 10)) {
      return 0;
    }
    // retainLast(MAX) keeps every ancestor from Iceberg's own age rule (the table's
    // history.expire.* properties): only the snapshots named here go.
    ExpireSnapshots expire =
        table
            .expireSnapshots()
            .retainLast(Integer.MAX_VALUE)
            .cleanExpiredFiles(true)
            .planWith(SameThreadExecutor.INSTANCE)
            .executeDeleteWith(SameThreadExecutor.INSTANCE);
    expired.forEach(s -> expire.expireSnapshotId(s.snapshotId()));
    expire.commit();
    log.info(
        "Expired {} snapshots of {} (oldest kept {}, {} kept)",
        expired.size(),
        table.name(),
        ancestry.get(ancestry.size() - expired.size() - 1).snapshotId(),
        ancestry.size() - expired.size());
    return expired.size();
  }
}
