package io.sluice.connect.upsert;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.connect.testing.Envelopes;
import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.lake.offsets.SnapshotOffsets;
import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.events.CreateSnapshotEvent;
import org.apache.iceberg.events.Listeners;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The sink task driven directly (no broker), writing into a real JdbcCatalog on SQLite and read
 * back with Iceberg's generic reader, deletes applied.
 */
class UpsertSinkTaskIT {
  private static final String TOPIC = "broker.cdc_lab.orders.clean";
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
  private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);
  private static final long INTERVAL_MS = 1_000;
  // A deleted fraction above 1: no file is copied at commit (nor rewritten for its deletes).
  private static final String NEVER_COPIED = "2";
  private static final TopicPartition ITEMS_P0 =
      new TopicPartition("broker.cdc_lab.order_items.clean", 0);
  private static final TableIdentifier ITEMS_TABLE =
      TableIdentifier.of("cdc_lab", "order_items_current");
  private static final TopicPartition AUDIT_P0 =
      new TopicPartition("broker.cdc_lab.audit_log.clean", 0);
  private static final Schema ITEM_KEY =
      SchemaBuilder.struct()
          .field("order_id", Schema.INT32_SCHEMA)
          .field("line_no", Schema.INT32_SCHEMA)
          .build();
  // The row lists line_no first: the key's order, not the row's, is the table's key order.
  private static final Schema ITEM_ROW =
      SchemaBuilder.struct()
          .optional()
          .field("line_no", Schema.INT32_SCHEMA)
          .field("order_id", Schema.INT32_SCHEMA)
          .field("sku", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  private static final Schema ITEM_ENVELOPE = Envelopes.envelope(ITEM_ROW);

  @TempDir Path dir;
  private Lake lake;
  private final List<SinkHarness> harnesses = new ArrayList<>();

  @BeforeEach
  void openLake() {
    lake = new Lake(dir);
  }

  @AfterEach
  void closeAll() throws Exception {
    harnesses.forEach(SinkHarness::stop);
    lake.close();
  }

  @Test
  void createReadUpdateDeleteSequenceGivesTheSourceState() {
    SinkHarness task = start(Map.of());
    task.put(upsert(0, 0, "c", 1, "ann"), upsert(0, 1, "c", 2, "bob"), upsert(1, 0, "r", 3, "cid"));
    task.commit();
    task.put(
        upsert(0, 2, "u", 2, "bob2"),
        delete(1, 1, 3),
        tombstone(1, 2, 3),
        upsert(0, 3, "r", 4, "dee"),
        upsert(0, 4, "c", 5, "eve"),
        delete(0, 5, 5));
    task.commit();

    assertThat(state()).containsExactly("1=ann", "2=bob2", "4=dee");
    List<Snapshot> snapshots = snapshots();
    assertThat(snapshots).hasSize(2);
    assertThat(lake.offsets(TABLE, "orders-upsert")).isEqualTo(Map.of(P0, 6L, P1, 3L));
    assertThat(task.preCommit()).isEqualTo(Map.of(P0, 6L, P1, 3L));
  }

  /**
   * A commit is due an interval after the previous one started, and at least half an interval after
   * it ended. The commit is made to take 1.5 intervals: the interval clock moves on when Iceberg
   * announces its snapshot, as a slow commit on a large table would.
   */
  @Test
  void aCommitLongerThanTheIntervalIsFollowedHalfAnIntervalAfterItEnded() {
    SinkHarness task = start(Map.of());
    long interval = INTERVAL_MS * 1_000_000;
    slowCommits.set(task);
    try {
      task.put(upsert(0, 0, "c", 1, "ann"));
      task.commit(); // starts at 1.0 intervals, ends at 2.5
      assertThat(task.clock.get()).isEqualTo(5 * interval / 2);
      assertThat(snapshots()).hasSize(1);

      task.clock.set(3 * interval - 1);
      task.put(upsert(0, 1, "c", 2, "bob"));
      assertThat(snapshots())
          .as("not due before half an interval after the slow commit ended (at 3.0 intervals)")
          .hasSize(1);
      slowCommits.set(null);
      task.clock.set(3 * interval);
      task.put(List.of());
      assertThat(snapshots()).as("due at 3.0 intervals").hasSize(2);

      // A quick commit (ended at once, at 3.0): the next is due an interval after it started.
      task.clock.set(4 * interval - 1);
      task.put(upsert(0, 2, "c", 3, "cid"));
      assertThat(snapshots()).hasSize(2);
      task.clock.set(4 * interval);
      task.put(List.of());
      assertThat(snapshots()).hasSize(3);
      assertThat(state()).containsExactly("1=ann", "2=bob", "3=cid");
    } finally {
      slowCommits.set(null);
    }
  }

  /** While set, each snapshot Iceberg commits moves this harness's interval clock 1.5 intervals. */
  private static final AtomicReference<SinkHarness> slowCommits = new AtomicReference<>();

  static {
    Listeners.register(
        event -> {
          SinkHarness slow = slowCommits.get();
          if (slow != null && event.tableName().endsWith(TABLE.name())) {
            slow.clock.addAndGet(3 * INTERVAL_MS * 1_000_000 / 2);
          }
        },
        CreateSnapshotEvent.class);
  }

  @Test
  void tombstonesChangeNothing() {
    SinkHarness task = start(Map.of());
    task.put(upsert(0, 0, "c", 1, "ann"));
    task.commit();
    task.put(tombstone(0, 1, 1), tombstone(0, 2, 9));
    task.commit();
    assertThat(state()).containsExactly("1=ann");
    assertThat(lake.offsets(TABLE, "orders-upsert")).containsEntry(P0, 3L);
  }

  @Test
  void redeliveredAndReplayedRecordsNeverLeaveTwoRowsOrAStaleRow() {
    SinkHarness task = start(Map.of());
    SinkRecord[] batch = {upsert(0, 0, "c", 1, "v1"), upsert(0, 1, "c", 2, "w1")};
    task.put(batch);
    task.commit();
    task.put(upsert(0, 2, "u", 1, "v2"));
    task.commit();
    // Connect redelivers old offsets (a rewind): Iceberg already holds them, they are skipped.
    task.put(batch);
    task.commit();
    assertThat(state()).containsExactly("1=v2", "2=w1");
    assertThat(snapshots()).hasSize(2);
    // The same changes produced again at new offsets: one row per key, the newest event wins.
    task.put(upsert(0, 3, "c", 1, "v1"), upsert(0, 4, "c", 2, "w1"));
    task.commit();
    task.put(upsert(0, 5, "c", 1, "v1"), upsert(0, 6, "c", 2, "w1"));
    task.commit();
    assertThat(state()).containsExactly("1=v1", "2=w1");
  }

  @Test
  void preCommitHandsConnectOnlyOffsetsIcebergHolds() {
    SinkHarness task = start(Map.of());
    task.put(upsert(0, 0, "c", 1, "a"), upsert(1, 0, "c", 2, "b"));
    assertThat(task.preCommit()).isEmpty();
    // Due, but preCommit never commits (Connect also calls it while revoking partitions): the
    // next put does.
    task.clock.addAndGet(INTERVAL_MS * 1_000_000);
    assertThat(task.preCommit()).isEmpty();
    assertThat(lake.exists(TABLE)).isFalse();
    task.commit();
    task.put(upsert(0, 1, "u", 1, "a2"));
    assertThat(task.preCommit()).isEqualTo(Map.of(P0, 1L, P1, 1L));
  }

  @Test
  void newestSnapshotNamesEveryPartitionTheTaskHolds() {
    SinkHarness task = start(Map.of());
    task.put(upsert(0, 0, "c", 1, "a"), upsert(1, 0, "c", 2, "b"));
    task.commit();
    task.put(upsert(0, 1, "u", 1, "a2"));
    task.commit();
    Snapshot newest = lake.table(TABLE).currentSnapshot();
    assertThat(SnapshotOffsets.fromSummary(newest.summary(), "orders-upsert"))
        .contains(Map.of(P0, 2L, P1, 1L));
  }

  @Test
  void restartedTaskSeeksToTheOffsetsIcebergHolds() {
    SinkHarness first = start(Map.of());
    first.put(upsert(0, 0, "c", 1, "a"), upsert(0, 1, "c", 2, "b"), upsert(1, 0, "c", 3, "c"));
    first.commit();
    first.put(upsert(0, 2, "u", 1, "lost-in-crash"));
    // Crash: no preCommit, no close; the uncommitted record is re-read after the restart.
    SinkHarness second = start(Map.of());
    assertThat(second.context.seeks).isEqualTo(Map.of(P0, 2L, P1, 1L));
    second.put(upsert(0, 2, "u", 1, "lost-in-crash"));
    second.commit();
    assertThat(state()).containsExactly("1=lost-in-crash", "2=b", "3=c");
  }

  @Test
  void testHookFailsRightAfterTheIcebergCommit() {
    SinkHarness task =
        start(
            Map.of(CrashingUpsertSinkTask.FAIL_AFTER_COMMITS, "1"),
            List.of(P0, P1),
            QuarantineClients.KAFKA,
            CrashingUpsertSinkTask::new);
    task.put(upsert(0, 0, "c", 1, "a"));
    assertThatThrownBy(task::commit).hasMessageContaining("failing right after Iceberg commit 1");
    assertThat(state()).containsExactly("1=a");
    assertThat(start(Map.of()).context.seeks).isEqualTo(Map.of(P0, 1L));
  }

  @Test
  void addedColumnAndWidenedTypeReachTheTable() {
    SinkHarness task = start(Map.of());
    task.put(upsert(0, 0, "c", 1, "a"));
    task.commit();
    Schema wider =
        SchemaBuilder.struct()
            .name("broker.cdc_lab.orders.Value")
            .optional()
            .field("id", Schema.INT32_SCHEMA)
            .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
            .field("status", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    Struct after = new Struct(wider).put("id", 2).put("customer", "b").put("status", "NEW");
    task.put(record(0, 1, key(2), change(Envelopes.envelope(wider), "c", null, after)));
    task.commit();
    List<Record> rows = lake.rows(TABLE, "id");
    assertThat(rows).hasSize(2);
    assertThat(rows.get(0).getField("status")).isNull();
    assertThat(rows.get(1).getField("status")).isEqualTo("NEW");
  }

  @Test
  void datetimeMillisReadBackAsTimestampAndDecimalsAsDecimals() {
    Schema typed =
        SchemaBuilder.struct()
            .name("broker.cdc_lab.orders.Value")
            .optional()
            .field("id", Schema.INT32_SCHEMA)
            .field(
                "created_at",
                SchemaBuilder.int64().name("io.debezium.time.Timestamp").optional().build())
            .field(
                "amount",
                Decimal.builder(2).parameter("connect.decimal.precision", "10").optional().build())
            .build();
    Struct after =
        new Struct(typed)
            .put("id", 1)
            .put("created_at", 1_700_000_123_456L)
            .put("amount", new BigDecimal("19.90"));
    SinkHarness task = start(Map.of());
    task.put(record(0, 0, key(1), change(Envelopes.envelope(typed), "c", null, after)));
    task.commit();
    Record row = lake.rows(TABLE, "id").get(0);
    assertThat(row.getField("created_at"))
        .isEqualTo(LocalDateTime.of(2023, 11, 14, 22, 15, 23, 456_000_000));
    assertThat(row.getField("amount")).isEqualTo(new BigDecimal("19.90"));
    assertThat(lake.table(TABLE).schema().findField("amount").type().toString())
        .isEqualTo("decimal(10, 2)");
  }

  @Test
  void formatV3TablesUpsertCorrectly() {
    SinkHarness task = start(Map.of("table.format.version", "3"));
    task.put(upsert(0, 0, "c", 1, "a"), upsert(0, 1, "c", 2, "b"));
    task.commit();
    task.put(upsert(0, 2, "u", 1, "a2"), delete(0, 3, 2));
    task.commit();
    assertThat(TableUtil.formatVersion(lake.table(TABLE))).isEqualTo(3);
    assertThat(state()).containsExactly("1=a2");
  }

  @Test
  void bucketPartitionedTableUpsertsAcrossBatches() {
    SinkHarness task = start(Map.of("table.partition.by", "bucket(id, 4)"));
    List<SinkRecord> creates = new ArrayList<>();
    for (int id = 1; id <= 8; id++) {
      creates.add(upsert(0, id - 1, "c", id, "v" + id));
    }
    task.put(creates.toArray(SinkRecord[]::new));
    task.commit();
    Map<String, String> before = filesByPartition(lake.table(TABLE));
    task.put(upsert(0, 8, "u", 3, "x3"), delete(0, 9, 4), upsert(0, 10, "u", 7, "x7"));
    task.commit();
    Table table = lake.table(TABLE);
    assertThat(table.spec().fields()).hasSize(1);
    assertThat(state()).containsExactly("1=v1", "2=v2", "3=x3", "5=v5", "6=v6", "7=x7", "8=v8");
    // Merged at commit: only the buckets of ids 3, 4 and 7 were rewritten, and no delete is left.
    assertThat(table.currentSnapshot().summary())
        .containsEntry("sluice.commit.mode", "merge")
        .containsEntry("total-delete-files", "0");
    Map<String, String> after = filesByPartition(table);
    org.apache.iceberg.PartitionKey key =
        new org.apache.iceberg.PartitionKey(table.spec(), table.schema());
    java.util.Set<String> touched = new java.util.HashSet<>();
    for (int id : new int[] {3, 4, 7}) {
      org.apache.iceberg.data.GenericRecord row =
          org.apache.iceberg.data.GenericRecord.create(table.schema());
      row.setField("id", id);
      key.partition(row);
      touched.add(table.spec().partitionToPath(key));
    }
    before.forEach(
        (partition, file) -> {
          if (touched.contains(partition)) {
            assertThat(after.get(partition)).as(partition).isNotEqualTo(file);
          } else {
            assertThat(after.get(partition)).as(partition).isEqualTo(file);
          }
        });
  }

  /** Three lines of two orders, then an update of one line and a delete of another. */
  private void updateAndDeleteOneLineEach(SinkHarness task) {
    task.put(item(0, "c", 1, 1, "apple"), item(1, "c", 1, 2, "pear"), item(2, "c", 2, 1, "fig"));
    task.commit();
    task.put(item(3, "u", 1, 2, "plum"), itemDelete(4, 1, 1));
    task.commit();
    assertThat(items()).containsExactly("1/2=plum", "2/1=fig");
  }

  /** The one data file of each partition, by partition path. */
  private static Map<String, String> filesByPartition(Table table) {
    Map<String, String> files = new HashMap<>();
    table
        .newScan()
        .planFiles()
        .forEach(
            t ->
                assertThat(
                        files.put(
                            table.spec().partitionToPath(t.file().partition()),
                            t.file().location()))
                    .as("one data file per partition")
                    .isNull());
    return files;
  }

  @Test
  void aZombieWriterIsFencedAndRewindsToIceberg() {
    SinkHarness live = start(Map.of());
    SinkHarness zombie = start(Map.of());
    live.put(upsert(0, 0, "c", 1, "live"));
    live.commit();
    zombie.put(upsert(0, 0, "c", 1, "zombie"), upsert(0, 1, "c", 2, "zombie"));
    zombie.commit();
    assertThat(state()).containsExactly("1=live");
    assertThat(zombie.context.seeks).containsEntry(P0, 1L);
    assertThat(zombie.preCommit()).isEqualTo(Map.of(P0, 1L));
  }

  @Test
  void aFenceRewindsNeverCommittedPartitionsToTheirFirstPendingRecord() {
    SinkHarness task = start(Map.of());
    SinkHarness zombie = start(Map.of());
    task.context.seeks.clear();
    // P1 is committed by another writer of the connector; P0 never was.
    zombie.put(upsert(1, 0, "c", 9, "zombie"));
    zombie.commit();
    task.put(upsert(0, 5, "c", 1, "ann"), upsert(0, 6, "c", 2, "bob"), upsert(1, 0, "c", 9, "x"));
    task.commit();

    // The batch is dropped; both partitions are read again, P0 from its first pending record
    // (Iceberg holds nothing for it), P1 from the offset Iceberg holds.
    assertThat(task.context.seeks).containsEntry(P0, 5L).containsEntry(P1, 1L);
    task.put(upsert(0, 5, "c", 1, "ann"), upsert(0, 6, "c", 2, "bob"));
    task.commit();
    assertThat(state()).containsExactly("1=ann", "2=bob", "9=zombie");
    assertThat(lake.offsets(TABLE, "orders-upsert")).isEqualTo(Map.of(P0, 7L, P1, 1L));
  }

  @Test
  void aFenceOnOneTableDoesNotHoldTheOthersBack() {
    SinkHarness task = start(Map.of(), List.of(P0, ITEMS_P0), QuarantineClients.KAFKA);
    task.put(upsert(0, 0, "c", 1, "ann"));
    task.commit();
    SinkHarness zombie = start(Map.of(), List.of(P0), QuarantineClients.KAFKA);
    zombie.put(upsert(0, 1, "u", 1, "zombie"));
    zombie.commit();

    // orders comes first in the round and is fenced; order_items is committed all the same.
    task.put(upsert(0, 1, "u", 1, "ann2"), item(0, "c", 1, 1, "apple"));
    task.commit();
    assertThat(items()).containsExactly("1/1=apple");
    assertThat(lake.offsets(ITEMS_TABLE, "orders-upsert")).isEqualTo(Map.of(ITEMS_P0, 1L));
    assertThat(task.context.seeks).containsEntry(P0, 2L);
  }

  @Test
  void aRecordTheTableCannotTakeFailsTheTaskNamingIt() {
    SinkHarness task = start(Map.of());
    task.put(upsert(0, 0, "c", 1, "a"));
    task.commit();
    Schema clash =
        SchemaBuilder.struct()
            .optional()
            .field("id", Schema.INT32_SCHEMA)
            .field("customer", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .build();
    Struct after = new Struct(clash).put("id", 2).put("customer", true);
    task.put(record(1, 4, key(2), change(Envelopes.envelope(clash), "c", null, after)));
    assertThatThrownBy(task::commit)
        .isInstanceOf(DataException.class)
        .hasMessageContaining("partition 1 offset 4")
        .hasMessageContaining("column customer is string in the table but boolean in the record");
    assertThat(lake.offsets(TABLE, "orders-upsert")).isEqualTo(Map.of(P0, 1L));
  }

  @Test
  void flatRowsWithAnOperationField() {
    SinkHarness task =
        start(Map.of("input.format", "flat", "flat.op.field", "__op", "primary.key.fields", "id"));
    Schema flat =
        SchemaBuilder.struct()
            .field("id", Schema.INT32_SCHEMA)
            .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
            .field("__op", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    task.put(
        record(0, 0, null, new Struct(flat).put("id", 1).put("customer", "a").put("__op", "c")),
        record(0, 1, null, new Struct(flat).put("id", 2).put("customer", "b")),
        record(0, 2, null, new Struct(flat).put("id", 1).put("__op", "d")));
    task.commit();
    assertThat(state()).containsExactly("2=b");
    assertThat(lake.table(TABLE).schema().findField("__op")).isNull();
  }

  @Test
  void aRejectedLastEventOfAKeyLeavesItsEarlierValidEventInTheTable() {
    MockProducer<byte[], byte[]> dlq =
        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    MockConsumer<byte[], byte[]> reader = new MockConsumer<>("earliest");
    SinkHarness task =
        start(
            Map.of("errors.sink.tolerance", "all", "kafka.bootstrap.servers", "127.0.0.1:1"),
            new QuarantineClients() {
              @Override
              public Producer<byte[], byte[]> producer(Map<String, Object> config) {
                return dlq;
              }

              @Override
              public Consumer<byte[], byte[]> consumer(Map<String, Object> config) {
                return reader;
              }
            });
    task.put(upsert(0, 0, "c", 1, "a"));
    task.commit();
    Schema clash =
        SchemaBuilder.struct()
            .optional()
            .field("id", Schema.INT32_SCHEMA)
            .field("customer", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .build();
    Struct after = new Struct(clash).put("id", 1).put("customer", true);
    byte[] original = {0, 0, 0, 0, 9, 1};
    reader.updateBeginningOffsets(Map.of(P0, 0L));
    reader.schedulePollTask(
        () -> reader.addRecord(new ConsumerRecord<>(TOPIC, 0, 2L, new byte[] {1}, original)));
    task.put(
        upsert(0, 1, "u", 1, "a2"),
        record(0, 2, key(1), change(Envelopes.envelope(clash), "u", null, after)));
    task.commit();

    assertThat(state()).containsExactly("1=a2");
    assertThat(lake.offsets(TABLE, "orders-upsert")).containsEntry(P0, 3L);
    assertThat(dlq.history()).hasSize(1);
    DlqEnvelope envelope = DlqEnvelope.fromJson(dlq.history().get(0).value());
    assertThat(envelope.errorCode()).isEqualTo("SINK_TYPE_UNWRITABLE");
    assertThat(envelope.originalOffset()).isEqualTo(2);
    assertThat(envelope.originalValue()).isEqualTo(original);
    assertThat(envelope.schemaId()).isEqualTo(9);
    assertThat(lake.table(TABLE).currentSnapshot().summary())
        .containsEntry("sluice.dlq-offsets.orders-upsert", "{\"broker.cdc_lab.orders.dlq-0\":0}");
  }

  @Test
  void unreachableStorageIsRetriedThenFailsTheTaskAndNothingIsQuarantined() throws Exception {
    MockProducer<byte[], byte[]> dlq =
        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    SinkHarness task = quarantining(dlq, Map.of("errors.sink.retry.timeout", "300"));
    task.put(upsert(0, 0, "c", 1, "a"));
    task.commit();
    Path data = blockDataFiles();

    task.put(upsert(0, 1, "c", 2, "b"));
    assertThatThrownBy(task::commit)
        .isInstanceOf(ConnectException.class)
        .isNotInstanceOf(DataException.class)
        .hasMessageContaining("cannot commit 1 records to cdc_lab.orders_current");
    assertThat(dlq.history()).isEmpty();
    assertThat(lake.offsets(TABLE, "orders-upsert")).isEqualTo(Map.of(P0, 1L));
    unblock(data);
  }

  @Test
  void storageBackWithinTheRetryTimeoutCommitsTheBatch() throws Exception {
    MockProducer<byte[], byte[]> dlq =
        new MockProducer<>(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    SinkHarness task =
        quarantining(
            dlq,
            Map.of("errors.sink.retry.timeout", "30000", "errors.sink.retry.delay.max.ms", "200"));
    task.put(upsert(0, 0, "c", 1, "a"));
    task.commit();
    Path data = blockDataFiles();
    ScheduledExecutorService repair = Executors.newSingleThreadScheduledExecutor();
    try {
      repair.schedule(
          () -> {
            unblock(data);
            return null;
          },
          500,
          TimeUnit.MILLISECONDS);
      task.put(upsert(0, 1, "c", 2, "b"));
      task.commit();
    } finally {
      repair.shutdownNow();
    }
    assertThat(state()).containsExactly("1=a", "2=b");
    assertThat(dlq.history()).isEmpty();
  }

  /** A regular file where the table's data directory was: writing data files fails. */
  private Path blockDataFiles() throws IOException {
    Path data = Path.of(URI.create(lake.table(TABLE).location() + "/data").getPath());
    Files.move(data, data.resolveSibling("data.moved"));
    Files.writeString(data, "not a directory");
    return data;
  }

  private static void unblock(Path data) throws IOException {
    Files.delete(data);
    Files.move(data.resolveSibling("data.moved"), data);
  }

  private SinkHarness quarantining(MockProducer<byte[], byte[]> dlq, Map<String, String> extra) {
    Map<String, String> props = new HashMap<>(extra);
    props.put("errors.sink.tolerance", "all");
    props.put("kafka.bootstrap.servers", "127.0.0.1:1");
    MockConsumer<byte[], byte[]> reader = new MockConsumer<>("earliest");
    return start(
        props,
        new QuarantineClients() {
          @Override
          public Producer<byte[], byte[]> producer(Map<String, Object> config) {
            return dlq;
          }

          @Override
          public Consumer<byte[], byte[]> consumer(Map<String, Object> config) {
            return reader;
          }
        });
  }

  @Test
  void aCompositeKeyUpdatesAndDeletesOneLineOfAnOrderOnlyByPosition() {
    // Not merged: the key index (a two-column key, stored as bytes) finds each line's row. Nor
    // copied: in a file this small, one line is past any deleted fraction.
    SinkHarness task =
        start(
            Map.of(
                "maintenance.merge.max-bytes",
                "0",
                "maintenance.rewrite.deleted-fraction",
                NEVER_COPIED),
            List.of(ITEMS_P0),
            QuarantineClients.KAFKA);
    updateAndDeleteOneLineEach(task);
    Table table = lake.table(ITEMS_TABLE);
    assertThat(table.currentSnapshot().summary())
        .containsEntry("sluice.commit.mode", "position-deletes")
        .containsEntry("added-position-deletes", "2")
        .containsEntry("total-equality-deletes", "0");
  }

  @Test
  void aCompositeKeyUpdatesAndDeletesOneLineOfAnOrderOnlyWithEqualityDeletes() {
    // No merge and no key index: equality deletes, which must name both key columns.
    SinkHarness task =
        start(
            Map.of("maintenance.merge.max-bytes", "0", "key-index.max-bytes", "0"),
            List.of(ITEMS_P0),
            QuarantineClients.KAFKA);
    updateAndDeleteOneLineEach(task);
    Table table = lake.table(ITEMS_TABLE);
    org.apache.iceberg.Schema schema = table.schema();
    List<Integer> keyIds =
        List.of(schema.findField("order_id").fieldId(), schema.findField("line_no").fieldId());
    assertThat(List.copyOf(schema.identifierFieldIds())).isEqualTo(keyIds);
    List<List<Integer>> equalityIds = new ArrayList<>();
    table
        .currentSnapshot()
        .addedDeleteFiles(table.io())
        .forEach(
            f -> {
              if (f.content() == org.apache.iceberg.FileContent.EQUALITY_DELETES) {
                equalityIds.add(f.equalityFieldIds());
              }
            });
    assertThat(equalityIds).isNotEmpty().allSatisfy(ids -> assertThat(ids).isEqualTo(keyIds));
  }

  @Test
  void aCompositeKeyMergedAtCommitUpdatesAndDeletesOneLineOfAnOrderOnly() {
    SinkHarness task = start(Map.of(), List.of(ITEMS_P0), QuarantineClients.KAFKA);
    updateAndDeleteOneLineEach(task);
    Table table = lake.table(ITEMS_TABLE);
    assertThat(table.currentSnapshot().summary())
        .containsEntry("sluice.commit.mode", "merge")
        .containsEntry("sluice.commit.keys", "2");
    List<org.apache.iceberg.FileScanTask> tasks = new ArrayList<>();
    table.newScan().planFiles().forEach(tasks::add);
    assertThat(tasks).hasSize(1).allSatisfy(t -> assertThat(t.deletes()).isEmpty());
  }

  @Test
  void aBatchWhosePartitionsHoldMoreThanTheMergeBoundIsWrittenByPosition() {
    SinkHarness task =
        start(
            Map.of(
                "maintenance.merge.max-bytes",
                "1",
                "maintenance.rewrite.deleted-fraction",
                NEVER_COPIED),
            List.of(ITEMS_P0),
            QuarantineClients.KAFKA);
    task.put(item(0, "c", 1, 1, "apple"), item(1, "c", 1, 2, "pear"));
    task.commit();
    // An empty table holds no bytes: the first batch is merged, i.e. written without deletes.
    Table table = lake.table(ITEMS_TABLE);
    assertThat(table.currentSnapshot().summary()).containsEntry("sluice.commit.mode", "merge");
    task.put(item(2, "u", 1, 2, "plum"));
    task.commit();

    assertThat(items()).containsExactly("1/1=apple", "1/2=plum");
    table.refresh();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("sluice.commit.mode", "position-deletes")
        .containsEntry("added-position-deletes", "1")
        .doesNotContainKey("added-equality-delete-files");
  }

  @Test
  void aBatchThatWouldLeaveAFileLargelyDeletedCopiesItInstead() {
    SinkHarness task =
        start(
            Map.of(
                "maintenance.merge.max-bytes", "0", "maintenance.rewrite.deleted-fraction", "0.4"),
            List.of(ITEMS_P0),
            QuarantineClients.KAFKA);
    task.put(
        item(0, "c", 1, 1, "apple"),
        item(1, "c", 1, 2, "pear"),
        item(2, "c", 1, 3, "fig"),
        item(3, "c", 1, 4, "kiwi"),
        item(4, "c", 1, 5, "lime"));
    task.commit();
    // One of five rows: a DV.
    task.put(item(5, "u", 1, 1, "plum"));
    task.commit();
    Table table = lake.table(ITEMS_TABLE);
    assertThat(table.currentSnapshot().summary())
        .containsEntry("added-position-deletes", "1")
        .doesNotContainKey("deleted-data-files");
    // Two of five (the DV's and this one's): the file's three other rows are copied, and the file
    // and its DV go.
    task.put(itemDelete(6, 1, 2));
    task.commit();
    table.refresh();
    assertThat(table.currentSnapshot().summary())
        .containsEntry("sluice.commit.mode", "position-deletes")
        .containsEntry("deleted-data-files", "1")
        .containsEntry("added-records", "3")
        .containsEntry("total-delete-files", "0")
        .doesNotContainKey("added-position-deletes");
    assertThat(items()).containsExactly("1/1=plum", "1/3=fig", "1/4=kiwi", "1/5=lime");
    // The index knows where the copied rows went: an update of one (1 of 3) is a delete by
    // position in the copy.
    task.put(item(7, "u", 1, 3, "date"));
    task.commit();
    table.refresh();
    assertThat(table.currentSnapshot().summary()).containsEntry("added-position-deletes", "1");
    assertThat(items()).containsExactly("1/1=plum", "1/3=date", "1/4=kiwi", "1/5=lime");
  }

  @Test
  void aTableWhoseKeyIndexWouldExceedItsLimitsIsWrittenWithEqualityDeletes() {
    SinkHarness task =
        start(
            Map.of(
                "maintenance.merge.max-bytes",
                "0",
                "key-index.max-bytes",
                "1",
                "key-index.spill.max-bytes",
                "0"),
            List.of(ITEMS_P0),
            QuarantineClients.KAFKA);
    updateAndDeleteOneLineEach(task);
    Table table = lake.table(ITEMS_TABLE);
    assertThat(table.currentSnapshot().summary())
        .containsEntry("sluice.commit.mode", "equality-deletes")
        .containsEntry("added-equality-delete-files", "1");
  }

  @Test
  void aTableWhoseKeyIndexPassesTheHeapLimitSpillsAndIsStillWrittenByPosition() {
    Path spill = dir.resolve("key-index");
    SinkHarness task =
        start(
            Map.of(
                "maintenance.merge.max-bytes",
                "0",
                "key-index.max-bytes",
                "1",
                "key-index.spill.dir",
                spill.toString()),
            List.of(ITEMS_P0),
            QuarantineClients.KAFKA);
    updateAndDeleteOneLineEach(task);
    Table table = lake.table(ITEMS_TABLE);
    assertThat(table.currentSnapshot().summary())
        .containsEntry("sluice.commit.mode", "position-deletes")
        .containsEntry("total-equality-deletes", "0");
    assertThat(spill).as("each spill file deleted once mapped").isEmptyDirectory();
  }

  /**
   * Connect may stop a task without closing its partitions first (a worker shutting down): the
   * spilled key index is released all the same, its spill files closed and their disk freed.
   */
  @Test
  void stopWithoutCloseReleasesTheSpilledKeyIndex() throws IOException {
    Path spill = dir.resolve("key-index");
    SinkHarness task =
        start(
            Map.of(
                "maintenance.merge.max-bytes",
                "0",
                "key-index.max-bytes",
                "1",
                "key-index.spill.dir",
                spill.toString()),
            List.of(ITEMS_P0),
            QuarantineClients.KAFKA);
    updateAndDeleteOneLineEach(task);
    assertThat(openFilesIn(spill)).as("spill files the index holds").isPositive();

    task.stop();

    assertThat(openFilesIn(spill)).as("spill files still open after stop").isZero();
  }

  /** Files this JVM holds open under {@code dir} (deleted ones included), from /proc/self/fd. */
  private static long openFilesIn(Path dir) throws IOException {
    Path fds = Path.of("/proc/self/fd");
    Assumptions.assumeTrue(Files.isDirectory(fds), "needs Linux's /proc/self/fd");
    long open = 0;
    try (var links = Files.list(fds)) {
      for (Path fd : links.toList()) {
        try {
          if (Files.readSymbolicLink(fd).toString().startsWith(dir.toString())) {
            open++;
          }
        } catch (IOException e) {
          // Closed since it was listed (the listing's own descriptor, among others).
        }
      }
    }
    return open;
  }

  @Test
  void keylessRecordsAreSkippedWithOneWarnAndTheirOffsetsAdvance() {
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    Logger logger = (Logger) LoggerFactory.getLogger(KeylessTables.class);
    logger.addAppender(logs);
    try {
      SinkHarness task = start(Map.of(), List.of(AUDIT_P0, P0), QuarantineClients.KAFKA);
      task.put(
          keyless(0, "c", 1, "secret-a"),
          keyless(1, "c", 2, "secret-b"),
          upsert(0, 0, "c", 1, "a"));
      task.commit();
      task.put(keyless(2, "u", 2, "secret-c"));
      task.commit();

      assertThat(lake.exists(TableIdentifier.of("cdc_lab", "audit_log_current"))).isFalse();
      assertThat(state()).containsExactly("1=a");
      assertThat(task.preCommit()).isEqualTo(Map.of(AUDIT_P0, 3L, P0, 1L));
      assertThat(logs.list)
          .singleElement()
          .satisfies(
              e -> {
                assertThat(e.getLevel()).isEqualTo(Level.WARN);
                assertThat(e.getFormattedMessage())
                    .contains("Topic broker.cdc_lab.audit_log.clean has records without a key")
                    .contains("writes no table cdc_lab.audit_log_current")
                    .contains("the changelog table has its events")
                    .doesNotContain("secret");
              });
    } finally {
      logger.detachAppender(logs);
    }
  }

  @Test
  void nullKeysWithPrimaryKeyFieldsAreUpsertedByTheRowsColumns() {
    SinkHarness task =
        start(Map.of("primary.key.fields", "id"), List.of(AUDIT_P0), QuarantineClients.KAFKA);
    task.put(keyless(0, "c", 1, "a"), keyless(1, "c", 2, "b"), keyless(2, "u", 1, "a2"));
    task.commit();
    assertThat(
            lake.rows(TableIdentifier.of("cdc_lab", "audit_log_current"), "id").stream()
                .map(r -> r.getField("id") + "=" + r.getField("customer")))
        .containsExactly("1=a2", "2=b");
  }

  private static SinkRecord keyless(long offset, String op, int id, String customer) {
    Struct value = change(op, null, row(id, customer));
    return new SinkRecord(AUDIT_P0.topic(), 0, null, null, value.schema(), value, offset);
  }

  private static SinkRecord item(long offset, String op, int order, int line, String sku) {
    Struct row = new Struct(ITEM_ROW).put("order_id", order).put("line_no", line).put("sku", sku);
    Struct value = change(ITEM_ENVELOPE, op, null, row);
    return new SinkRecord(
        ITEMS_P0.topic(), 0, ITEM_KEY, itemKey(order, line), ITEM_ENVELOPE, value, offset);
  }

  private static SinkRecord itemDelete(long offset, int order, int line) {
    Struct before =
        new Struct(ITEM_ROW).put("order_id", order).put("line_no", line).put("sku", "gone");
    Struct value = change(ITEM_ENVELOPE, "d", before, null);
    return new SinkRecord(
        ITEMS_P0.topic(), 0, ITEM_KEY, itemKey(order, line), ITEM_ENVELOPE, value, offset);
  }

  private static Struct itemKey(int order, int line) {
    return new Struct(ITEM_KEY).put("order_id", order).put("line_no", line);
  }

  private List<String> items() {
    return lake.rows(ITEMS_TABLE, "order_id").stream()
        .map(r -> r.getField("order_id") + "/" + r.getField("line_no") + "=" + r.getField("sku"))
        .sorted()
        .toList();
  }

  private List<String> state() {
    return lake.rows(TABLE, "id").stream()
        .map(r -> r.getField("id") + "=" + r.getField("customer"))
        .toList();
  }

  private List<Snapshot> snapshots() {
    Table table = lake.table(TABLE);
    List<Snapshot> snapshots = new ArrayList<>();
    table.snapshots().forEach(snapshots::add);
    return snapshots;
  }

  private SinkHarness start(Map<String, String> extra) {
    return start(extra, QuarantineClients.KAFKA);
  }

  private SinkHarness start(Map<String, String> extra, QuarantineClients clients) {
    return start(extra, List.of(P0, P1), clients);
  }

  private SinkHarness start(
      Map<String, String> extra, List<TopicPartition> partitions, QuarantineClients clients) {
    return start(extra, partitions, clients, UpsertSinkTask::new);
  }

  private SinkHarness start(
      Map<String, String> extra,
      List<TopicPartition> partitions,
      QuarantineClients clients,
      Function<TaskRuntime, UpsertSinkTask> task) {
    Map<String, String> props = new HashMap<>(lake.connectorProperties());
    props.put("name", "orders-upsert");
    props.put("topics", String.join(",", partitions.stream().map(TopicPartition::topic).toList()));
    props.put("commit.interval.ms", String.valueOf(INTERVAL_MS));
    props.putAll(extra);
    SinkHarness harness = new SinkHarness(props, partitions, clients, task);
    harnesses.add(harness);
    return harness;
  }

  private static SinkRecord upsert(int partition, long offset, String op, int id, String customer) {
    return record(partition, offset, key(id), change(op, null, row(id, customer)));
  }

  private static SinkRecord delete(int partition, long offset, int id) {
    return record(partition, offset, key(id), change("d", row(id, "gone"), null));
  }

  private static SinkRecord tombstone(int partition, long offset, int id) {
    return record(partition, offset, key(id), null);
  }

  private static SinkRecord record(int partition, long offset, Struct key, Struct value) {
    return new SinkRecord(
        TOPIC,
        partition,
        key == null ? null : key.schema(),
        key,
        value == null ? null : value.schema(),
        value,
        offset);
  }
}
