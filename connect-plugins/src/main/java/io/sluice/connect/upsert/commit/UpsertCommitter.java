package io.sluice.connect.upsert.commit;

import io.sluice.connect.upsert.config.MergeLimits;
import io.sluice.connect.upsert.error.RecordRejectedException;
import io.sluice.connect.upsert.event.BatchPreparer;
import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.event.Operation;
import io.sluice.connect.upsert.index.KeyIndexLimits;
import io.sluice.connect.upsert.index.KeyIndexes;
import io.sluice.connect.upsert.index.TableKeyIndex;
import io.sluice.connect.upsert.metrics.SinkMetrics;
import io.sluice.connect.upsert.metrics.TableMeters;
import io.sluice.connect.upsert.quarantine.DlqOffsets;
import io.sluice.connect.upsert.quarantine.Rejections;
import io.sluice.connect.upsert.table.TableNames;
import io.sluice.connect.upsert.table.TableResolver;
import io.sluice.connect.upsert.types.IcebergSchemas;
import io.sluice.connect.upsert.types.RecordConverter;
import io.sluice.connect.upsert.write.BatchWriter;
import io.sluice.connect.upsert.write.MergeOnCommit;
import io.sluice.connect.upsert.write.PositionDeltaWriter;
import io.sluice.lake.offsets.IcebergOffsets;
import java.io.Closeable;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.io.WriteResult;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes and commits a task's pending changes, table by table: dedup the batch by key, create or
 * evolve the table, write one set of files, commit them as one snapshot recording the offsets. Also
 * answers which offsets Iceberg holds for the task's partitions.
 */
public final class UpsertCommitter implements Closeable {
  private static final Logger log = LoggerFactory.getLogger(UpsertCommitter.class);

  /** Snapshot summary key: how many keys the commit's batch wrote or deleted. */
  public static final String COMMIT_KEYS = "sluice.commit.keys";

  /**
   * Snapshot summary key: how the batch was written, {@value #MODE_MERGE} or {@value
   * #MODE_EQUALITY_DELETES}.
   */
  public static final String COMMIT_MODE = "sluice.commit.mode";

  public static final String MODE_MERGE = "merge";
  public static final String MODE_POSITION_DELETES = "position-deletes";
  public static final String MODE_EQUALITY_DELETES = "equality-deletes";

  /** Attempts of a batch by position when commits since its snapshot conflict, before equality. */
  private static final int POSITION_ATTEMPTS = 3;

  private final Catalog catalog;
  private final TableNames names;
  private final TableResolver tables;
  private final BatchWriter writer;
  private final MergeOnCommit merge;
  private final PositionDeltaWriter positions;
  private final KeyIndexes indexes;
  private final TableCommitter committer;
  private final String connector;
  private final String excludedField;
  private final SinkMetrics metrics;

  /**
   * @param connector the connector name, key of the offsets in snapshot summaries
   * @param excludedField a row field that is not a column (flat operation field), or null
   * @param metrics where commits are counted and timed
   * @param commits held while a commit reaches the catalog (shared with the task's maintenance)
   * @param mergeLimits which batches are merged into their partitions at commit ({@link
   *     MergeOnCommit})
   * @param mergeTargetFileSizeBytes size of the data files a merge or a batch writes
   * @param keyIndexLimits how large one table's key index may grow ({@link KeyIndexes}); a heap
   *     limit of 0 writes every batch not merged with equality deletes
   * @param copyFraction a data file that a batch written by position would leave with at least this
   *     fraction of its rows deleted is copied instead ({@link PositionDeltaWriter}); above 1, none
   *     is
   */
  public UpsertCommitter(
      Catalog catalog,
      TableNames names,
      TableResolver tables,
      String connector,
      int taskId,
      String excludedField,
      SinkMetrics metrics,
      Lock commits,
      MergeLimits mergeLimits,
      long mergeTargetFileSizeBytes,
      KeyIndexLimits keyIndexLimits,
      double copyFraction) {
    this.catalog = catalog;
    this.names = names;
    this.tables = tables;
    this.writer = new BatchWriter(taskId);
    this.merge = new MergeOnCommit(taskId, mergeLimits, mergeTargetFileSizeBytes);
    this.positions = new PositionDeltaWriter(taskId, mergeTargetFileSizeBytes, copyFraction);
    this.indexes = new KeyIndexes(keyIndexLimits);
    this.committer = new TableCommitter(connector, commits);
    this.connector = connector;
    this.excludedField = excludedField;
    this.metrics = metrics;
  }

  /** Drops the key index of {@code table}: the task holds none of its partitions any more. */
  public void forgetIndex(TableIdentifier table) {
    indexes.forget(table);
  }

