package io.sluice.connect.upsert;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.record;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.commit.UpsertCommitter;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.UpdatePartitionSpec;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The real sink task without a key index ({@code key-index.max-bytes=0}: every batch by equality
 * deletes) on a real table whose partition spec an operator evolves after rows were committed: the
 * live files then span two specs, and Iceberg applies a partitioned equality delete only to files
 * of its own spec and partition. Updates and deletes of keys whose rows are in files of the old
 * spec must still leave every key once, as Iceberg's generic reader sees the table.
 */
class SpecEvolutionIT {
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TopicPartition P0 = new TopicPartition("broker.cdc_lab.orders.clean", 0);
  private static final int KEYS = 200;

  @TempDir Path dir;
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

  /**
   * The reported trigger: an unpartitioned table gains a bucket of its key (one equality delete of
   * the unpartitioned spec reaches every file), or a table bucketed by key is re-bucketed (each
   * spec's equality deletes placed by the key's partition in that spec).
   */
  @ParameterizedTest(name = "format v{0}, created with [{1}], then {2}")
  @CsvSource({
    "2, '', add bucket(id 4)",
    "3, '', add bucket(id 4)",
    "2, 'bucket(id, 2)', re-bucket(id 4)",
    "3, 'bucket(id, 2)', re-bucket(id 4)",
  })
  void updatesAndDeletesOfOldKeysAfterAKeyPartitionIsAddedLeaveEveryKeyOnce(
      int format, String partitionBy, String evolution) {
    SinkHarness task = start(format, partitionBy);
    insertKeys(task);
    evolve(
        evolution.startsWith("add")
            ? spec -> spec.addField(Expressions.bucket("id", 4))
            : spec -> spec.removeField("id_bucket").addField(Expressions.bucket("id", 4)));

    Random random = new Random(format);
    for (int round = 0; round < 3; round++) {
      task.put(changes(random, 60, false));
      task.commit();
      assertTableEqualsModel("round " + round);
      assertThat(lake.table(TABLE).currentSnapshot().summary())
          .containsEntry(UpsertCommitter.COMMIT_MODE, UpsertCommitter.MODE_EQUALITY_DELETES);
    }
    assertThat(liveSpecs()).as("specs of the live data files").hasSize(2);
    // Unpartitioned spec 0: its equality deletes alone reach every file of both specs.
    assertThat(deleteFileKinds())
        .containsExactlyInAnyOrderElementsOf(
            evolution.startsWith("add")
                ? Set.of("EQUALITY_DELETES in spec 0")
                : Set.of("EQUALITY_DELETES in spec 0", "EQUALITY_DELETES in spec 1"));
  }

  /**
   * An operator partitions by a column that is not the key: an update that changes it moves the
   * key's row to another partition, so not even the current spec's equality deletes can be placed
   * from the key. Created unpartitioned (an equality delete of that spec reaches every file), or
   * bucketed by key (no unpartitioned spec: the rows of the batch's keys in files of the mixed spec
   * are found and deleted by position, v2 position deletes or v3 DVs merged with those the files
   * have).
   */
  @ParameterizedTest(name = "format v{0}, created with [{1}]")
  @CsvSource({"2, ''", "3, ''", "2, 'bucket(id, 2)'", "3, 'bucket(id, 2)'"})
  void updatesThatMoveRowsBetweenPartitionsOfANonKeyColumnLeaveEveryKeyOnce(
      int format, String partitionBy) {
    SinkHarness task = start(format, partitionBy);
    insertKeys(task);
    evolve(spec -> spec.addField(Expressions.truncate("customer", 1)));

    Random random = new Random(10 + format);
    // Several rounds: later ones update rows that earlier ones wrote in the new spec, in files
    // that already have deletes.
    for (int round = 0; round < 4; round++) {
      task.put(changes(random, 60, false));
      task.commit();
      assertTableEqualsModel("round " + round);
      assertThat(lake.table(TABLE).currentSnapshot().summary())
          .containsEntry(UpsertCommitter.COMMIT_MODE, UpsertCommitter.MODE_EQUALITY_DELETES);
    }
    assertThat(liveSpecs()).as("specs of the live data files").hasSize(2);
    assertThat(deleteFileKinds())
        .containsExactlyInAnyOrderElementsOf(
            partitionBy.isEmpty()
                ? Set.of("EQUALITY_DELETES in spec 0")
                : Set.of("EQUALITY_DELETES in spec 0", "POSITION_DELETES in spec 1"));

    // A new task (an empty batch state) goes on from the table as it is.
    task.stop();
    SinkHarness restarted = start(format, partitionBy);
    restarted.put(changes(random, 60, false));
    restarted.commit();
    assertTableEqualsModel("after a restart");
  }

