package io.sluice.connect.upsert;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.metrics.SinkMeters;
import io.sluice.connect.upsert.metrics.SinkMetricsEndpoint;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The sink's table maintenance racing the sink's own commits (and another writer's compaction) on a
 * real JdbcCatalog: after every sink commit the table, read with Iceberg's reader (deletes
 * applied), equals an in-memory model of the source, key for key.
 */
class UpsertSinkMaintenanceIT {
  private static final String TOPIC = "broker.cdc_lab.orders.clean";
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
  private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);
  private static final String CONNECTOR = "orders-upsert";
  private static final int DELETE_FILES = 3;
  private static final int KEYS = 120;
  private static final long IDLE_COMMIT_MS = 60_000;
  private static final String REWRITE_COMMIT_LOGGER =
      "io.sluice.connect.upsert.maintenance.RewriteCommit";

  private static final org.slf4j.Logger log =
      LoggerFactory.getLogger(UpsertSinkMaintenanceIT.class);

  @TempDir java.nio.file.Path dir;
  private Lake lake;
  private final List<SinkHarness> harnesses = new ArrayList<>();
  private final Random random = new Random(18);
  private final Map<Integer, String> model = new TreeMap<>();
  private final Map<TopicPartition, Long> next = new HashMap<>(Map.of(P0, 0L, P1, 0L));
  private final ListAppender<ILoggingEvent> taskLogs = new ListAppender<>();
  private SinkMetricsEndpoint.Lease metrics;

  @BeforeEach
  void open() {
    lake = new Lake(dir);
    taskLogs.start();
    ((Logger) LoggerFactory.getLogger(UpsertSinkTask.class)).addAppender(taskLogs);
    metrics = SinkMetricsEndpoint.acquire("127.0.0.1", 0);
  }

  @AfterEach
  void close() throws Exception {
    harnesses.forEach(SinkHarness::stop);
    ((Logger) LoggerFactory.getLogger(UpsertSinkTask.class)).detachAppender(taskLogs);
    metrics.close();
    lake.close();
  }

  @Test
  void rewritesExpiryAndManifestRewritesRacingTheSinkLoseAndDuplicateNoKey() {
    ListAppender<ILoggingEvent> rewriteLogs = new ListAppender<>();
    rewriteLogs.start();
    Logger rewriteLogger = (Logger) LoggerFactory.getLogger(REWRITE_COMMIT_LOGGER);
    rewriteLogger.addAppender(rewriteLogs);
    // Task a holds partition 0, so it maintains the table; b's offsets sit in older snapshots.
    SinkHarness a = start(List.of(P0));
    SinkHarness b = start(List.of(P1));
    int commits = 0;
    for (int round = 0; round < 40; round++) {
      boolean onB = round % 7 == 3;
      TopicPartition tp = onB ? P1 : P0;
      (onB ? b : a).put(changes(tp, 1 + random.nextInt(25)));
      (onB ? b : a).commit();
      commits++;
      assertTableEqualsModel("after commit " + commits);
    }

    awaitMaintenanceCaughtUp();
    assertTableEqualsModel("after maintenance caught up");
    assertThat(rewrites("success")).as("rewrites committed").isGreaterThanOrEqualTo(5);
    // The sink deletes by position: a commit that deletes rows of a file a rewrite is rewriting
    // makes Iceberg refuse the rewrite's commit against the snapshot it prepared it at; it is
    // prepared again, carrying those deletes over, and commits. Nothing else may refuse it: with
    // the starting sequence number the sink's other commits are no conflict.
    rewriteLogger.detachAppender(rewriteLogs);
    List<String> messages =
        rewriteLogs.list.stream().map(ILoggingEvent::getFormattedMessage).toList();
    assertThat(messages)
        .filteredOn(m -> m.contains("refused, attempt"))
        .allMatch(
            m ->
                m.contains("found new position delete for replaced data file")
                    || m.contains("Missing required files to delete"));
    assertThat(messages)
        .filteredOn(m -> m.contains("abandoned"))
        .hasSize((int) rewrites("failure"))
        .allMatch(m -> m.contains("refused 3 times") || m.contains("beyond what it can carry"));
    assertNoEqualityDeleteOlderThanTheLastRewrite();
    Table table = lake.table(TABLE);
    assertThat(table.snapshots()).as("snapshots left after expiry").hasSizeLessThan(commits / 2);
    assertThat(lake.offsets(TABLE, CONNECTOR)).isEqualTo(next);
    assertNoFence();

    a.stop();
    b.stop();
    assertThat(start(List.of(P0, P1)).context.seeks).isEqualTo(next);
  }

  @Test
  void anIdleTaskCommitsItsOffsetsAgainSoThatExpiryIsNotHeldBack() {
    SinkHarness a = start(List.of(P0));
    SinkHarness b = start(List.of(P1));
    b.put(changes(P1, 5));
    b.commit();
    long bSnapshot = lake.table(TABLE).currentSnapshot().snapshotId();
    for (int round = 0; round < 12; round++) {
      a.put(changes(P0, 3));
      a.commit();
    }
    awaitMaintenanceCaughtUp();
    Table pinned = lake.table(TABLE);
    assertThat(pinned.snapshot(bSnapshot)).as("b's only snapshot is kept").isNotNull();
    assertThat(pinned.snapshots()).as("every snapshot since b's is kept").hasSizeGreaterThan(12);

    // b receives nothing for the idle interval: it commits its offsets again, without files.
    b.clock.addAndGet(IDLE_COMMIT_MS * 1_000_000);
    b.put(List.of());
    Snapshot idle = lake.table(TABLE).currentSnapshot();
    assertThat(idle.snapshotId()).isNotEqualTo(bSnapshot);
    assertThat(idle.summary())
        .containsEntry("sluice.commit.keys", "0")
        .doesNotContainKey("added-data-files")
        .containsKey("sluice.offsets." + CONNECTOR);
    a.put(changes(P0, 3));
    a.commit();
    await("expiry moved past b's old snapshot")
        .atMost(Duration.ofSeconds(30))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> lake.table(TABLE).snapshot(bSnapshot) == null);
    assertThat(lake.table(TABLE).snapshots()).hasSizeLessThan(12);
    assertTableEqualsModel("after expiry");
    assertThat(lake.offsets(TABLE, CONNECTOR)).isEqualTo(next);
    assertNoFence();
  }

  @Test
  void anExternalCompactionRacingTheSinkAndItsMaintenanceBreaksNoCommit() throws Exception {
    // An external compaction every fifth commit, the sink's own rewrite every fourth: both commit
    // rewrites, and each sometimes overtakes the other.
    SinkHarness task = start(List.of(P0, P1), 4, 0);
    ExternalCompaction external = new ExternalCompaction(lake.catalog(), TABLE);
    CompletableFuture<Void> compaction = CompletableFuture.completedFuture(null);
    int commits = 0;
    // At least 60 rounds, and on until both sides committed: which side wins each race varies
    // with the machine's load (the own rewrites start right after each commit).
    for (int round = 0;
        round < 60 || (round < 240 && (external.committed() == 0 || rewrites("success") < 3));
        round++) {
      TopicPartition tp = round % 2 == 0 ? P0 : P1;
      task.put(changes(tp, 1 + random.nextInt(25)));
      if (round > 0 && round % 5 == 0 && compaction.isDone()) {
        compaction.join();
        // Started now, it races this commit and the maintenance this commit triggers.
        compaction = CompletableFuture.runAsync(external::compactOnce);
      }
      task.commit();
      commits++;
      assertTableEqualsModel("after commit " + commits);
    }
    compaction.join();
    assertTableEqualsModel("after the last compaction");

    log.info(
        "External compactions: {} committed, {} refused; own rewrites: {} committed, {} refused",
        external.committed(),
        external.refused(),
        rewrites("success"),
        rewrites("failure"));
    // Which side wins each race varies (the own rewrites win more since the manifests merge at
    // every commit); both must have committed for the race to have been run.
    assertThat(external.committed()).as("external compactions committed").isPositive();
    assertThat(rewrites("success")).as("own rewrites committed").isGreaterThanOrEqualTo(3);
    assertThat(lake.offsets(TABLE, CONNECTOR)).isEqualTo(next);
    assertNoFence();
    task.stop();
    assertThat(start(List.of(P0, P1)).context.seeks).isEqualTo(next);
  }

  @Test
  void mergedCommitsRacingAnExternalCompactionAndAnotherTaskLoseAndDuplicateNoKey()
      throws Exception {
    // Both tasks merge their batches into the table at commit; an external compaction started
    // before every fifth commit races it. A merge that loses the race is written with equality
    // deletes instead, which the maintenance of task a applies later.
    SinkHarness a = start(List.of(P0), DELETE_FILES, 64L * 1024 * 1024);
    SinkHarness b = start(List.of(P1), DELETE_FILES, 64L * 1024 * 1024);
    ExternalCompaction external = new ExternalCompaction(lake.catalog(), TABLE);
    CompletableFuture<Void> compaction = CompletableFuture.completedFuture(null);
    Map<String, Integer> modes = new TreeMap<>();
    for (int round = 0; round < 40; round++) {
      boolean onB = round % 3 == 1;
      TopicPartition tp = onB ? P1 : P0;
      SinkHarness task = onB ? b : a;
      task.put(changes(tp, 1 + random.nextInt(25)));
      if (round > 0 && round % 5 == 0 && compaction.isDone()) {
        compaction.join();
        compaction = CompletableFuture.runAsync(external::compactOnce);
      }
      task.commit();
      modes.merge(lastCommitMode(), 1, Integer::sum);
      assertTableEqualsModel("after commit " + (round + 1));
    }
    compaction.join();
    assertTableEqualsModel("after the last compaction");
    log.info(
        "Commits by mode: {}; external compactions: {} committed, {} refused",
        modes,
        external.committed(),
        external.refused());
    assertThat(modes.getOrDefault("merge", 0)).as("merged commits").isGreaterThanOrEqualTo(20);

    // With nobody racing it, a merge leaves the table without delete files.
    a.put(changes(P0, 5));
    a.commit();
    assertThat(lastCommitMode()).isEqualTo("merge");
    assertTableEqualsModel("after a quiet merge");
    assertThat(liveDeleteFiles(lake.table(TABLE))).isEmpty();
    assertThat(lake.table(TABLE).currentSnapshot().summary())
        .as("no delete file left, not even one that applies to nothing")
        .containsEntry("total-delete-files", "0");
    assertThat(lake.offsets(TABLE, CONNECTOR)).isEqualTo(next);
    assertNoFence();
    a.stop();
    b.stop();
    assertThat(start(List.of(P0, P1)).context.seeks).isEqualTo(next);
  }

  /** The commit mode of the newest snapshot the sink committed. */
  private String lastCommitMode() {
    Table table = lake.table(TABLE);
    for (Snapshot s : SnapshotUtil.currentAncestors(table)) {
      String mode = s.summary().get("sluice.commit.mode");
      if (mode != null) {
        return mode;
      }
    }
    return "none";
  }

  /** {@code count} random changes on {@code tp}'s keys (even on 0, odd on 1), into the model. */
  private List<SinkRecord> changes(TopicPartition tp, int count) {
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int id = 2 * random.nextInt(KEYS / 2) + tp.partition();
      long offset = next.merge(tp, 1L, Long::sum) - 1;
      Struct value;
      if (model.containsKey(id) && random.nextInt(10) < 4) {
        value = change("d", row(id, "gone"), null);
        model.remove(id);
      } else {
        String customer = "c" + id + "-" + offset;
        value = change(model.containsKey(id) ? "u" : "c", null, row(id, customer));
        model.put(id, customer);
      }
      records.add(
          new SinkRecord(
              TOPIC, tp.partition(), key(id).schema(), key(id), value.schema(), value, offset));
    }
    return records;
  }

  private void assertTableEqualsModel(String when) {
    List<Record> rows = lake.rows(TABLE, "id");
    Map<Integer, String> table = new TreeMap<>();
    rows.forEach(r -> table.put((Integer) r.getField("id"), (String) r.getField("customer")));
    assertThat(rows).as("rows %s (duplicate keys)", when).hasSize(table.size());
    assertThat(table).as("table %s", when).isEqualTo(model);
  }

  private void awaitMaintenanceCaughtUp() {
    await("maintenance left fewer than " + DELETE_FILES + " delete files")
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> liveDeleteFiles(lake.table(TABLE)).size() < DELETE_FILES);
  }

  /** The newest rewrite's starting sequence number bounds every equality delete left at rest. */
  private void assertNoEqualityDeleteOlderThanTheLastRewrite() {
    Table table = lake.table(TABLE);
    Snapshot rewrite = null;
    for (Snapshot s : SnapshotUtil.currentAncestors(table)) {
      if (DataOperations.REPLACE.equals(s.operation())
          && s.addedDataFiles(table.io()).iterator().hasNext()) {
        rewrite = s;
        break;
      }
    }
    assertThat(rewrite).as("a rewrite among the kept snapshots").isNotNull();
    long start = Long.MAX_VALUE;
    for (DataFile f : rewrite.addedDataFiles(table.io())) {
      start = Math.min(start, f.dataSequenceNumber());
    }
    assertThat(start)
        .as("rewritten rows keep their starting sequence number")
        .isLessThan(rewrite.sequenceNumber());
    long bound = start;
    assertThat(liveDeleteFiles(table))
        .filteredOn(f -> f.content() == FileContent.EQUALITY_DELETES)
        .allSatisfy(f -> assertThat(f.dataSequenceNumber()).isGreaterThan(bound));
  }

  private static List<DeleteFile> liveDeleteFiles(Table table) {
    List<DeleteFile> files = new ArrayList<>();
    table.newScan().planFiles().forEach(t -> files.addAll(t.deletes()));
    return files.stream().distinct().toList();
  }

  private double rewrites(String result) {
    SinkMeters meters = metrics.meters();
    return meters
        .registry()
        .get(SinkMeters.MAINTENANCE_REWRITES)
        .tag("table", TABLE.toString())
        .tag("result", result)
        .counter()
        .count();
  }

  private void assertNoFence() {
    assertThat(taskLogs.list)
        .filteredOn(e -> e.getLevel() == Level.WARN)
        .extracting(ILoggingEvent::getFormattedMessage)
        .noneMatch(m -> m.contains("fenced"));
  }

  /** A task that writes equality deletes only (no merge at commit), for its rewrites to apply. */
  private SinkHarness start(List<TopicPartition> partitions) {
    return start(partitions, DELETE_FILES, 0);
  }

  private SinkHarness start(List<TopicPartition> partitions, int deleteFiles, long mergeMaxBytes) {
    Map<String, String> props = new HashMap<>(lake.connectorProperties());
    props.put("name", CONNECTOR);
    props.put("topics", TOPIC);
    props.put("commit.interval.ms", "1000");
    props.put("metrics.port", "0");
    props.put("maintenance.rewrite.delete-files", String.valueOf(deleteFiles));
    props.put("maintenance.merge.max-bytes", String.valueOf(mergeMaxBytes));
    // Its batches are small beside the table: every one that fits in the bytes is merged.
    props.put("maintenance.merge.max-rows-per-key", "0");
    props.put("maintenance.snapshots.keep-last", "4");
    props.put("maintenance.snapshots.max-age-ms", "0");
    props.put("maintenance.manifests.max-count", "4");
    props.put("maintenance.check.interval-ms", "1000");
    props.put("maintenance.idle-commit.interval-ms", String.valueOf(IDLE_COMMIT_MS));
    props.put("sluice.task.id", String.valueOf(harnesses.size()));
    SinkHarness harness = new SinkHarness(props, partitions, QuarantineClients.KAFKA);
    harnesses.add(harness);
    return harness;
  }
}