  /** The offsets Iceberg holds for {@code partitions}; partitions it holds none for are absent. */
  public Map<TopicPartition, Long> heldOffsets(Collection<TopicPartition> partitions) {
    Map<TableIdentifier, List<TopicPartition>> byTable = new LinkedHashMap<>();
    for (TopicPartition tp : partitions) {
      byTable.computeIfAbsent(names.table(tp.topic()), k -> new ArrayList<>()).add(tp);
    }
    Map<TopicPartition, Long> held = new HashMap<>();
    byTable.forEach(
        (id, tps) ->
            tables
                .find(id)
                .ifPresent(
                    table -> {
                      table.refresh();
                      held.putAll(IcebergOffsets.of(table, connector, tps));
                    }));
    return held;
  }

  /**
   * Where to read the DLQ from to find what the connector already quarantined for {@code
   * partitions} and Iceberg does not hold yet ({@link DlqOffsets#startFor}, merged over their
   * tables); empty to read it from the beginning.
   */
  public Optional<Map<TopicPartition, Long>> dlqStart(Collection<TopicPartition> partitions) {
    Map<TableIdentifier, List<TopicPartition>> byTable = new LinkedHashMap<>();
    for (TopicPartition tp : partitions) {
      byTable.computeIfAbsent(names.table(tp.topic()), k -> new ArrayList<>()).add(tp);
    }
    Map<TopicPartition, Long> start = null;
    for (Map.Entry<TableIdentifier, List<TopicPartition>> entry : byTable.entrySet()) {
      Optional<Map<TopicPartition, Long>> table =
          tables
              .find(entry.getKey())
              .flatMap(t -> DlqOffsets.startFor(t, connector, entry.getValue()));
      if (table.isEmpty()) {
        return Optional.empty();
      }
      if (start == null) {
        start = new HashMap<>(table.get());
      } else {
        start.keySet().retainAll(table.get().keySet());
        start.replaceAll((tp, offset) -> Math.min(offset, table.get().get(tp)));
      }
    }
    return Optional.ofNullable(start);
  }

  /**
   * Commits every table that has pending changes. Partitions whose table was committed leave {@code
   * pending} and their new offsets enter {@code held}, table by table, so a failure in one table
   * keeps the progress of the others. Records a table cannot take go to {@code rejections}; the
   * others are written.
   *
   * <p>A table that another writer committed meanwhile (the offset fence) is handed to {@code
   * listener} and the round goes on with the next table: one fenced table never holds the others
   * back.
   *
   * @param held the offsets Iceberg holds, updated in place
   */
  public void commit(
      PendingChanges pending,
      Map<TopicPartition, Long> held,
      Rejections rejections,
      CommitListener listener) {
    Map<TableIdentifier, List<TopicPartition>> byTable = new LinkedHashMap<>();
    pending
        .partitions()
        .keySet()
        .forEach(
            tp -> byTable.computeIfAbsent(names.table(tp.topic()), k -> new ArrayList<>()).add(tp));
    for (Map.Entry<TableIdentifier, List<TopicPartition>> entry : byTable.entrySet()) {
      boolean committed;
      try {
        committed = commitTable(entry.getKey(), entry.getValue(), pending, held, rejections);
      } catch (OffsetFenceException e) {
        listener.fenced(entry.getKey(), entry.getValue(), e);
        continue;
      }
      if (committed) {
        listener.committed(entry.getKey(), entry.getValue());
      }
    }
  }

