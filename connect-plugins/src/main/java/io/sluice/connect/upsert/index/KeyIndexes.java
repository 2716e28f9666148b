package io.sluice.connect.upsert.index;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A task's key indexes, one per table it writes, built on the first commit to the table and kept up
 * to date after. An index lives on the heap up to {@code key-index.max-bytes}, then in
 * memory-mapped files up to {@code key-index.spill.max-bytes} ({@link KeyIndexLimits}). A table
 * whose index would pass both, or cannot be built (a data file that is not Parquet), has none: its
 * batches are written with equality deletes, which the table maintenance converts. Used on the
 * task's thread only.
 */
public final class KeyIndexes {
  private static final Logger log = LoggerFactory.getLogger(KeyIndexes.class);

  private final KeyIndexLimits limits;
  private final Map<TableIdentifier, TableKeyIndex> indexes = new HashMap<>();
  private final Set<TableIdentifier> unindexed = new HashSet<>();

  /** What building an index cost, for the meters. */
  public interface BuildListener {
    void built(TableIdentifier table, TableKeyIndex index, long durationNanos);
  }

  /**
   * @param limits how large one table's index may grow; a heap limit of 0 indexes no table
   */
  public KeyIndexes(KeyIndexLimits limits) {
    this.limits = limits;
  }

  /**
   * The index of {@code table} at its current snapshot (the caller refreshed it): caught up, or
   * built when the task has none yet or it cannot follow; empty when the table is not indexed.
   *
   * @param keySchema the table's key columns
   */
  public Optional<TableKeyIndex> current(
      TableIdentifier id, Table table, Schema keySchema, BuildListener listener) {
    if (!limits.indexes() || unindexed.contains(id)) {
      return Optional.empty();
    }
    TableKeyIndex index = indexes.get(id);
    try {
      if (index != null
          && index.keySchema().asStruct().equals(keySchema.asStruct())
          && index.catchUpWithinLimits(table)
          && withinLimits(id, index)) {
        return Optional.of(index);
      }
    } catch (KeyIndexLimitException e) {
      refuse(id, e);
      return Optional.empty();
    }
    drop(id);
    if (unindexed.contains(id)) {
      return Optional.empty();
    }
    long started = System.nanoTime();
    Snapshot snapshot = table.currentSnapshot();
    try {
      index =
          snapshot == null
              ? TableKeyIndex.empty(keySchema, limits)
              : TableKeyIndex.build(table, snapshot, keySchema, limits);
    } catch (UnsupportedOperationException e) {
      unindexed.add(id);
      log.warn(
          "Table {} gets no key index ({}): its updates and deletes are written as equality"
              + " deletes, which the table maintenance converts",
          id,
          e.getMessage());
      return Optional.empty();
    } catch (KeyIndexLimitException e) {
      refuse(id, e);
      return Optional.empty();
    }
    long took = System.nanoTime() - started;
    log.info(
        "Built the key index of {} at snapshot {}: {} keys, {} bytes ({} per key; {} of them in"
            + " mapped files), {} rows read in {} ms",
        id,
        snapshot == null ? "(none)" : snapshot.snapshotId(),
        index.keys(),
        index.bytes(),
        index.keys() == 0 ? 0 : index.bytes() / index.keys(),
        index.spilledBytes(),
        index.rowsRead(),
        took / 1_000_000);
    listener.built(id, index, took);
    indexes.put(id, index);
    if (!withinLimits(id, index)) {
      return Optional.empty();
    }
    return Optional.of(index);
  }

  /** The index of {@code id} the task holds, if any (not caught up). */
  public Optional<TableKeyIndex> held(TableIdentifier id) {
    return Optional.ofNullable(indexes.get(id));
  }

  /** Forgets the index of {@code id} (the task no longer writes the table). */
  public void forget(TableIdentifier id) {
    drop(id);
  }

  private void drop(TableIdentifier id) {
    TableKeyIndex index = indexes.remove(id);
    if (index != null) {
      index.release();
    }
  }

  private boolean withinLimits(TableIdentifier id, TableKeyIndex index) {
    Optional<String> past = index.pastLimits();
    if (past.isEmpty()) {
      return true;
    }
    drop(id);
    unindexed.add(id);
    warnNoIndex(id, index.keys(), index.bytes(), past.get());
    return false;
  }

  private void refuse(TableIdentifier id, KeyIndexLimitException e) {
    drop(id);
    unindexed.add(id);
    warnNoIndex(id, e.keys(), e.bytes(), e.getMessage());
  }

  private void warnNoIndex(TableIdentifier id, long keys, long bytes, String why) {
    log.warn(
        "The key index of {} reached {} keys and needed {} bytes, {}: the table gets no key"
            + " index until the task restarts, and its updates and deletes are written as equality"
            + " deletes, which the table maintenance converts. Raise key-index.spill.max-bytes"
            + " (and the disk of key-index.spill.dir, {}) or key-index.max-bytes (and the"
            + " worker's heap) to index it",
        id,
        keys,
        bytes,
        why,
        limits.spillDir());
  }
}
