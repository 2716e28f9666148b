package io.sluice.spark;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.SinkHarness;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.util.SnapshotUtil;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Spark running merge-on-read {@code UPDATE} and {@code DELETE} (a data fix, a GDPR scrub)
 * on keys the real sink task is updating at that moment: Spark's statement runs inside the sink's
 * commit, after the sink wrote its batch at its base snapshot and before its catalog swap ({@link
 * InFlightCatalog}), so Spark's position deletes and new rows land exactly between the sink's base
 * and its commit. The sink's events are newer than Spark's change, so the sink must have the last
 * word: after each round every key is in the table once and the table equals the source. Also an
 * operator adding a partition field in the middle of a sink commit, with the sink writing by
 * position or by equality deletes afterwards.
 */
class SparkMergeOnReadIT {
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final String CONNECTOR = "orders-upsert";
  private static final int KEYS = 2000;
  private static final int CHANGES_PER_COMMIT = 100;
  private static final int HOT_KEYS = 20;
  private static final int ROUNDS = 6;
  private static final long SEED = 20261207L;

  private static final Logger log = LoggerFactory.getLogger(SparkMergeOnReadIT.class);

  @TempDir static Path scratch;
  private static LocalSpark spark;

  @TempDir Path dir;
  private Lake lake;
  private SinkHarness sink;
  private SparkSession session;
  private final OrdersSource source = new OrdersSource(KEYS, SEED);
  private final Random random = new Random(SEED);
  private final List<Long> sparkSnapshots = new ArrayList<>();

  @BeforeAll
  static void startSpark() {
    spark = new LocalSpark(scratch);
  }

  @AfterAll
  static void stopSpark() {
    spark.close();
  }

  @AfterEach
  void close() throws Exception {
    InFlightCatalog.disarm();
    if (sink != null) {
      sink.stop();
    }
    lake.close();
  }

  /**
   * @param byPosition the sink deletes by position from its key index (the default); else it writes
   *     equality deletes ({@code key-index.max-bytes=0})
   */
  @ParameterizedTest(name = "format v{0}, deletes by position: {1}")
  @CsvSource({"2, true", "3, true", "2, false"})
  void mergeOnReadDmlInsideSinkCommitsLeavesEveryKeyOnce(int formatVersion, boolean byPosition) {
    start(formatVersion, byPosition, true);
    String table = sparkName();
    for (int round = 1; round <= ROUNDS; round++) {
      String statement =
          round % 2 == 1
              ? "UPDATE %s SET customer = concat('spark-', customer) WHERE id IN (%s)"
              : "DELETE FROM %s WHERE id IN (%s)";
      raceRound(round, keys -> session.sql(String.format(statement, table, keys)));
    }
    assertThat(sparkSnapshots).as("Spark's commits inside the sink's").hasSize(ROUNDS);
    List<Long> ancestry = new ArrayList<>();
    SnapshotUtil.currentAncestorIds(lake.table(TABLE)).forEach(ancestry::add);
    assertThat(ancestry).as("the table's history").containsAll(sparkSnapshots);
    assertEverythingEqualsTheSource();
  }

  /**
   * An operator adds {@code bucket(4, id)} to the sink's unpartitioned table while a sink commit is
   * in flight; Spark's merge-on-read updates go on racing the sink on a table whose files now span
   * two specs, and the sink updates and deletes keys whose rows are in files of the old spec.
   */
  @ParameterizedTest(name = "deletes by position: {0}")
  @ValueSource(booleans = {true, false})
  void aPartitionFieldAddedMidRunLeavesEveryKeyOnce(boolean byPosition) {
    start(2, byPosition, false);
    String table = sparkName();
    raceRound(
        1, keys -> session.sql("ALTER TABLE " + table + " ADD PARTITION FIELD bucket(4, id)"));
    assertThat(lake.table(TABLE).spec().fields()).as("the table's spec after round 1").hasSize(1);
    for (int round = 2; round <= ROUNDS; round++) {
      raceRound(
          round,
          keys ->
              session.sql(
                  String.format(
                      "UPDATE %s SET customer = concat('spark-', customer) WHERE id IN (%s)",
                      table, keys)));
    }
    // Every key of the old spec's files once more, by the sink alone.
    for (int i = 0; i < 3; i++) {
      sink.put(source.changes(KEYS / 2));
      sink.commit();
      assertTableEqualsModel("after a sink commit on the evolved table");
    }
    assertEverythingEqualsTheSource();
  }

