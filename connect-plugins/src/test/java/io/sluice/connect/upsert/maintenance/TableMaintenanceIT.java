package io.sluice.connect.upsert.maintenance;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.record;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.ExternalCompaction;
import io.sluice.connect.upsert.SinkHarness;
import io.sluice.connect.upsert.config.MaintenanceSettings;
import io.sluice.connect.upsert.metrics.MaintenanceMeters;
import io.sluice.connect.upsert.metrics.SinkMeters;
import io.sluice.connect.upsert.quarantine.DlqOffsets;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import io.sluice.lake.offsets.IcebergOffsets;
import io.sluice.lake.offsets.SnapshotOffsets;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Stream;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.GenericStatisticsFile;
import org.apache.iceberg.ImmutableGenericPartitionStatisticsFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.relocated.com.google.common.collect.Iterables;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Each maintenance job on a real JdbcCatalog table written by the real sink task (its own
 * maintenance off, so that each test drives one job).
 */
class TableMaintenanceIT {
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TopicPartition P0 = new TopicPartition("broker.cdc_lab.orders.clean", 0);
  private static final TopicPartition P1 = new TopicPartition("broker.cdc_lab.orders.clean", 1);
  private static final long NOW = System.currentTimeMillis();
  private static final MaintenanceSettings SETTINGS =
      new MaintenanceSettings(
          3, 100, 0.2, 64L << 20, 2, 0, 604_800_000, 3_600_000, 60_000, 3, 1_000);
  private static final long HORIZON_MS = 3_600_000;
  // Expiry only: keep the last 3 snapshots, whatever their age; no rewrites.
  private static final MaintenanceSettings RENAME_SETTINGS =
      new MaintenanceSettings(
          100, 100, 2, 64L << 20, 3, 0, HORIZON_MS, 3_600_000, 60_000, 50, 1_000);

  @TempDir Path dir;
  private Lake lake;
  private final List<SinkHarness> tasks = new ArrayList<>();
  private final Map<TopicPartition, Long> next = new HashMap<>(Map.of(P0, 0L, P1, 0L));
  private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
  private final MaintenanceMeters meters =
      new SinkMeters(registry).table("orders-upsert", "t").maintenance();

  @BeforeEach
  void open() {
    lake = new Lake(dir);
  }

  @AfterEach
  void close() throws IOException {
    tasks.forEach(SinkHarness::stop);
    lake.close();
  }

  @Test
  void aPassRewritesTheDuePartitionsOfABucketedTableAndRemovesTheirDeletes() {
    // Equality deletes only (no merge, no key index): the fallback, rewritten whole.
    SinkHarness task =
        start(
            Map.of(
                "table.partition.by",
                "bucket(id, 4)",
                "maintenance.merge.max-bytes",
                "0",
                "key-index.max-bytes",
                "0"),
            List.of(P0, P1));
    for (int batch = 0; batch < 4; batch++) {
      task.put(upserts(P0, 1 + batch * 2, 40, "v" + batch));
      task.commit();
    }
    task.put(delete(P0, 7), delete(P0, 8));
    task.commit();
    List<String> before = rows();
    Map<TopicPartition, Long> offsets = IcebergOffsets.all(lake.table(TABLE), "orders-upsert");

    new TableMaintenance(SETTINGS, 0, () -> false, new ReentrantLock())
        .run(lake.table(TABLE), meters, false, NOW);

    Table table = lake.table(TABLE);
    assertThat(rows()).isEqualTo(before);
    assertThat(deleteFiles(table)).isZero();
    assertThat(table.currentSnapshot().summary().keySet()).noneMatch(k -> k.startsWith("sluice."));
    assertThat(IcebergOffsets.all(table, "orders-upsert")).isEqualTo(offsets);
    // One data file per bucket: the rewrites covered every row of each partition.
    assertThat(table.currentSnapshot().summary()).containsEntry("total-data-files", "4");
  }

