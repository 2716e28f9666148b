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
 * whose index would pass both, or cannot be built (a data file that is not Parquet), has none until
 * the task restarts (a larger limit needs a configuration change, which restarts it): its batches
 * are written with equality deletes, which the table maintenance converts. A spill file that cannot
 * be made ({@link KeyIndexSpillException}: a full disk, no file descriptor left, a spill directory
 * that cannot be used) may pass: that batch goes by equality deletes, and the index is built again
 * at a later batch. Used on the task's thread only.
 */
public final class KeyIndexes {
  private static final Logger log = LoggerFactory.getLogger(KeyIndexes.class);

  private final KeyIndexLimits limits;
  private final Builder builder;
  private final Map<TableIdentifier, TableKeyIndex> indexes = new HashMap<>();
  private final Set<TableIdentifier> unindexed = new HashSet<>();
  private final Map<TableIdentifier, Retry> retries = new HashMap<>();

  /** Batches to go without an index after failures of spill files in a row, at most. */
  private static final int MAX_BATCHES_WITHOUT_INDEX = 64;

  /** A table whose index failed to map a spill file {@code failures} times in a row. */
  private static final class Retry {
    int failures;
    int batchesToSkip;
  }

  /** What building an index cost, for the meters. */
  public interface BuildListener {
    void built(TableIdentifier table, TableKeyIndex index, long durationNanos);
  }

  /**
   * @param limits how large one table's index may grow; a heap limit of 0 indexes no table
   */
  public KeyIndexes(KeyIndexLimits limits) {
    this(limits, TableKeyIndex::build);
  }

  /** With the indexes {@code builder} builds (tests fail it on purpose). */
  KeyIndexes(KeyIndexLimits limits, Builder builder) {
    this.limits = limits;
    this.builder = builder;
  }

  /**
   * Builds a table's index: {@link TableKeyIndex#build(Table, Snapshot, Schema, KeyIndexLimits)}.
   */
  interface Builder {
    TableKeyIndex build(Table table, Snapshot snapshot, Schema keySchema, KeyIndexLimits limits);
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
    Retry retry = retries.get(id);
    if (retry != null && retry.batchesToSkip > 0) {
      retry.batchesToSkip--;
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
    } catch (KeyIndexSpillException e) {
      retryLater(id, e);
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
              : builder.build(table, snapshot, keySchema, limits);
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
    } catch (KeyIndexSpillException e) {
      retryLater(id, e);
      return Optional.empty();
    }
    retries.remove(id);
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

  /**
   * Releases every index (their mapped memory and spill files at once, not at a GC): the task
   * stops. Connect may stop a task without closing its partitions first.
   */
  public void releaseAll() {
    indexes.values().forEach(TableKeyIndex::release);
    indexes.clear();
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

  /**
   * Drops the index of {@code id}, whose spill file could not be made: the batch goes without one,
   * and the index is built again at the next batch, then after 1, 3, 7... batches without it while
   * the failures go on (at most {@value #MAX_BATCHES_WITHOUT_INDEX}).
   */
  private void retryLater(TableIdentifier id, KeyIndexSpillException e) {
    drop(id);
    Retry retry = retries.computeIfAbsent(id, k -> new Retry());
    retry.batchesToSkip =
        Math.min(MAX_BATCHES_WITHOUT_INDEX, (1 << Math.min(retry.failures, 30)) - 1);
    retry.failures++;
    log.warn(
        "The key index of {} could not map a spill file, {}: this batch's updates and deletes are"
            + " written as equality deletes, which the table maintenance converts, and the index is"
            + " built again {} (failure {} in a row). Check the disk of key-index.spill.dir ({})",
        id,
        e.getMessage(),
        retry.batchesToSkip == 0
            ? "at the next batch"
            : "in " + (retry.batchesToSkip + 1) + " batches",
        retry.failures,
        limits.spillDir());
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
