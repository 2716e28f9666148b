package io.sluice.bench.sink;

import io.sluice.bench.sink.StageClock.Stage;
import io.sluice.connect.upsert.commit.TableCommitter;
import io.sluice.connect.upsert.commit.UpsertCommitter;
import io.sluice.connect.upsert.config.UpsertSinkConfig;
import io.sluice.connect.upsert.event.BatchPreparer;
import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.index.KeyIndexLimits;
import io.sluice.connect.upsert.index.KeyIndexes;
import io.sluice.connect.upsert.index.TableKeyIndex;
import io.sluice.connect.upsert.write.BatchWriter;
import io.sluice.connect.upsert.write.MergeOnCommit;
import io.sluice.connect.upsert.write.PositionDeltaWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;

/**
 * Applies a commit interval's changes to one table with the upsert sink's own machinery, as its
 * {@link UpsertCommitter} does for one table, without Connect: the batch reduced to one change per
 * key ({@link BatchPreparer}), merged into its partitions when they are small ({@link
 * MergeOnCommit}), else written as Parquet data files plus deletes by position of the keys' old
 * rows from the table's key index ({@link KeyIndexes}, {@link PositionDeltaWriter}), committed as
 * one snapshot that records the offsets it covers ({@link TableCommitter}), and the key index told
 * of its own commit. The sink's settings (merge size, file size, key index limits, copy fraction)
 * come from its own configuration.
 *
 * <p>What it leaves out of the sink's work: Connect's records and structs, quarantine, metrics, the
 * maintenance thread, and the equality-delete fallback of a batch the key index cannot take (the
 * limit's table has no other writer, so a position conflict or a missing index fails it).
 *
 * <p>The events it hands to the sink's writers are {@link ChangeEvent}s without Connect structs:
 * the writers read only an event's operation, and its rows from the {@link BatchWriter.Converted}
 * map, which this class fills from the Avro records directly ({@link EnvelopeRows}).
 */
final class DirectUpsert {
  private final Table table;
  private final TableIdentifier id;
  private final Schema keySchema;
  private final StageClock clock;
  private final MergeOnCommit merge;
  private final PositionDeltaWriter positions;
  private final KeyIndexes indexes;
  private final TableCommitter committer;
  private final List<ChangeEvent> events = new ArrayList<>();
  private final Map<ChangeEvent, BatchWriter.Converted> converted = new IdentityHashMap<>();
  private final List<Object> keys = new ArrayList<>();
  private final Map<TopicPartition, Long> pending = new LinkedHashMap<>();
  private final Map<TopicPartition, Long> held = new HashMap<>();
  private final Map<String, Long> commitModes = new TreeMap<>();

  /**
   * @param id the table's name in its catalog
   * @param table the table written, which no one else writes
   * @param keySchema the table's key columns ({@link EnvelopeRows#keySchema()})
   * @param config the upsert sink's configuration: its connector name keys the offsets in the
   *     snapshot summaries
   */
  DirectUpsert(
      TableIdentifier id,
      Table table,
      Schema keySchema,
      UpsertSinkConfig config,
      StageClock clock) {
    this.table = table;
    this.id = id;
    this.keySchema = keySchema;
    this.clock = clock;
    this.merge =
        new MergeOnCommit(
            config.taskId(), config.mergeLimits(), config.maintenance().targetFileSizeBytes());
    this.positions =
        new PositionDeltaWriter(
            config.taskId(),
            config.maintenance().targetFileSizeBytes(),
            config.commitCopyFraction());
    this.indexes =
        new KeyIndexes(
            new KeyIndexLimits(
                config.keyIndexMaxBytes(),
                config.keyIndexSpillMaxBytes(),
                config.keyIndexSpillDir()));
    this.committer = new TableCommitter(config.connectorName(), new ReentrantLock());
  }