  private SinkHarness start(int format, String partitionBy) {
    Map<String, String> props = new HashMap<>(lake.connectorProperties());
    props.put("name", "orders-upsert");
    props.put("topics", P0.topic());
    props.put("commit.interval.ms", "1000");
    props.put("table.format.version", String.valueOf(format));
    props.put("maintenance.enabled", "false");
    props.put("maintenance.merge.max-bytes", "0");
    props.put("key-index.max-bytes", "0");
    props.put("metrics.port", "-1");
    if (!partitionBy.isEmpty()) {
      props.put("table.partition.by", partitionBy);
    }
    SinkHarness task = new SinkHarness(props, List.of(P0), QuarantineClients.KAFKA);
    tasks.add(task);
    return task;
  }

  /** {@link #KEYS} keys committed in the table's first spec. */
  private void insertKeys(SinkHarness task) {
    task.put(changes(new Random(0), KEYS, true));
    task.commit();
    assertTableEqualsModel("after the inserts");
  }

  private void evolve(Consumer<UpdatePartitionSpec> change) {
    UpdatePartitionSpec update = lake.table(TABLE).updateSpec();
    change.accept(update);
    update.commit();
  }

  /**
   * {@code count} changes: inserts of new keys, or updates (90%, of the customer's first letter
   * too) and deletes of random keys, old and new.
   */
  private List<SinkRecord> changes(Random random, int count, boolean inserts) {
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int id = inserts ? model.size() + 1 : 1 + random.nextInt(KEYS + 20);
      String customer = (char) ('a' + random.nextInt(4)) + "-" + offset;
      if (!inserts && random.nextInt(10) == 0) {
        records.add(record(0, offset++, key(id), change("d", row(id, "x"), null)));
        model.remove(id);
      } else {
        records.add(record(0, offset++, key(id), change("u", null, row(id, customer))));
        model.put(id, customer);
      }
    }
    return records;
  }

  private void assertTableEqualsModel(String when) {
    Map<Integer, String> table = new TreeMap<>();
    for (Record r : lake.rows(TABLE, "id")) {
      String previous = table.put((Integer) r.getField("id"), (String) r.getField("customer"));
      assertThat(previous).as("%s: key %s twice", when, r.getField("id")).isNull();
    }
    assertThat(table).as(when).isEqualTo(model);
  }

  /** The content and spec of each delete file of the table, as "EQUALITY_DELETES in spec 0". */
  private Set<String> deleteFileKinds() {
    Table table = lake.table(TABLE);
    Set<String> kinds = new HashSet<>();
    for (ManifestFile manifest : table.currentSnapshot().deleteManifests(table.io())) {
      try (CloseableIterable<DeleteFile> files =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        files.forEach(f -> kinds.add(f.content() + " in spec " + f.specId()));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return kinds;
  }

  private Set<Integer> liveSpecs() {
    Table table = lake.table(TABLE);
    Set<Integer> specs = new HashSet<>();
    try (CloseableIterable<FileScanTask> files = table.newScan().planFiles()) {
      for (FileScanTask task : files) {
        DataFile file = task.file();
        specs.add(file.specId());
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return specs;
  }
}