  private void start(int formatVersion, boolean byPosition, boolean partitioned) {
    lake = new Lake(dir);
    Map<String, String> props = new HashMap<>(lake.connectorProperties());
    // The sink's catalog holds its commits for Spark when armed; Spark's sessions use it too.
    props.remove("iceberg.catalog.type");
    props.put("iceberg.catalog.catalog-impl", InFlightCatalog.class.getName());
    props.put("name", CONNECTOR);
    props.put("topics", OrdersSource.TOPIC);
    props.put("commit.interval.ms", "1000");
    props.put("table.format.version", String.valueOf(formatVersion));
    if (partitioned) {
      props.put("table.partition.by", "bucket(id, 2)");
    }
    // Data files too large to copy and no merge at commit: the sink's batches are written by
    // position (or by equality deletes) and nothing else puts conflict detection on them.
    props.put("maintenance.merge.max-bytes", "0");
    props.put("maintenance.rewrite.deleted-fraction", "2");
    // Every snapshot kept, so that Spark's can be counted afterwards.
    props.put("maintenance.snapshots.keep-last", "1000");
    if (!byPosition) {
      props.put("key-index.max-bytes", "0");
    }
    sink =
        new SinkHarness(props, List.of(OrdersSource.P0, OrdersSource.P1), QuarantineClients.KAFKA);
    sink.put(source.inserts());
    sink.commit();
    session = spark.sessionFor(props);
    session.sql(
        "ALTER TABLE "
            + sparkName()
            + " SET TBLPROPERTIES ('write.update.mode'='merge-on-read',"
            + " 'write.delete.mode'='merge-on-read', 'write.merge.mode'='merge-on-read')");
  }

  /**
   * One batch of changes; inside its commit, {@code other} runs on keys of the batch that have a
   * row in the table (a comma-separated list), then the sink's commit retries over it.
   */
  private void raceRound(int round, Consumer<String> other) {
    Set<Integer> before = new LinkedHashSet<>(source.rows().keySet());
    List<SinkRecord> batch = source.changes(CHANGES_PER_COMMIT);
    List<Integer> hot =
        batch.stream()
            .map(r -> (Integer) ((Struct) r.key()).get("id"))
            .filter(before::contains)
            .distinct()
            .collect(Collectors.toCollection(ArrayList::new));
    Collections.shuffle(hot, random);
    String keys =
        hot.subList(0, Math.min(HOT_KEYS, hot.size())).stream()
            .map(String::valueOf)
            .collect(Collectors.joining(", "));
    List<Object> ran = new ArrayList<>();
    InFlightCatalog.beforeNextCommit(
        TABLE,
        () -> {
          try {
            other.accept(keys);
            ran.add(lake.table(TABLE).currentSnapshot());
          } catch (Exception e) {
            // Spark's analysis and job failures are checked exceptions thrown unchecked.
            ran.add(e);
            throw e;
          }
        });
    sink.put(batch);
    sink.commit();
    assertThat(ran).as("what Spark did inside the sink's commit of round %d", round).hasSize(1);
    assertThat(ran.get(0)).as("Spark's statement in round %d", round).isInstanceOf(Snapshot.class);
    Snapshot spark = (Snapshot) ran.get(0);
    if (spark.summary().keySet().stream().noneMatch(k -> k.startsWith("sluice."))) {
      sparkSnapshots.add(spark.snapshotId());
    }
    assertTableEqualsModel("after round " + round);
    log.info("round {}: Spark changed keys [{}] inside the sink's commit", round, keys);
  }

  private void assertEverythingEqualsTheSource() {
    assertThat(sparkRows()).as("the table as Spark reads it").isEqualTo(source.rows());
    assertThat(lake.offsets(TABLE, CONNECTOR)).as("offsets in the table").isEqualTo(source.next());
    assertThat(sink.preCommit()).as("offsets the sink hands Connect").isEqualTo(source.next());
  }

  private void assertTableEqualsModel(String when) {
    List<Record> rows = lake.rows(TABLE, "id");
    Map<Integer, String> table = new TreeMap<>();
    rows.forEach(r -> table.put((Integer) r.getField("id"), (String) r.getField("customer")));
    assertThat(rows).as("rows %s (duplicate keys)", when).hasSize(table.size());
    assertThat(table).as("table %s", when).isEqualTo(source.rows());
  }

  private String sparkName() {
    return LocalSpark.catalogName(sink.context.configs()) + "." + TABLE;
  }

  private Map<Integer, String> sparkRows() {
    List<Row> rows = session.sql("SELECT id, customer FROM " + sparkName()).collectAsList();
    Map<Integer, String> byId = new TreeMap<>();
    rows.forEach(r -> byId.put(r.getInt(0), r.getString(1)));
    assertThat(rows).as("rows Spark reads (duplicate keys)").hasSize(byId.size());
    return byId;
  }
}