  @Test
  void aPassRewritesOnlyTheDirtyFilesOfATableWrittenByPosition() {
    SinkHarness task = start(Map.of("maintenance.merge.max-bytes", "0"), List.of(P0, P1));
    task.put(upserts(P0, 1, 200, "a"));
    task.commit();
    DataFile big = liveFiles().dataFiles().get(0);
    // Ids 1-20 again: 10% of the big file deleted by position, below the fraction.
    DataFile updatedTwice = null;
    for (int batch = 0; batch < 4; batch++) {
      task.put(upserts(P0, 1 + batch * 5, 5, "b"));
      task.commit();
      if (batch == 0) {
        updatedTwice =
            liveFiles().dataFiles().stream().filter(f -> f.recordCount() == 5).findFirst().get();
      }
    }
    // Ids 1-5 once more: every row of the first 5-row file deleted.
    task.put(upserts(P0, 1, 5, "c"));
    task.commit();
    List<String> before = rows();
    assertThat(liveFiles().deleteFiles()).isNotEmpty();

    new TableMaintenance(SETTINGS, 0, () -> false, new ReentrantLock())
        .run(lake.table(TABLE), meters, false, NOW);

    FileGroup after = liveFiles();
    assertThat(rows()).isEqualTo(before);
    assertThat(after.dataFiles())
        .extracting(DataFile::location)
        .contains(big.location())
        .doesNotContain(updatedTwice.location());
    assertThat(after.deleteFiles())
        .extracting(FileGroup::referencedDataFile)
        .contains(big.location())
        .doesNotContain(updatedTwice.location());
  }

  @Test
  void aRewriteOvertakenByAnotherCompactionIsAbandonedAndItsFilesDeleted() throws IOException {
    SinkHarness task = start(Map.of(), List.of(P0, P1));
    for (int batch = 0; batch < 3; batch++) {
      task.put(upserts(P0, 1, 30, "v" + batch));
      task.commit();
    }
    Table table = lake.table(TABLE);
    Snapshot base = table.currentSnapshot();
    FileGroup group = TableInventory.read(table, base, true).groups().iterator().next();
    new ExternalCompaction(lake.catalog(), TABLE).compactOnce();

    RewriteCommit.Result result =
        new PartitionRewrite(
                0,
                SETTINGS.targetFileSizeBytes(),
                () -> false,
                new RewriteCommit(new ReentrantLock()))
            .rewrite(table, base, group);

    assertThat(result).isEqualTo(RewriteCommit.Result.ABANDONED);
    assertThat(maintenanceFiles()).isEmpty();
    assertThat(rows()).hasSize(30);
  }

  @Test
  void aTaskThatStopsMidRewriteLeavesNoFileBehind() throws IOException {
    SinkHarness task = start(Map.of(), List.of(P0, P1));
    task.put(upserts(P0, 1, 3_000, "a"));
    task.commit();
    task.put(upserts(P0, 1, 10, "b"));
    task.commit();
    Table table = lake.table(TABLE);
    Snapshot base = table.currentSnapshot();
    FileGroup group = TableInventory.read(table, base, true).groups().iterator().next();
    AtomicInteger asked = new AtomicInteger();
    PartitionRewrite rewrite =
        new PartitionRewrite(
            0,
            SETTINGS.targetFileSizeBytes(),
            () -> asked.incrementAndGet() > 1,
            new RewriteCommit(new ReentrantLock()));

    assertThatThrownBy(() -> rewrite.rewrite(table, base, group))
        .isInstanceOf(CancellationException.class)
        .hasMessage("the task stops");
    assertThat(asked).hasValue(2);
    assertThat(maintenanceFiles()).isEmpty();
    assertThat(lake.table(TABLE).currentSnapshot().snapshotId()).isEqualTo(base.snapshotId());
  }

  @Test
  void expiryKeepsTheSnapshotOfAnIdlePartitionAndEveryNewerOne() {
    SinkHarness a = start(Map.of(), List.of(P0));
    SinkHarness b = start(Map.of(), List.of(P1));
    a.put(upserts(P0, 1, 5, "a"));
    a.commit();
    b.put(upserts(P1, 100, 5, "b"));
    b.commit();
    long bSnapshot = lake.table(TABLE).currentSnapshot().snapshotId();
    for (int i = 0; i < 6; i++) {
      a.put(upserts(P0, 1, 5, "a" + i));
      a.commit();
    }

    int expired =
        new SnapshotExpiry(2, 0, HORIZON_MS)
            .expire(lake.table(TABLE), System.currentTimeMillis(), meters);

    Table table = lake.table(TABLE);
    assertThat(expired).isEqualTo(1);
    assertThat(table.snapshot(bSnapshot)).isNotNull();
    assertThat(IcebergOffsets.all(table, "orders-upsert")).isEqualTo(next);
    b.put(upserts(P1, 100, 1, "b2"));
    b.commit();
    assertThat(IcebergOffsets.all(lake.table(TABLE), "orders-upsert")).isEqualTo(next);
  }