  /** Commits one table's pending records; false when there is no table to commit them to. */
  private boolean commitTable(
      TableIdentifier id,
      List<TopicPartition> tps,
      PendingChanges pending,
      Map<TopicPartition, Long> held,
      Rejections rejections) {
    List<ChangeEvent> events = new ArrayList<>();
    // Every partition of this table the task holds is recorded again, so the newest snapshot of
    // the task names all its partitions: lookups stop there and idle partitions survive snapshot
    // expiry. The fence checks each of them.
    Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
    held.forEach(
        (tp, offset) -> {
          if (id.equals(names.table(tp.topic()))) {
            offsets.put(tp, offset);
          }
        });
    for (TopicPartition tp : tps) {
      PendingChanges.Partition partition = pending.partitions().get(tp);
      events.addAll(partition.events());
      offsets.put(tp, partition.nextOffset());
    }
    Map<TopicPartition, Long> expected = new HashMap<>();
    offsets.keySet().stream()
        .filter(held::containsKey)
        .forEach(tp -> expected.put(tp, held.get(tp)));
    long preparing = System.nanoTime();
    Optional<Table> prepared = prepareTable(id, events, rejections);
    if (prepared.isEmpty()) {
      // No table yet and nothing that could create it (tombstones or deletes only): the deletes
      // have nothing to delete; the offsets ride along with the table's first commit.
      tps.forEach(tp -> pending.partitions().get(tp).events().clear());
      return false;
    }
    Table table = prepared.get();
    // Every event is converted, and rejected ones leave, before the batch is reduced to one event
    // per key: a rejected last event must not hide the key's earlier valid one.
    RecordConverter converter = new RecordConverter(table.schema());
    Map<ChangeEvent, BatchWriter.Converted> converted = new IdentityHashMap<>(events.size());
    List<ChangeEvent> writable = new ArrayList<>(events.size());
    List<Object> keys = new ArrayList<>(events.size());
    for (ChangeEvent event : events) {
      try {
        BatchWriter.Converted rows = BatchWriter.convert(converter, event, excludedField);
        converted.put(event, rows);
        writable.add(event);
        keys.add(rows.tableKey());
      } catch (RecordRejectedException e) {
        rejections.reject(event.topic(), event.partition(), event.offset(), e);
      }
    }
    List<ChangeEvent> batch = BatchPreparer.prepare(writable, keys);
    TableMeters meters = metrics.table(id);
    long started = System.nanoTime();
    Snapshot snapshot;
    String mode;
    try {
      Map<String, String> summary = new HashMap<>(rejections.beforeCommit());
      summary.put(COMMIT_KEYS, String.valueOf(batch.size()));
      summary.put(COMMIT_MODE, MODE_MERGE);
      mode = MODE_MERGE;
      snapshot = commitMerged(table, converter, batch, converted, offsets, expected, summary);
      if (snapshot == null) {
        mode = MODE_POSITION_DELETES;
        summary.put(COMMIT_MODE, mode);
        snapshot =
            commitByPosition(id, table, converter, batch, converted, offsets, expected, summary);
      }
      if (snapshot == null) {
        mode = MODE_EQUALITY_DELETES;
        summary.put(COMMIT_MODE, mode);
        WriteResult result =
            writer.write(table, table.currentSnapshot(), converter, batch, converted);
        snapshot = committer.commit(table, result, offsets, expected, summary);
      }
    } catch (OffsetFenceException | DataException e) {
      meters.commitFailed();
      throw e;
    } catch (RuntimeException e) {
      meters.commitFailed();
      throw new ConnectException(
          "cannot commit "
              + events.size()
              + " records to "
              + id
              + " (partitions up to next offsets "
              + offsets
              + "): "
              + e.getMessage(),
          e);
    }
    long durationNanos = System.nanoTime() - started;
    meters.committed(batch, writable, durationNanos);
    held.putAll(offsets);
    pending.drop(tps);
    log.info(
        "Committed {} keys ({} records, {} refused by the table) to {} as snapshot {} ({}) in {}"
            + " ms (after {} ms preparing the table and the batch); offsets {}",
        batch.size(),
        writable.size(),
        events.size() - writable.size(),
        id,
        snapshot == null ? "?" : snapshot.snapshotId(),
        mode,
        durationNanos / 1_000_000,
        (started - preparing) / 1_000_000,
        offsets);
    return true;
  }

  /**
   * Commits {@code batch} merged into the partitions it touches ({@link MergeOnCommit}).
   *
   * @return the committed snapshot; null when the batch is not merged (its partitions are too big,
   *     or another commit to them came first), and nothing was committed
   */
  private Snapshot commitMerged(
      Table table,
      RecordConverter converter,
      List<ChangeEvent> batch,
      Map<ChangeEvent, BatchWriter.Converted> converted,
      Map<TopicPartition, Long> offsets,
      Map<TopicPartition, Long> expected,
      Map<String, String> summary) {
    Snapshot base = table.currentSnapshot();
    Optional<MergeOnCommit.Merged> merged =
        merge.write(table, base, converter.keySchema(), batch, converted);
    if (merged.isEmpty()) {
      return null;
    }
    try {
      return committer.commitMerged(table, base, merged.get(), offsets, expected, summary);
    } catch (MergeConflictException e) {
      log.info(
          "Merging {} keys into {} conflicted with a commit since snapshot {} ({}); writing them"
              + " with equality deletes instead",
          batch.size(),
          table.name(),
          base == null ? "(none)" : base.snapshotId(),
          e.getMessage());
      table.refresh();
      return null;
    }
  }

