package io.sluice.connect.upsert.commit;

import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.commit.OtherWriter.Operation;
import io.sluice.connect.upsert.config.MergeLimits;
import io.sluice.connect.upsert.config.UpsertSinkConfig;
import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.event.SourceOp;
import io.sluice.connect.upsert.index.KeyIndexLimits;
import io.sluice.connect.upsert.index.TableKeyIndex;
import io.sluice.connect.upsert.metrics.SinkMeters;
import io.sluice.connect.upsert.metrics.SinkMetrics;
import io.sluice.connect.upsert.quarantine.Rejections;
import io.sluice.connect.upsert.table.TableNames;
import io.sluice.connect.upsert.table.TableResolver;
import io.sluice.connect.upsert.types.IcebergSchemas;
import io.sluice.connect.upsert.types.RecordConverter;
import io.sluice.connect.upsert.write.BatchWriter;
import io.sluice.connect.upsert.write.PositionDeltaWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.regex.Pattern;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Another writer commits to the sink's table exactly between the sink's write of a batch by
 * position and its commit (issue 37, defects 1 and 8): a merge-on-read update of a key the batch
 * updates, an equality-delete upsert of it, or an insert of it by a writer that did not know it.
 * The batch's commit is refused, and the sink's retry lands the batch once, leaving every key once.
 */
class PositionCommitRaceIT {
  private static final String CONNECTOR = "orders-upsert";
  private static final String TOPIC = "broker.cdc_lab.orders.clean";
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
  private static final int KEYS = 100;

  @org.junit.jupiter.api.io.TempDir Path dir;
  private Lake lake;
  private OtherWriter other;
  private final RacingLock turns = new RacingLock();
  private final Map<TopicPartition, Long> held = new HashMap<>();
  private final Map<Integer, String> model = new TreeMap<>();
  private long offset;

  @BeforeEach
  void open() {
    lake = new Lake(dir);
    other = new OtherWriter(lake.catalog(), TABLE);
  }

  @AfterEach
  void close() throws Exception {
    lake.close();
  }

  @ParameterizedTest(name = "{0} on format v{1}")
  @CsvSource({
    "MERGE_ON_READ_UPDATE, 2",
    "MERGE_ON_READ_UPDATE, 3",
    "EQUALITY_UPSERT, 2",
    "EQUALITY_UPSERT, 3",
    "INSERT, 2",
    "INSERT, 3"
  })
  void aCommitOfTheBatchsKeyBetweenWriteAndCommitRefusesIt(Operation operation, int format) {
    UpsertCommitter sink = sink(format);
    commit(sink, inserts(1, KEYS));
    // The INSERT writer does not know the key: one neither the table nor the sink's index has.
    int key = operation == Operation.INSERT ? KEYS + 1 : 7;
    Table table = lake.table(TABLE);
    Snapshot base = table.currentSnapshot();
    PositionDeltaWriter.Written written = writeAt(table, base, List.of(upsert(key, "sink")));

    other.apply(operation, key, "other");

    // Iceberg's own message for a DV (v3) and the sink's name the data file; the sink's for an
    // equality delete or a new data file name the key.
    assertThatThrownBy(() -> commitPositions(table, base, written))
        .isInstanceOf(PositionConflictException.class)
        .hasMessageContaining(
            operation == Operation.MERGE_ON_READ_UPDATE
                ? written.result().referencedDataFiles()[0].toString()
                : "key " + key);
  }