  @Test
  void aRenamedConnectorsOffsetsStopPinningExpiryOnceTheHorizonHasPassed() {
    SinkHarness old = start(Map.of(), List.of(P0, P1));
    for (int batch = 0; batch < 3; batch++) {
      old.put(upserts(P0, 1, 5, "a" + batch));
      old.put(upserts(P1, 100, 5, "a" + batch));
      old.commit();
    }
    long oldLast = lake.table(TABLE).currentSnapshot().timestampMillis();
    long oldLastId = lake.table(TABLE).currentSnapshot().snapshotId();
    old.stop();
    // The rename: the same partitions, recorded under another connector name from now on.
    await("the wall clock past the old connector's last commit")
        .atMost(Duration.ofSeconds(5))
        .until(() -> System.currentTimeMillis() > oldLast);
    SinkHarness renamed = start(Map.of("name", "orders-upsert-v2"), List.of(P0, P1));
    TableMaintenance maintenance =
        new TableMaintenance(RENAME_SETTINGS, 0, () -> false, new ReentrantLock());
    List<Integer> kept = new ArrayList<>();
    List<Double> retired = new ArrayList<>();
    Long renamedFirst = null;
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    Logger logger = (Logger) LoggerFactory.getLogger(SnapshotExpiry.class);
    logger.addAppender(logs);
    try {
      for (int round = 0; round < 12; round++) {
        renamed.put(upserts(P0, 1, 5, "b" + round));
        renamed.put(upserts(P1, 100, 5, "b" + round));
        renamed.commit();
        Table table = lake.table(TABLE);
        if (renamedFirst == null) {
          renamedFirst = table.currentSnapshot().timestampMillis();
        }
        // Each pass at the time of the last commit for 4 rounds, then a horizon after the rename:
        // past it for the old name's entries, never for the new one's, recorded by every commit.
        long now =
            round < 4 ? table.currentSnapshot().timestampMillis() : renamedFirst + HORIZON_MS;
        maintenance.run(table, meters, false, now);
        kept.add(Iterables.size(lake.table(TABLE).snapshots()));
        retired.add(registry.get(SinkMeters.OFFSETS_RETIRED_PARTITIONS).gauge().value());
      }
    } finally {
      logger.detachAppender(logs);
    }

    // The old name's last snapshot pins every newer one while the horizon lasts.
    assertThat(kept.subList(0, 4)).containsExactly(3, 3, 4, 5);
    assertThat(kept.subList(4, 12)).as("snapshots kept after each round").containsOnly(3);
    assertThat(retired).containsExactly(0.0, 0.0, 0.0, 0.0, 2.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0);
    assertThat(logs.list)
        .filteredOn(e -> e.getFormattedMessage().contains("no longer keep snapshots"))
        .extracting(ILoggingEvent::getFormattedMessage)
        .hasSize(2)
        .allSatisfy(m -> assertThat(m).contains("connector orders-upsert for ", oldLastId + ","))
        .anySatisfy(m -> assertThat(m).contains(P0.toString()))
        .anySatisfy(m -> assertThat(m).contains(P1.toString()));
    Table table = lake.table(TABLE);
    assertThat(IcebergOffsets.all(table, "orders-upsert-v2")).isEqualTo(next);
    assertThat(IcebergOffsets.all(table, "orders-upsert")).isEmpty();
  }

  @Test
  void manifestsAboveTheBoundAreRewrittenAndOffsetsStay() {
    SinkHarness task = start(Map.of(), List.of(P0, P1));
    for (int batch = 0; batch < 5; batch++) {
      task.put(upserts(P0, 1 + batch, 3, "v" + batch));
      task.commit();
      if (batch == 0) {
        // The sink's tables merge manifests at every commit; a table written by others may not.
        lake.table(TABLE)
            .updateProperties()
            .set(TableProperties.MANIFEST_MIN_MERGE_COUNT, "100")
            .commit();
      }
    }
    List<String> before = rows();

    assertThat(new ManifestCompaction(3, new ReentrantLock()).compact(lake.table(TABLE))).isTrue();

    Table table = lake.table(TABLE);
    assertThat(table.currentSnapshot().dataManifests(table.io())).hasSize(1);
    assertThat(rows()).isEqualTo(before);
    assertThat(IcebergOffsets.all(table, "orders-upsert")).isEqualTo(Map.of(P0, next.get(P0)));
    assertThat(new ManifestCompaction(3, new ReentrantLock()).compact(table)).isFalse();
  }