  /**
   * Commits {@code batch} with deletes by position of the rows its keys have, found in the table's
   * key index ({@link PositionDeltaWriter}). A commit since the index's snapshot that removed a
   * data file the batch deletes from, deleted one of its rows or wrote one of its keys refuses it
   * ({@link TableCommitter#commitPositions}); the index catches up and the batch is written again,
   * a few times, then with equality deletes, which apply to every older row of its keys.
   *
   * @return the committed snapshot; null when the table has no key index or every attempt
   *     conflicted, and nothing was committed
   */
  private Snapshot commitByPosition(
      TableIdentifier id,
      Table table,
      RecordConverter converter,
      List<ChangeEvent> batch,
      Map<ChangeEvent, BatchWriter.Converted> converted,
      Map<TopicPartition, Long> offsets,
      Map<TopicPartition, Long> expected,
      Map<String, String> summary) {
    for (int attempt = 1; attempt <= POSITION_ATTEMPTS; attempt++) {
      Optional<TableKeyIndex> index =
          indexes.current(
              id,
              table,
              converter.keySchema(),
              (t, built, nanos) -> {
                metrics.table(t).keyIndexBuilt(built.keys(), nanos);
                metrics.table(t).duplicateKeys("index-build", built.duplicateKeys());
              });
      if (index.isEmpty()) {
        return null;
      }
      Snapshot base = table.currentSnapshot();
      PositionDeltaWriter.Written written =
          positions.write(table, base, index.get(), batch, converted);
      try {
        Snapshot committed =
            committer.commitPositions(table, base, written, offsets, expected, summary);
        if (committed != null) {
          index
              .get()
              .applyOwn(
                  table, committed, written.keysByFile(), written.deleted(), written.copied());
        }
        metrics
            .table(id)
            .keyIndexSize(index.get().keys(), index.get().bytes(), index.get().spilledBytes());
        return committed == null ? table.currentSnapshot() : committed;
      } catch (PositionConflictException e) {
        log.info(
            "Writing {} keys to {} by position conflicted with a commit since snapshot {} ({});"
                + " attempt {} of {}",
            batch.size(),
            table.name(),
            base == null ? "(none)" : base.snapshotId(),
            e.getMessage(),
            attempt,
            POSITION_ATTEMPTS);
        table.refresh();
      }
    }
    log.info(
        "Writing {} keys to {} by position conflicted {} times; writing them with equality deletes"
            + " instead",
        batch.size(),
        table.name(),
        POSITION_ATTEMPTS);
    return null;
  }

  /**
   * The table ready for the rows of {@code events}, or empty when it does not exist and cannot be
   * made. Events of a row schema the table cannot evolve to go to {@code rejections} and leave
   * {@code events}.
   */
  private Optional<Table> prepareTable(
      TableIdentifier id, List<ChangeEvent> events, Rejections rejections) {
    Map<org.apache.kafka.connect.data.Schema, ChangeEvent> firstByRowSchema =
        new IdentityHashMap<>();
    for (ChangeEvent event : events) {
      if (event.operation() == Operation.UPSERT) {
        firstByRowSchema.putIfAbsent(event.rowSchema(), event);
      }
    }
    Optional<Table> existing = tables.find(id);
    existing.ifPresent(Table::refresh);
    if (firstByRowSchema.isEmpty()) {
      return existing;
    }
    Table table = existing.orElse(null);
    Map<org.apache.kafka.connect.data.Schema, RecordRejectedException> refused =
        new IdentityHashMap<>();
    for (ChangeEvent event : firstByRowSchema.values()) {
      try {
        Schema schema =
            IcebergSchemas.tableSchema(event.rowSchema(), event.keySchema(), excludedField);
        table = tables.prepare(id, schema);
      } catch (RecordRejectedException e) {
        refused.put(event.rowSchema(), e);
        log.warn(
            "Table {} cannot take rows of the schema of the record at {}: {}",
            id,
            event.coordinates(),
            e.getMessage());
      } catch (DataException e) {
        throw new DataException(
            "table "
                + id
                + " cannot take the record at "
                + event.coordinates()
                + ": "
                + e.getMessage(),
            e);
      }
    }
    if (!refused.isEmpty()) {
      List<ChangeEvent> kept = new ArrayList<>(events.size());
      for (ChangeEvent event : events) {
        RecordRejectedException why =
            event.operation() == Operation.UPSERT ? refused.get(event.rowSchema()) : null;
        if (why != null) {
          rejections.reject(
              event.topic(),
              event.partition(),
              event.offset(),
              why.withContext("table " + id + " cannot take this record: "));
        } else {
          kept.add(event);
        }
      }
      events.clear();
      events.addAll(kept);
    }
    return Optional.ofNullable(table).or(() -> tables.find(id));
  }

  /** Releases the key indexes and closes the catalog: the task stops. */
  @Override
  public void close() throws IOException {
    indexes.releaseAll();
    if (catalog instanceof Closeable closeable) {
      closeable.close();
    }
  }
}
