package io.sluice.connect.upsert;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.record;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.commit.UpsertCommitter;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import io.sluice.connect.upsert.write.DataFileRows;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.TypeUtil;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The real sink task writing updates and deletes of keys its table holds by position (v3 DVs, v2
 * position deletes) from its key index, on a real JdbcCatalog table: the table equals the model
 * after every commit, holds no equality delete, and stays right across a restart (the index rebuilt
 * from files that carry DVs) and an external compaction (the index catches up).
 */
class PositionDeletesIT {
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TopicPartition P0 = new TopicPartition("broker.cdc_lab.orders.clean", 0);

  @org.junit.jupiter.api.io.TempDir Path dir;
  private Lake lake;
  private final List<SinkHarness> tasks = new ArrayList<>();
  private final Map<Integer, String> model = new TreeMap<>();
  private long offset;

  @BeforeEach
  void open() {
    lake = new Lake(dir);
  }

  @AfterEach
  void close() throws IOException {
    tasks.forEach(SinkHarness::stop);
    lake.close();
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void updatesAndDeletesAreWrittenByPositionAndTheTableEqualsTheModel(int format) {
    SinkHarness task = start(format);
    Random random = new Random(format);
    task.put(changes(random, 300, true));
    task.commit();
    for (int round = 0; round < 6; round++) {
      task.put(changes(random, 80, false));
      task.commit();
      assertTableEqualsModel("round " + round);
      assertThat(current().summary())
          .containsEntry(UpsertCommitter.COMMIT_MODE, UpsertCommitter.MODE_POSITION_DELETES);
    }
    assertNoEqualityDeletes();
    assertOneDeleteFilePerDataFile(format);

    // A new task builds its index from files with DVs / position deletes at rest.
    task.stop();
    SinkHarness restarted = start(format);
    restarted.put(changes(random, 80, false));
    restarted.commit();
    assertTableEqualsModel("after a restart");

    // Another engine compacts; the next commit catches up (the compacted files are new).
    new ExternalCompaction(lake.catalog(), TABLE).compactOnce();
    restarted.put(changes(random, 80, false));
    restarted.commit();
    assertTableEqualsModel("after an external compaction");
    assertNoEqualityDeletes();
  }

  @ParameterizedTest(name = "format v{0}")
  @ValueSource(ints = {2, 3})
  void aCommitCopiesTheDataFilesItWouldLeaveLargelyDeleted(int format) {
    // Maintenance on (the copy fraction is its deleted fraction), but no merge at commit, and no
    // merging of small files: the copies are the commits'.
    SinkHarness task =
        start(
            format,
            Map.of(
                "maintenance.enabled", "true",
                "maintenance.merge.max-bytes", "0",
                "maintenance.rewrite.small-files", String.valueOf(Integer.MAX_VALUE),
                "maintenance.rewrite.deleted-fraction", "0.3"));
    Random random = new Random(10 + format);
    task.put(changes(random, 300, true));
    task.commit();
    Map<Integer, List<Object>> lineage = lineage(format);
    int copies = 0;
    for (int round = 0; round < 8; round++) {
      Map<Integer, String> before = new TreeMap<>(model);
      task.put(changes(random, 40, false));
      task.commit();
      assertTableEqualsModel("round " + round);
      Snapshot snapshot = current();
      assertThat(snapshot.summary())
          .containsEntry(UpsertCommitter.COMMIT_MODE, UpsertCommitter.MODE_POSITION_DELETES);
      if (Integer.parseInt(snapshot.summary().getOrDefault("deleted-data-files", "0")) > 0) {
        copies++;
      }
      assertNoDataFileDeletedPast(0.3, "round " + round);
      // A copied row is not a changed one: it keeps its row id and sequence number (v3).
      Map<Integer, List<Object>> now = lineage(format);
      for (Map.Entry<Integer, List<Object>> entry : now.entrySet()) {
        if (model.get(entry.getKey()).equals(before.get(entry.getKey()))) {
          assertThat(entry.getValue())
              .as("round %d: lineage of unchanged key %d", round, entry.getKey())
              .isEqualTo(lineage.get(entry.getKey()));
        }
      }
      lineage = now;
    }
    assertThat(copies).as("commits that copied a data file").isGreaterThanOrEqualTo(2);
    assertNoEqualityDeletes();

    // A new task's index is built from the copies.
    task.stop();
    SinkHarness restarted = start(format, Map.of("maintenance.merge.max-bytes", "0"));
    restarted.put(changes(random, 80, false));
    restarted.commit();
    assertTableEqualsModel("after a restart");
  }

  @ParameterizedTest(name = "upgraded to v3: {0}, rows the sink deletes: {1}")
  @CsvSource({"false, 1", "false, 2", "true, 1", "true, 2"})
  void olderPositionDeletesOfSeveralFilesStayAppliedWhenTheSinkDeletesByPosition(
      boolean upgrade, int deletes) {
    // A copy once a quarter of a file's rows are deleted (the maintenance's deleted fraction); no
    // merge at commit, nor of small files.
    SinkHarness task =
        start(
            2,
            Map.of(
                "maintenance.enabled", "true",
                "maintenance.merge.max-bytes", "0",
                "maintenance.rewrite.small-files", String.valueOf(Integer.MAX_VALUE),
                "maintenance.rewrite.deleted-fraction", "0.25"));
    task.put(inserts(1, 10));
    task.commit();
    task.put(inserts(11, 40));
    task.commit();
    // Another engine deletes rows of both data files with one position-delete file of the
    // partition (no referenced data file), as older Spark or write.delete.granularity=partition do.
    DeleteFile partitionScoped = deleteByPositionInOneFile(3, 13, 14, 15);
    assertThat(partitionScoped.referencedDataFile()).isNull();
    assertTableEqualsModel("after the partition-scoped delete");
    if (upgrade) {
      Table table = lake.table(TABLE);
      table.updateProperties().set(TableProperties.FORMAT_VERSION, "3").commit();
    }

    List<SinkRecord> batch = new ArrayList<>();
    for (int id = 5; id < 5 + deletes; id++) {
      batch.add(record(0, offset++, key(id), change("d", row(id, "x"), null)));
      model.remove(id);
    }
    task.put(batch);
    task.commit();

    assertTableEqualsModel("after the sink's delete by position");
    Snapshot snapshot = current();
    assertThat(snapshot.summary())
        .containsEntry(UpsertCommitter.COMMIT_MODE, UpsertCommitter.MODE_POSITION_DELETES);
    // The file of keys 1 to 10 has 1 row deleted by the partition's file (not its 4 rows): 2 of
    // 10 stay under the quarter, 3 of 10 do not, and the file is copied. (The file of keys 11 to
    // 40 stays under it, and the maintenance leaves it.)
    if (deletes == 1) {
      assertThat(snapshot.summary()).doesNotContainKey("deleted-data-files");
    } else {
      assertThat(snapshot.summary()).containsEntry("deleted-data-files", "1");
    }
    assertThat(deleteFiles())
        .as("the partition's position-delete file, which still covers the other data file")
        .anySatisfy(d -> assertThat(d.location()).isEqualTo(partitionScoped.location()));
  }

  private List<SinkRecord> inserts(int from, int to) {
    List<SinkRecord> records = new ArrayList<>();
    for (int id = from; id <= to; id++) {
      records.add(record(0, offset++, key(id), change("c", null, row(id, "c" + id))));
      model.put(id, "c" + id);
    }
    return records;
  }

  /** Deletes the rows of {@code ids} with one position-delete file of the (one) partition. */
  private DeleteFile deleteByPositionInOneFile(int... ids) {
    Table table = lake.table(TABLE);
    Set<Integer> wanted = new HashSet<>();
    for (int id : ids) {
      wanted.add(id);
      model.remove(id);
    }
    TreeMap<String, List<Long>> positions = new TreeMap<>();
    Schema projection = TypeUtil.join(table.schema(), new Schema(MetadataColumns.ROW_POSITION));
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        DataFile file = task.file();
        try (CloseableIterable<Record> rows =
            DataFileRows.read(
                table,
                table.currentSnapshot(),
                file.specId(),
                file.partition(),
                Set.of(file.location()),
                projection,
                f -> {})) {
          for (Record row : rows) {
            if (wanted.contains((Integer) row.getField("id"))) {
              positions
                  .computeIfAbsent(file.location(), k -> new ArrayList<>())
                  .add((Long) row.getField(MetadataColumns.ROW_POSITION.name()));
            }
          }
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    assertThat(positions).as("data files of the deleted rows").hasSize(2);
    PartitionSpec spec = table.spec();
    PositionDeleteWriter<Record> writer =
        new GenericFileWriterFactory.Builder(table)
            .deleteFileFormat(FileFormat.PARQUET)
            .build()
            .newPositionDeleteWriter(
                OutputFileFactory.builderFor(table, 96, 1)
                    .format(FileFormat.PARQUET)
                    .operationId("other-engine")
                    .build()
                    .newOutputFile(spec, null),
                spec,
                null);
    PositionDelete<Record> delete = PositionDelete.create();
    try (writer) {
      positions.forEach(
          (path, rows) -> rows.stream().sorted().forEach(p -> writer.write(delete.set(path, p))));
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    DeleteFile file = writer.toDeleteFile();
    table.newRowDelta().addDeletes(file).commit();
    return file;
  }

  private SinkHarness start(int format) {
    return start(format, Map.of());
  }

  private SinkHarness start(int format, Map<String, String> overrides) {
    Map<String, String> props = new HashMap<>(lake.connectorProperties());
    props.put("name", "orders-upsert");
    props.put("topics", P0.topic());
    props.put("commit.interval.ms", "1000");
    props.put("table.format.version", String.valueOf(format));
    props.put("maintenance.enabled", "false");
    props.put("metrics.port", "-1");
    props.putAll(overrides);
    SinkHarness task = new SinkHarness(props, List.of(P0), QuarantineClients.KAFKA);
    tasks.add(task);
    return task;
  }

  /** {@code count} changes: inserts of new keys, or updates (90%) and deletes of random keys. */
  private List<SinkRecord> changes(Random random, int count, boolean inserts) {
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int id = inserts ? model.size() + 1 : 1 + random.nextInt(300);
      if (!inserts && random.nextInt(10) == 0) {
        records.add(record(0, offset++, key(id), change("d", row(id, "x"), null)));
        model.remove(id);
      } else {
        String customer = "c" + offset;
        records.add(record(0, offset++, key(id), change("u", null, row(id, customer))));
        model.put(id, customer);
      }
    }
    return records;
  }

  private Snapshot current() {
    return lake.table(TABLE).currentSnapshot();
  }

  private void assertTableEqualsModel(String when) {
    Map<Integer, String> table = new TreeMap<>();
    for (Record r : lake.rows(TABLE, "id")) {
      String previous = table.put((Integer) r.getField("id"), (String) r.getField("customer"));
      assertThat(previous).as("%s: key %s twice", when, r.getField("id")).isNull();
    }
    assertThat(table).as(when).isEqualTo(model);
  }

  /** No live data file has {@code fraction} of its rows or more deleted by position. */
  private void assertNoDataFileDeletedPast(double fraction, String when) {
    Table table = lake.table(TABLE);
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        long deleted = task.deletes().stream().mapToLong(DeleteFile::recordCount).sum();
        assertThat((double) deleted / task.file().recordCount())
            .as("%s: deleted fraction of %s", when, task.file().location())
            .isLessThan(fraction);
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  /** Each key's row id and last-updated sequence number (format v3; empty on v2). */
  private Map<Integer, List<Object>> lineage(int format) {
    Map<Integer, List<Object>> lineage = new HashMap<>();
    if (format < 3) {
      return lineage;
    }
    Table table = lake.table(TABLE);
    try (CloseableIterable<Record> rows =
        IcebergGenerics.read(table)
            .project(MetadataColumns.schemaWithRowLineage(table.schema()))
            .build()) {
      for (Record r : rows) {
        lineage.put(
            (Integer) r.getField("id"),
            List.of(
                r.getField(MetadataColumns.ROW_ID.name()),
                r.getField(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name())));
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return lineage;
  }

  private void assertNoEqualityDeletes() {
    for (DeleteFile file : deleteFiles()) {
      assertThat(file.content()).isEqualTo(FileContent.POSITION_DELETES);
    }
  }

  /** v3: one DV per data file; v2: the sink merges a file's position deletes into one file. */
  private void assertOneDeleteFilePerDataFile(int format) {
    Map<String, Integer> dvs = new HashMap<>();
    for (DeleteFile file : deleteFiles()) {
      assertThat(file.format().name()).isEqualTo(format == 3 ? "PUFFIN" : "PARQUET");
      assertThat(file.location()).endsWith(format == 3 ? ".puffin" : ".parquet");
      assertThat(file.referencedDataFile()).isNotNull();
      dvs.merge(file.referencedDataFile(), 1, Integer::sum);
    }
    assertThat(dvs).isNotEmpty().allSatisfy((path, count) -> assertThat(count).isEqualTo(1));
  }

  private List<DeleteFile> deleteFiles() {
    Table table = lake.table(TABLE);
    List<DeleteFile> deletes = new ArrayList<>();
    try (CloseableIterable<FileScanTask> tasks = table.newScan().planFiles()) {
      for (FileScanTask task : tasks) {
        for (DeleteFile file : task.deletes()) {
          if (deletes.stream()
              .noneMatch(
                  d ->
                      d.location().equals(file.location())
                          && java.util.Objects.equals(d.contentOffset(), file.contentOffset()))) {
            deletes.add(file);
          }
        }
      }
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
    return deletes;
  }
}