  @Test
  void orphansOlderThanTheBoundAreDeletedAndReferencedFilesAreNot() throws IOException {
    SinkHarness task = start(Map.of(), List.of(P0, P1));
    task.put(upserts(P0, 1, 10, "a"));
    task.commit();
    Path data = Path.of(URI.create(lake.table(TABLE).location() + "/data").getPath());
    Path old = Files.writeString(data.resolve("left-by-a-crash.parquet"), "x");
    Files.setLastModifiedTime(old, FileTime.fromMillis(NOW - 7_200_000));
    Path young = Files.writeString(data.resolve("commit-in-progress.parquet"), "x");
    Table table = lake.table(TABLE);

    int removed = new OrphanFiles().remove(table, table.io(), NOW - 3_600_000);

    assertThat(removed).isEqualTo(1);
    assertThat(old).doesNotExist();
    assertThat(young).exists();
    assertThat(rows()).hasSize(10);
  }

  @Test
  void orphanRemovalUnderADataPathHoldingTheMetadataKeepsEveryReachableFile() throws IOException {
    // Position deletes too (no merge at commit): delete files among the data files.
    SinkHarness task = start(Map.of("maintenance.merge.max-bytes", "0"), List.of(P0, P1));
    task.put(upserts(P0, 1, 10, "a"));
    task.commit();
    Table table = lake.table(TABLE);
    table.updateProperties().set(TableProperties.WRITE_DATA_LOCATION, table.location()).commit();
    for (int batch = 0; batch < 4; batch++) {
      task.put(upserts(P0, 1 + batch * 3, 5, "b" + batch));
      task.commit();
    }
    task.put(delete(P0, 2));
    task.commit();
    table = lake.table(TABLE);
    long snapshotId = table.currentSnapshot().snapshotId();
    // Statistics files another engine wrote beside the data (not under the metadata location).
    Path location = Path.of(URI.create(table.location()).getPath());
    Path stats = Files.writeString(location.resolve("stats-" + snapshotId + ".puffin"), "puffin");
    Path partitionStats =
        Files.writeString(location.resolve("partition-stats-" + snapshotId + ".parquet"), "par");
    table
        .updateStatistics()
        .setStatistics(
            new GenericStatisticsFile(
                snapshotId, stats.toUri().toString(), Files.size(stats), 0, List.of()))
        .commit();
    table
        .updatePartitionStatistics()
        .setPartitionStatistics(
            ImmutableGenericPartitionStatisticsFile.builder()
                .snapshotId(snapshotId)
                .path(partitionStats.toUri().toString())
                .fileSizeInBytes(Files.size(partitionStats))
                .build())
        .commit();
    Path orphan = Files.writeString(location.resolve("left-by-a-crash.parquet"), "x");
    List<Path> before = filesUnder(location);
    for (Path file : before) {
      Files.setLastModifiedTime(file, FileTime.fromMillis(NOW - 7_200_000));
    }
    List<String> rows = rows();
    Map<Long, Integer> rowsPerSnapshot = rowsPerSnapshot(lake.table(TABLE));
    table = lake.table(TABLE);

    int removed = new OrphanFiles().remove(table, table.io(), NOW - 3_600_000);

    assertThat(filesUnder(location))
        .containsExactlyInAnyOrderElementsOf(
            before.stream().filter(f -> !f.equals(orphan)).toList());
    assertThat(removed).isEqualTo(1);
    assertThat(rows()).isEqualTo(rows).hasSize(13);
    assertThat(rowsPerSnapshot(lake.table(TABLE))).isEqualTo(rowsPerSnapshot);
  }

  @Test
  void withoutPrefixListingOrphanRemovalIsSkippedWithOneInfoLine() {
    SinkHarness task = start(Map.of(), List.of(P0, P1));
    task.put(upserts(P0, 1, 1, "a"));
    task.commit();
    Table table = lake.table(TABLE);
    FileIO plain = new PlainFileIO(table.io());
    ListAppender<ILoggingEvent> logs = new ListAppender<>();
    logs.start();
    Logger logger = (Logger) LoggerFactory.getLogger(OrphanFiles.class);
    logger.addAppender(logs);
    try {
      OrphanFiles orphans = new OrphanFiles();
      assertThat(orphans.remove(table, plain, NOW)).isEqualTo(-1);
      assertThat(orphans.remove(table, plain, NOW)).isEqualTo(-1);
    } finally {
      logger.detachAppender(logs);
    }
    assertThat(logs.list)
        .singleElement()
        .satisfies(e -> assertThat(e.getFormattedMessage()).contains("cannot list files"));
  }

