package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.metrics.MaintenanceMeters;
import io.sluice.lake.SameThreadExecutor;
import io.sluice.lake.offsets.IcebergOffsets;
import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiPredicate;
import org.apache.iceberg.ExpireSnapshots;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotRef;
import org.apache.iceberg.Table;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.kafka.common.TopicPartition;
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
 * <p>A partition of another connector name, or of a topic this connector no longer subscribes to,
 * counts only while its newest snapshot is younger than the offsets horizon: a task records every
 * partition it holds again at least every idle-commit interval, so an older one is held by nobody
 * (a topic retired, a connector renamed), and would otherwise keep every later snapshot for good.
 * Each such entry is logged once, when it stops counting. The connector's own partitions of the
 * topics it subscribes to always count: after an outage longer than the horizon, the first pass may
 * run before every task has recorded its partitions again.
 *
 * <p>Snapshots expire in batches of at least a tenth of the kept count: each expiry is a commit
 * that races the sink's own, so one every few passes rather than one per pass.
 */
final class SnapshotExpiry {
  private static final Logger log = LoggerFactory.getLogger(SnapshotExpiry.class);

  private final int keepLast;
  private final long maxAgeMs;
  private final long offsetsHorizonMs;
  private final BiPredicate<String, TopicPartition> subscribed;
  // Per table, the entries past the horizon at its last expiry: each is logged once.
  private final Map<String, Set<IcebergOffsets.Retired>> retired = new HashMap<>();

  /**
   * @param offsetsHorizonMs how long a connector's partition keeps its newest snapshot from
   *     expiring without being recorded again
   */
  SnapshotExpiry(int keepLast, long maxAgeMs, long offsetsHorizonMs) {
    this(keepLast, maxAgeMs, offsetsHorizonMs, (connector, partition) -> false);
  }

  /**
   * @param subscribed the (connector, partition) entries that count whatever their age: the
   *     connector's own partitions of the topics it still subscribes to, whose tasks re-record them
   *     as long as they run (so that a connector stopped past the horizon keeps its offsets)
   */
  SnapshotExpiry(
      int keepLast,
      long maxAgeMs,
      long offsetsHorizonMs,
      BiPredicate<String, TopicPartition> subscribed) {
    this.keepLast = keepLast;
    this.maxAgeMs = maxAgeMs;
    this.offsetsHorizonMs = offsetsHorizonMs;
    this.subscribed = subscribed;
  }

  /**
   * The snapshots of {@code ancestry} (newest first) to expire: the longest oldest-first suffix
   * whose snapshots are all older than {@code cutoffMs}, beyond the first {@code keepLast}, and
   * strictly older than the oldest snapshot the offsets recorded since {@code offsetsCutoffMs}
   * need.
   */
  static List<Snapshot> expirable(
      List<Snapshot> ancestry, int keepLast, long cutoffMs, long offsetsCutoffMs) {
    return expirable(ancestry, keepLast, cutoffMs, offsetsCutoffMs, (connector, tp) -> false);
  }

  /** {@link #expirable(List, int, long, long)} counting the {@code subscribed} entries always. */
  static List<Snapshot> expirable(
      List<Snapshot> ancestry,
      int keepLast,
      long cutoffMs,
      long offsetsCutoffMs,
      BiPredicate<String, TopicPartition> subscribed) {
    int first =
        Math.max(keepLast, IcebergOffsets.oldestNeeded(ancestry, offsetsCutoffMs, subscribed) + 1);
    int from = ancestry.size();
    while (from > first && ancestry.get(from - 1).timestampMillis() < cutoffMs) {
      from--;
    }
    return ancestry.subList(from, ancestry.size());
  }

  /**
   * Expires what {@link #expirable} allows now, deleting files only they referenced, and publishes
   * how many offsets entries are past the horizon.
   *
   * @return how many snapshots expired
   */
  int expire(Table table, long nowMs, MaintenanceMeters meters) {
    List<Snapshot> ancestry = new ArrayList<>();
    SnapshotUtil.currentAncestors(table).forEach(ancestry::add);
    long offsetsCutoffMs = nowMs - offsetsHorizonMs;
    List<IcebergOffsets.Retired> pastHorizon =
        IcebergOffsets.retired(ancestry, offsetsCutoffMs, subscribed);
    logNewlyRetired(table.name(), pastHorizon, nowMs);
    meters.offsetsRetired(pastHorizon.size());
    Set<Long> referenced = new HashSet<>();
    table.refs().values().stream().map(SnapshotRef::snapshotId).forEach(referenced::add);
    List<Snapshot> expired =
        expirable(ancestry, keepLast, nowMs - maxAgeMs, offsetsCutoffMs, subscribed).stream()
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

  /** Logs the entries of {@code table} past the horizon now that were not at its last expiry. */
  private void logNewlyRetired(String table, List<IcebergOffsets.Retired> now, long nowMs) {
    Set<IcebergOffsets.Retired> before = retired.getOrDefault(table, Set.of());
    for (IcebergOffsets.Retired entry : now) {
      if (!before.contains(entry)) {
        log.info(
            "Offsets of connector {} for {} no longer keep snapshots of {} from expiring: the"
                + " newest snapshot naming them, {}, is {} old, past the offsets horizon of {} ms"
                + " (maintenance.snapshots.offsets-horizon-ms). A task still holding the partition"
                + " would have recorded it again every maintenance.idle-commit.interval-ms; once"
                + " that snapshot expires, a task assigned the partition again starts from the"
                + " consumer group's committed offset",
            entry.connector(),
            entry.partition(),
            table,
            entry.snapshotId(),
            Duration.ofMillis(nowMs - entry.timestampMillis()).truncatedTo(ChronoUnit.SECONDS),
            offsetsHorizonMs);
      }
    }
    retired.put(table, Set.copyOf(now));
  }
}