  @ParameterizedTest(name = "{0} on format v2")
  @ValueSource(strings = {"MERGE_ON_READ_UPDATE", "EQUALITY_UPSERT", "INSERT"})
  void aCommitOfOtherKeysBetweenWriteAndCommitDoesNotRefuseIt(Operation operation) {
    // On v2 only: on v3 Iceberg itself refuses a DV of a data file that got another DV meanwhile.
    UpsertCommitter sink = sink(2);
    commit(sink, inserts(1, KEYS));
    Table table = lake.table(TABLE);
    Snapshot base = table.currentSnapshot();
    PositionDeltaWriter.Written written = writeAt(table, base, List.of(upsert(7, "sink")));

    other.apply(operation, operation == Operation.INSERT ? KEYS + 1 : 20, "other");

    commitPositions(table, base, written);
    model.put(7, "sink");
    model.put(operation == Operation.INSERT ? KEYS + 1 : 20, "other");
    assertTableEqualsModel();
  }

  @ParameterizedTest(name = "{0} on format v{1}")
  @CsvSource({
    "MERGE_ON_READ_UPDATE, 2",
    "MERGE_ON_READ_UPDATE, 3",
    "EQUALITY_UPSERT, 2",
    "EQUALITY_UPSERT, 3",
    "INSERT, 2",
    "INSERT, 3"
  })
  void theSinkWritesARefusedBatchAgainAndLandsItOnce(Operation operation, int format) {
    UpsertCommitter sink = sink(format);
    commit(sink, inserts(1, KEYS));
    int key = operation == Operation.INSERT ? KEYS + 1 : 7;
    turns.before = () -> other.apply(operation, key, "other");
    Snapshot before = lake.table(TABLE).currentSnapshot();

    commit(sink, List.of(upsert(key, "sink"), upsert(8, "sink-8"), delete(9)));

    assertTableEqualsModel();
    List<Snapshot> commits = new ArrayList<>();
    Table table = lake.table(TABLE);
    for (Snapshot s = table.currentSnapshot();
        s.snapshotId() != before.snapshotId();
        s = table.snapshot(s.parentId())) {
      if (s.summary().containsKey(UpsertCommitter.COMMIT_MODE)) {
        commits.add(s);
      }
    }
    assertThat(commits)
        .singleElement()
        .satisfies(
            s ->
                assertThat(s.summary())
                    .containsEntry(
                        UpsertCommitter.COMMIT_MODE, UpsertCommitter.MODE_POSITION_DELETES)
                    .containsEntry(UpsertCommitter.COMMIT_KEYS, "3"));
  }

