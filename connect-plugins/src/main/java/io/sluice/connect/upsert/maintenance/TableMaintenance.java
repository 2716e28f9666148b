package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.config.MaintenanceSettings;
import io.sluice.connect.upsert.maintenance.RewriteCommit.Result;
import io.sluice.connect.upsert.metrics.MaintenanceMeters;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.locks.Lock;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One maintenance pass over one table: read the current snapshot's files, rewrite the partitions
 * and data files that are due ({@link RewritePlanner}), expire snapshots, rewrite manifests, and
 * (when asked) remove orphan files. Each job commits on its own; a job Iceberg refuses is given up
 * until the next pass.
 */
final class TableMaintenance {
  private static final Logger log = LoggerFactory.getLogger(TableMaintenance.class);

  private final MaintenanceSettings settings;
  private final RewritePlanner planner;
  private final PartitionRewrite partitionRewrite;
  private final FileRewrite fileRewrite;
  private final SnapshotExpiry expiry;
  private final ManifestCompaction manifests;
  private final OrphanFiles orphans = new OrphanFiles();
  private final BooleanSupplier stopping;
  private final Set<String> multiSpecTables = new HashSet<>();

  /**
   * @param taskId part of the rewritten files' names
   * @param stopping true once the task stops: the pass ends after its current step
   * @param commits held while a rewrite or manifest rewrite reaches the catalog
   */
  TableMaintenance(
      MaintenanceSettings settings, int taskId, BooleanSupplier stopping, Lock commits) {
    this(settings, taskId, stopping, commits, (connector, partition) -> false);
  }

  /**
   * @param subscribed the offsets entries that keep their snapshots whatever their age ({@link
   *     SnapshotExpiry})
   */
  TableMaintenance(
      MaintenanceSettings settings,
      int taskId,
      BooleanSupplier stopping,
      Lock commits,
      BiPredicate<String, TopicPartition> subscribed) {
    this.settings = settings;
    this.planner = new RewritePlanner(settings);
    RewriteCommit commit = new RewriteCommit(commits);
    long target = settings.targetFileSizeBytes();
    this.partitionRewrite = new PartitionRewrite(taskId, target, stopping, commit);
    this.fileRewrite = new FileRewrite(taskId, target, stopping, commit);
    this.expiry =
        new SnapshotExpiry(
            settings.keepLastSnapshots(),
            settings.snapshotMaxAgeMs(),
            settings.offsetsHorizonMs(),
            subscribed);
    this.manifests = new ManifestCompaction(settings.manifestsMaxCount(), commits);
    this.stopping = stopping;
  }

  /**
   * @param orphansDue whether this pass also removes orphan files
   * @param nowMs the wall clock, for snapshot and file ages
   */
  void run(Table table, MaintenanceMeters meters, boolean orphansDue, long nowMs) {
    long started = System.nanoTime();
    Snapshot base = table.currentSnapshot();
    if (base == null) {
      return;
    }
    TableInventory inventory = TableInventory.read(table, base, false);
    if (planner.needsDataFiles(inventory.groups(), TableInventory.totalDataFiles(base))) {
      inventory = TableInventory.read(table, base, true);
    }
    boolean rewrote = rewriteDue(table, inventory, meters);
    checkStop();
    int expired = expiry.expire(table, nowMs, meters);
    checkStop();
    boolean compacted = manifests.compact(table);
    if (orphansDue) {
      checkStop();
      orphans.remove(table, table.io(), nowMs - settings.orphansOlderThanMs());
    }
    if (rewrote || expired > 0 || compacted) {
      table.refresh();
      inventory = TableInventory.read(table, table.currentSnapshot(), false);
    }
    meters.inspected(inventory.counts(countSnapshots(table)));
    meters.ran(System.nanoTime() - started);
  }

  /** Rewrites the due partitions and files; true when one committed. */
  private boolean rewriteDue(Table table, TableInventory inventory, MaintenanceMeters meters) {
    RewritePlanner.Plan plan = planner.plan(inventory.groups());
    if (plan.isEmpty()) {
      return false;
    }
    if (inventory.specIds().size() > 1) {
      if (multiSpecTables.add(table.name())) {
        log.info(
            "No rewrites of {}: its files are in partition specs {}, and deletes of one spec can"
                + " apply to files of another",
            table.name(),
            inventory.specIds());
      }
      return false;
    }
    Snapshot base = inventory.snapshot();
    List<Supplier<Result>> rewrites = new ArrayList<>();
    plan.partitions().forEach(g -> rewrites.add(() -> partitionRewrite.rewrite(table, base, g)));
    plan.bins().forEach(b -> rewrites.add(() -> fileRewrite.rewrite(table, base, b)));
    boolean committed = false;
    for (Supplier<Result> rewrite : rewrites) {
      checkStop();
      try {
        Result result = rewrite.get();
        if (result == Result.COMMITTED) {
          meters.rewritten();
          committed = true;
        } else if (result == Result.ABANDONED) {
          meters.rewriteFailed();
          // Another writer changed the table since the inventory: the next pass reads it anew.
          return committed;
        }
      } catch (RuntimeException e) {
        meters.rewriteFailed();
        throw e;
      }
    }
    return committed;
  }

  private void checkStop() {
    if (stopping.getAsBoolean()) {
      throw new CancellationException("the task stops");
    }
  }

  private static long countSnapshots(Table table) {
    long count = 0;
    for (Snapshot ignored : table.snapshots()) {
      count++;
    }
    return count;
  }
}