  /**
   * Takes the record at {@code offset} of {@code tp}.
   *
   * @param change its change, null for a tombstone (which only moves the offset)
   */
  void add(TopicPartition tp, long offset, EnvelopeRows.Change change) {
    if (change != null) {
      ChangeEvent event =
          new ChangeEvent(
              tp.topic(), tp.partition(), offset, change.op(), null, null, ChangeEvent.NO_TIME);
      events.add(event);
      converted.put(event, change.rows());
      keys.add(change.rows().tableKey());
    }
    pending.put(tp, offset + 1);
  }

  boolean hasPending() {
    return !pending.isEmpty();
  }

  /** Snapshots committed so far, by {@value UpsertCommitter#COMMIT_MODE}. */
  Map<String, Long> commitModes() {
    return Map.copyOf(commitModes);
  }

  /**
   * Commits what was added since the last commit as one snapshot.
   *
   * @throws IllegalStateException when the table has no key index for a batch too large to merge,
   *     or another commit came between (the limit's table has no other writer)
   */
  void commit() {
    long started = clock.now();
    List<ChangeEvent> batch = BatchPreparer.prepare(events, keys);
    long reduced = clock.now();
    clock.add(Stage.REDUCE, reduced - started);
    // Every partition committed before is recorded again, as the sink does.
    Map<TopicPartition, Long> offsets = new LinkedHashMap<>(held);
    offsets.putAll(pending);
    Map<TopicPartition, Long> expected = new HashMap<>(held);
    Map<String, String> summary = new HashMap<>();
    summary.put(UpsertCommitter.COMMIT_KEYS, String.valueOf(batch.size()));
    table.refresh();
    Snapshot base = table.currentSnapshot();
    long refreshed = clock.now();
    clock.add(Stage.COMMIT, refreshed - reduced);
    Optional<MergeOnCommit.Merged> merged = merge.write(table, base, keySchema, batch, converted);
    clock.add(Stage.WRITE, clock.now() - refreshed);
    String mode;
    if (merged.isPresent()) {
      mode = UpsertCommitter.MODE_MERGE;
      summary.put(UpsertCommitter.COMMIT_MODE, mode);
      long committing = clock.now();
      committer.commitMerged(table, base, merged.get(), offsets, expected, summary);
      clock.add(Stage.COMMIT, clock.now() - committing);
    } else {
      mode = UpsertCommitter.MODE_POSITION_DELETES;
      summary.put(UpsertCommitter.COMMIT_MODE, mode);
      commitByPosition(batch, offsets, expected, summary);
    }
    commitModes.merge(mode, 1L, Long::sum);
    held.putAll(offsets);
    pending.clear();
    events.clear();
    converted.clear();
    keys.clear();
  }

  private void commitByPosition(
      List<ChangeEvent> batch,
      Map<TopicPartition, Long> offsets,
      Map<TopicPartition, Long> expected,
      Map<String, String> summary) {
    long started = clock.now();
    TableKeyIndex index =
        indexes
            .current(id, table, keySchema, (t, built, nanos) -> {})
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "the limit's table "
                            + table.name()
                            + " has no key index (past key-index.max-bytes and"
                            + " key-index.spill.max-bytes?): raise them, or the heap"));
    Snapshot base = table.currentSnapshot();
    long indexed = clock.now();
    clock.add(Stage.KEY_INDEX, indexed - started);
    PositionDeltaWriter.Written written = positions.write(table, base, index, batch, converted);
    long wrote = clock.now();
    clock.add(Stage.WRITE, wrote - indexed);
    Snapshot committed =
        committer.commitPositions(table, base, written, offsets, expected, summary);
    if (committed == null) {
      throw new IllegalStateException(
          "the limit's commit to " + table.name() + " is not among its newest snapshots");
    }
    long done = clock.now();
    clock.add(Stage.COMMIT, done - wrote);
    index.applyOwn(table, committed, written.keysByFile(), written.deleted(), written.copied());
    clock.add(Stage.KEY_INDEX, clock.now() - done);
  }

  /** Releases the key index (its memory and any spill files). */
  void release() {
    indexes.releaseAll();
  }
}