  @Test
  void anotherWritersDataFileIsReadOnlyWhenItsKeyBoundsHoldAKeyOfTheBatch() {
    UpsertCommitter sink = sink(2);
    commit(sink, inserts(1, KEYS));
    Table table = lake.table(TABLE);
    Snapshot base = table.currentSnapshot();
    PositionDeltaWriter.Written written =
        writeAt(table, base, List.of(upsert(7, "sink"), upsert(90, "sink")));
    NoConcurrentChangesOfKeys validator =
        new NoConcurrentChangesOfKeys(table.io(), table.specs(), base, written.footprint());

    other.insert(Map.of(200, "other", 300, "other"));
    assertThat(validator.validate(ancestry())).isTrue();
    assertThat(validator.filesRead()).as("files read for keys 200 to 300").isZero();

    other.insert(Map.of(50, "other", 150, "other"));
    assertThat(validator.validate(ancestry())).isTrue();
    assertThat(validator.filesRead()).as("files read for keys 50 to 150").isOne();
    // Iceberg retries a commit that lost a race: the snapshots already checked are not read again.
    assertThat(validator.validate(ancestry())).isTrue();
    assertThat(validator.filesRead()).isOne();

    other.insert(Map.of(90, "other"));
    assertThat(validator.validate(ancestry())).isFalse();
    assertThat(validator.errorMessage()).contains("holding key 90, which this commit writes");
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aBatchThatCopiesAFileIsRefusedByAnUpdateOfAnotherKeyOfIt(int format) {
    UpsertCommitter sink = sink(format);
    commit(sink, inserts(1, 10));
    Table table = lake.table(TABLE);
    Snapshot base = table.currentSnapshot();
    List<ChangeEvent> batch = List.of(upsert(1, "sink"), upsert(2, "sink"), upsert(3, "sink"));
    PositionDeltaWriter.Written written = writeAt(table, base, batch, 0.2);
    assertThat(written.copied()).hasSize(1);

    other.apply(Operation.MERGE_ON_READ_UPDATE, 5, "other");

    assertThatThrownBy(() -> commitPositions(table, base, written))
        .isInstanceOf(PositionConflictException.class)
        .hasMessageContaining("a data file this commit copied");
  }

  /**
   * Seed 359 of the simulation: a task's first commit to a table landed with its reply lost and is
   * retried from where the batch began, a table without a snapshot; meanwhile another writer (a
   * task holding another partition of a key that moved) committed the same key. A merge validated
   * nothing without a base and both rows stayed; it is refused now, and the batch lands by
   * position.
   */
  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aMergeWithoutABaseIsRefusedByAnotherWritersRowOfItsKey(int format) {
    UpsertCommitter sink = sink(format, 128L << 20);
    new TableResolver(lake.catalog(), new TableResolver.Settings(true, true, format, List.of()))
        .prepare(TABLE, IcebergSchemas.tableSchema(row(7, "x").schema(), key(7).schema(), null));
    assertThat(lake.table(TABLE).currentSnapshot()).as("the table has no snapshot").isNull();
    turns.before = () -> other.insert(7, "other");

    commit(sink, List.of(upsert(7, "sink"), upsert(8, "sink-8")));

    assertTableEqualsModel();
    assertThat(lake.table(TABLE).currentSnapshot().summary())
        .containsEntry(UpsertCommitter.COMMIT_MODE, UpsertCommitter.MODE_POSITION_DELETES);
  }

  @Test
  void aBatchOfFewKeysOnATableOfManyRowsIsWrittenByPositionNotMerged() {
    UpsertCommitter sink = sink(2, new MergeLimits(128L << 20, 4));
    List<ChangeEvent> all = new java.util.ArrayList<>();
    for (int id = 0; id < 100; id++) {
      all.add(upsert(id, "v0"));
    }
    commit(sink, all);
    String first = lake.table(TABLE).currentSnapshot().summary().get(UpsertCommitter.COMMIT_MODE);
    commit(sink, all.subList(0, 10).stream().map(e -> upsert(id(e), "v1")).toList());
    String fewKeys = lake.table(TABLE).currentSnapshot().summary().get(UpsertCommitter.COMMIT_MODE);
    commit(sink, all.subList(0, 30).stream().map(e -> upsert(id(e), "v2")).toList());
    String manyKeys =
        lake.table(TABLE).currentSnapshot().summary().get(UpsertCommitter.COMMIT_MODE);

    assertThat(first).as("a table without rows").isEqualTo(UpsertCommitter.MODE_MERGE);
    assertThat(fewKeys)
        .as("100 rows for 10 keys: 10 rows a key, past 4")
        .isEqualTo(UpsertCommitter.MODE_POSITION_DELETES);
    assertThat(manyKeys)
        .as("110 data-file rows (10 of them deleted by position) for 30 keys")
        .isEqualTo(UpsertCommitter.MODE_MERGE);
    assertTableEqualsModel();
  }

  private static int id(ChangeEvent event) {
    return ((Number) event.key().get("id")).intValue();
  }

  private Iterable<Snapshot> ancestry() {
    Table table = lake.table(TABLE);
    return SnapshotUtil.ancestorsOf(table.currentSnapshot().snapshotId(), table::snapshot);
  }

  private UpsertCommitter sink(int format) {
    return sink(format, 0);
  }

  /**
   * @param mergeMaxBytes partitions up to this size are merged at commit (0: never)
   */
  private UpsertCommitter sink(int format, long mergeMaxBytes) {
    return sink(format, new MergeLimits(mergeMaxBytes, 0));
  }

  private UpsertCommitter sink(int format, MergeLimits mergeLimits) {
    TableNames names =
        new TableNames(
            Pattern.compile(UpsertSinkConfig.TABLE_TOPIC_REGEX_DEFAULT),
            UpsertSinkConfig.TABLE_NAME_FORMAT_DEFAULT);
    return new UpsertCommitter(
        lake.catalog(),
        names,
        new TableResolver(
            lake.catalog(), new TableResolver.Settings(true, true, format, List.of())),
        CONNECTOR,
        0,
        null,
        new SinkMetrics(SinkMeters.disabled(), CONNECTOR, names),
        turns,
        mergeLimits,
        128L << 20,
        KeyIndexLimits.UNBOUNDED_HEAP,
        2);
  }

  private void commit(UpsertCommitter sink, List<ChangeEvent> events) {
    PendingChanges pending = new PendingChanges();
    events.forEach(e -> pending.add(P0, e.offset(), e));
    sink.commit(
        pending,
        held,
        Rejections.FAIL,
        new CommitListener() {
          @Override
          public void committed(TableIdentifier table, List<TopicPartition> partitions) {}

          @Override
          public void fenced(
              TableIdentifier table, List<TopicPartition> partitions, OffsetFenceException e) {
            throw e;
          }
        });
  }

  /** The batch written by position at {@code base}, as the sink writes it, not committed. */
  private PositionDeltaWriter.Written writeAt(Table table, Snapshot base, List<ChangeEvent> batch) {
    return writeAt(table, base, batch, 2);
  }

  private PositionDeltaWriter.Written writeAt(
      Table table, Snapshot base, List<ChangeEvent> batch, double copyFraction) {
    RecordConverter converter = new RecordConverter(table.schema());
    Map<ChangeEvent, BatchWriter.Converted> converted = new IdentityHashMap<>();
    batch.forEach(e -> converted.put(e, BatchWriter.convert(converter, e, null)));
    TableKeyIndex index = TableKeyIndex.build(table, base, converter.keySchema());
    return new PositionDeltaWriter(0, 128L << 20, copyFraction)
        .write(table, base, index, batch, converted);
  }

  private void commitPositions(Table table, Snapshot base, PositionDeltaWriter.Written written) {
    new TableCommitter(CONNECTOR, new ReentrantLock())
        .commitPositions(
            table, base, written, Map.of(P0, offset), Map.of(P0, held.get(P0)), Map.of());
  }

  private List<ChangeEvent> inserts(int from, int to) {
    List<ChangeEvent> events = new ArrayList<>();
    for (int id = from; id <= to; id++) {
      events.add(upsert(id, "c" + id));
    }
    return events;
  }

  private ChangeEvent upsert(int id, String customer) {
    model.put(id, customer);
    return new ChangeEvent(
        TOPIC, 0, offset++, SourceOp.UPDATE, key(id), row(id, customer), ChangeEvent.NO_TIME);
  }

  private ChangeEvent delete(int id) {
    model.remove(id);
    return new ChangeEvent(TOPIC, 0, offset++, SourceOp.DELETE, key(id), null, ChangeEvent.NO_TIME);
  }

  private void assertTableEqualsModel() {
    Map<Integer, String> table = new TreeMap<>();
    for (Record r : lake.rows(TABLE, "id")) {
      String previous = table.put((Integer) r.getField("id"), (String) r.getField("customer"));
      assertThat(previous).as("key %s twice", r.getField("id")).isNull();
    }
    assertThat(table).isEqualTo(model);
  }

  /** The task's turns at the catalog, letting another writer commit right before its next one. */
  private static final class RacingLock extends ReentrantLock {
    private Runnable before;

    @Override
    public boolean tryLock(long timeout, TimeUnit unit) throws InterruptedException {
      Runnable racing = before;
      before = null;
      if (racing != null) {
        racing.run();
      }
      return super.tryLock(timeout, unit);
    }
  }
}