  @Test
  void offsetAndDlqLookupsWalkPastASnapshotWithoutOffsets() {
    SinkHarness task = start(Map.of(), List.of(P0, P1));
    task.put(upserts(P0, 1, 1, "a"));
    task.commit();
    Table table = lake.table(TABLE);
    DataFile fake =
        DataFiles.builder(table.spec())
            .withPath(table.location() + "/data/fake.parquet")
            .withFileSizeInBytes(10)
            .withRecordCount(0)
            .build();
    TopicPartition dlq = new TopicPartition("broker.cdc_lab.orders.dlq", 0);
    var append = table.newAppend().appendFile(fake);
    SnapshotOffsets.toSummary("other", Map.of(P1, 5L)).forEach(append::set);
    DlqOffsets.toSummary("other", Map.of(dlq, 3L)).forEach(append::set);
    append.commit();
    Snapshot appended = table.currentSnapshot();
    table
        .newRewrite()
        .validateFromSnapshot(appended.snapshotId())
        .dataSequenceNumber(appended.sequenceNumber())
        .deleteFile(fake)
        .commit();

    Table after = lake.table(TABLE);
    assertThat(after.currentSnapshot().summary().keySet()).noneMatch(k -> k.startsWith("sluice."));
    assertThat(IcebergOffsets.of(after, "other", List.of(P1))).isEqualTo(Map.of(P1, 5L));
    assertThat(DlqOffsets.startFor(after, "other", List.of(P1))).contains(Map.of(dlq, 3L));
    assertThat(IcebergOffsets.of(after, "orders-upsert", List.of(P0))).isEqualTo(Map.of(P0, 1L));
  }

  private SinkHarness start(Map<String, String> extra, List<TopicPartition> partitions) {
    Map<String, String> props = new HashMap<>(lake.connectorProperties());
    props.put("name", "orders-upsert");
    props.put("topics", P0.topic());
    props.put("commit.interval.ms", "1000");
    props.put("maintenance.enabled", "false");
    props.put("sluice.task.id", String.valueOf(tasks.size()));
    props.putAll(extra);
    SinkHarness task = new SinkHarness(props, partitions, QuarantineClients.KAFKA);
    tasks.add(task);
    return task;
  }

  /** Upserts of ids {@code from} .. {@code from + count - 1} on {@code tp}. */
  private List<SinkRecord> upserts(TopicPartition tp, int from, int count, String value) {
    List<SinkRecord> records = new ArrayList<>();
    for (int id = from; id < from + count; id++) {
      long offset = next.merge(tp, 1L, Long::sum) - 1;
      records.add(record(tp.partition(), offset, key(id), change("u", null, row(id, value))));
    }
    return records;
  }

  private SinkRecord delete(TopicPartition tp, int id) {
    long offset = next.merge(tp, 1L, Long::sum) - 1;
    return record(tp.partition(), offset, key(id), change("d", row(id, "gone"), null));
  }

  private List<String> rows() {
    return lake.rows(TABLE, "id").stream()
        .map((Record r) -> r.getField("id") + "=" + r.getField("customer"))
        .toList();
  }

  private static List<Path> filesUnder(Path dir) throws IOException {
    try (Stream<Path> files = Files.walk(dir)) {
      return files.filter(Files::isRegularFile).sorted().toList();
    }
  }

  /** How many rows each snapshot reads as (time travel to every retained one). */
  private static Map<Long, Integer> rowsPerSnapshot(Table table) throws IOException {
    Map<Long, Integer> counts = new HashMap<>();
    for (Snapshot snapshot : table.snapshots()) {
      try (CloseableIterable<Record> records =
          IcebergGenerics.read(table).useSnapshot(snapshot.snapshotId()).build()) {
        int count = 0;
        for (Record ignored : records) {
          count++;
        }
        counts.put(snapshot.snapshotId(), count);
      }
    }
    return counts;
  }

  /** The live files of the unpartitioned table. */
  private FileGroup liveFiles() {
    Table table = lake.table(TABLE);
    return TableInventory.read(table, table.currentSnapshot(), true).groups().iterator().next();
  }

  private static long deleteFiles(Table table) {
    return Long.parseLong(table.currentSnapshot().summary().get("total-delete-files"));
  }

  /** Files a rewrite wrote (their names carry the operation id), committed or not. */
  private List<Path> maintenanceFiles() throws IOException {
    Path data = Path.of(URI.create(lake.table(TABLE).location() + "/data").getPath());
    try (Stream<Path> files = Files.walk(data)) {
      return files.filter(f -> f.getFileName().toString().contains("maintenance-")).toList();
    }
  }

  /** A FileIO that cannot list prefixes (as some object stores' are). */
  private record PlainFileIO(FileIO io) implements FileIO {
    @Override
    public InputFile newInputFile(String path) {
      return io.newInputFile(path);
    }

    @Override
    public OutputFile newOutputFile(String path) {
      return io.newOutputFile(path);
    }

    @Override
    public void deleteFile(String path) {
      io.deleteFile(path);
    }
  }
}
