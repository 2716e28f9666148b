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
 * to date after. A table whose index would hold more than {@code maxBytes}, or cannot be built (a
 * data file that is not Parquet), has none: its batches are written with equality deletes, which
 * the table maintenance converts. Used on the task's thread only.
 */
public final class KeyIndexes {
  private static final Logger log = LoggerFactory.getLogger(KeyIndexes.class);

  private final long maxBytes;
  private final Map<TableIdentifier, TableKeyIndex> indexes = new HashMap<>();
  private final Set<TableIdentifier> unindexed = new HashSet<>();

  /** What building an index cost, for the meters. */
  public interface BuildListener {
    void built(TableIdentifier table, TableKeyIndex index, long durationNanos);
  }

  /**
   * @param maxBytes the most heap one table's index may hold; 0 indexes no table
   */
  public KeyIndexes(long maxBytes) {
    this.maxBytes = maxBytes;
  }

  /**
   * The index of {@code table} at its current snapshot (the caller refreshed it): caught up, or
   * built when the task has none yet or it cannot follow; empty when the table is not indexed.
   *
   * @param keySchema the table's key columns
   */
  public Optional<TableKeyIndex> current(
      TableIdentifier id, Table table, Schema keySchema, BuildListener listener) {
    if (maxBytes <= 0 || unindexed.contains(id)) {
      return Optional.empty();
    }
    TableKeyIndex index = indexes.get(id);
    if (index != null
        && index.keySchema().asStruct().equals(keySchema.asStruct())
        && index.catchUp(table)
        && withinLimit(id, index)) {
      return Optional.of(index);
    }
    indexes.remove(id);
    if (unindexed.contains(id)) {
      return Optional.empty();
    }
    long started = System.nanoTime();
    Snapshot snapshot = table.currentSnapshot();
    try {
      index =
          snapshot == null
              ? TableKeyIndex.empty(keySchema)
              : TableKeyIndex.build(table, snapshot, keySchema);
    } catch (UnsupportedOperationException e) {
      unindexed.add(id);
      log.warn(
          "Table {} gets no key index ({}): its updates and deletes are written as equality"
              + " deletes, which the table maintenance converts",
          id,
          e.getMessage());
      return Optional.empty();
    }
    long took = System.nanoTime() - started;
    log.info(
        "Built the key index of {} at snapshot {}: {} keys, {} bytes ({} per key), {} rows read"
            + " in {} ms",
        id,
        snapshot == null ? "(none)" : snapshot.snapshotId(),
        index.keys(),
        index.bytes(),
        index.keys() == 0 ? 0 : index.bytes() / index.keys(),
        index.rowsRead(),
        took / 1_000_000);
    listener.built(id, index, took);
    if (!withinLimit(id, index)) {
      return Optional.empty();
    }
    indexes.put(id, index);
    return Optional.of(index);
  }

  /** The index of {@code id} the task holds, if any (not caught up). */
  public Optional<TableKeyIndex> held(TableIdentifier id) {
    return Optional.ofNullable(indexes.get(id));
  }

  /** Forgets the index of {@code id} (the task no longer writes the table). */
  public void forget(TableIdentifier id) {
    indexes.remove(id);
  }

  private boolean withinLimit(TableIdentifier id, TableKeyIndex index) {
    if (index.bytes() <= maxBytes) {
      return true;
    }
    indexes.remove(id);
    unindexed.add(id);
    log.warn(
        "The key index of {} holds {} keys in {} bytes, above key-index.max-bytes ({}): the table"
            + " gets no key index until the task restarts, and its updates and deletes are written"
            + " as equality deletes, which the table maintenance converts. Raise"
            + " key-index.max-bytes (and the worker's heap) to index it",
        id,
        index.keys(),
        index.bytes(),
        maxBytes);
    return false;
  }
}
