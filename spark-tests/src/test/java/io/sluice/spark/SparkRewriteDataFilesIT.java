package io.sluice.spark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.IThrowableProxy;
import ch.qos.logback.core.read.ListAppender;
import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.SinkHarness;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.ManifestReader;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real Spark compacting the upsert sink's table with {@code rewrite_data_files} while the real
 * sink task writes it, both on one JdbcCatalog on SQLite, the sink configured as docs/design.md
 * "Compaction by Spark" says (its own merges and rewrites off, expiry on). Spark calls the
 * procedure back to back on its own thread; the sink commits a block of batches of updates and
 * deletes during each call. Afterwards the table, read with Iceberg's generic reader and with
 * Spark, equals the model key for key, and its offsets cover every record.
 */
class SparkRewriteDataFilesIT {
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final String CONNECTOR = "orders-upsert";
  private static final int BUCKETS = 2;
  private static final int KEYS = 2000;
  private static final int CHANGES_PER_COMMIT = 100;
  private static final int COMMITS_PER_CALL = 6;
  private static final int RACED_CALLS = 3;
  private static final long SEED = 20261202L;
  private static final Duration CALL_TIMEOUT = Duration.ofMinutes(2);

  private static final Logger log = LoggerFactory.getLogger(SparkRewriteDataFilesIT.class);

  @TempDir static Path scratch;
  private static LocalSpark spark;

  @TempDir Path dir;
  private Lake lake;
  private final List<SinkHarness> sinks = new ArrayList<>();
  private SparkSession session;
  private RewriteLoop rewrites;
  private final OrdersSource source = new OrdersSource(KEYS, SEED);
  // Iceberg's one line per rewrite group whose commit it gave up (logback-test.xml routes it
  // here only).
  private final ListAppender<ILoggingEvent> refusedGroups = new ListAppender<>();

  @BeforeAll
  static void startSpark() {
    spark = new LocalSpark(scratch);
  }

  @AfterAll
  static void stopSpark() {
    spark.close();
  }

  @BeforeEach
  void watchGroupCommits() {
    refusedGroups.start();
    groupCommitLogger().addAppender(refusedGroups);
  }

  @AfterEach
  void close() throws Exception {
    if (rewrites != null) {
      rewrites.close();
    }
    sinks.forEach(SinkHarness::stop);
    groupCommitLogger().detachAppender(refusedGroups);
    lake.close();
  }

  private static ch.qos.logback.classic.Logger groupCommitLogger() {
    return (ch.qos.logback.classic.Logger)
        LoggerFactory.getLogger("org.apache.iceberg.actions.RewriteDataFilesCommitManager");
  }

  /**
   * @param byPosition the sink deletes by position from its key index (the default); else it writes
   *     equality deletes ({@code key-index.max-bytes=0}), which a rewrite with the starting
   *     sequence number never conflicts with
   */
  @ParameterizedTest(name = "format v{0}, deletes by position: {1}")
  @CsvSource({"2, true", "3, true", "2, false"})
  void rewriteDataFilesRacingTheSinkLosesAndDuplicatesNoKey(int formatVersion, boolean byPosition)
      throws Exception {
    lake = new Lake(dir);
    Map<String, String> props = sinkProperties(formatVersion);
    if (!byPosition) {
      props.put("key-index.max-bytes", "0");
    }
    SinkHarness sink = start(props);
    // Every key once, so the table exists before Spark's first call.
    sink.put(source.inserts());
    sink.commit();

    session = spark.sessionFor(props);
    rewrites = new RewriteLoop(session, LocalSpark.catalogName(props), TABLE.toString());
    rewrites.start();
    for (int call = 1; call <= RACED_CALLS; call++) {
      int started = call;
      await("rewrite_data_files call " + started + " started")
          .atMost(CALL_TIMEOUT)
          .until(() -> rewrites.started() >= started || rewrites.ended());
      for (int i = 0; i < COMMITS_PER_CALL; i++) {
        sink.put(source.changes(CHANGES_PER_COMMIT));
        sink.commit();
      }
      assertTableEqualsModel("after the commits racing call " + started);
    }
    List<RewriteLoop.Call> calls = rewrites.stop(CALL_TIMEOUT);
    assertTableEqualsModel("after the last racing call");

    RewriteHistory history = new RewriteHistory(lake.table(TABLE), CONNECTOR);
    long raced = history.sparkRewritesRacedBySink();
    log.info(
        "format v{}: {} sink commits raced {} rewrite_data_files calls: {} group rewrites"
            + " committed, {} of them with a sink commit between their start and their commit; {}"
            + " group commits given up {}; {} calls failed at the removal of dangling deletes",
        formatVersion,
        history.sinkCommits(),
        calls.size(),
        history.sparkRewrites().size(),
        raced,
        refusedGroups.list.size(),
        refusedGroups.list.stream().map(SparkRewriteDataFilesIT::reason).toList(),
        calls.stream().filter(RewriteLoop.Call::removalRefused).count());
    if (!byPosition) {
      // A DV or position delete on a file a group rewrites makes Iceberg refuse the group (it
      // would drop the delete), and these commits touch every file: with deletes by position a
      // raced group commits only when the sink's batches leave its files alone.
      assertThat(raced)
          .as("Spark rewrites committed after a sink commit landed since their start")
          .isPositive();
    }

    // Once the sink is quiet, one call of the whole table (no `where`: a filtered call leaves
    // the files outside it and their deletes, which made this flaky when the racing calls ended
    // on an odd number) applies and removes every delete file, and on v3 keeps every row's
    // lineage (no row changed meanwhile).
    Map<Integer, List<Object>> lineage = lineage(formatVersion);
    RewriteLoop.Call quiet = rewrites.callWholeTable(calls.size() + 1);
    assertThat(quiet.removalRefused()).as("removal refused with nobody committing").isFalse();
    assertThat(lineage(formatVersion)).as("row lineage after a quiet rewrite").isEqualTo(lineage);
    Table compacted = lake.table(TABLE);
    assertThat(compacted.currentSnapshot().summary())
        .as("after a quiet compaction; delete files left: %s", liveDeleteFiles(compacted))
        .containsEntry("total-delete-files", "0")
        .containsEntry("total-data-files", String.valueOf(BUCKETS));
    assertTableEqualsModel("after a quiet compaction");
    assertThat(sparkRows()).as("the table as Spark reads it").isEqualTo(source.rows());

    // The sink goes on on top of Spark's files: its key index catches up over the rewrite.
    for (int i = 0; i < 2; i++) {
      sink.put(source.changes(CHANGES_PER_COMMIT));
      sink.commit();
      assertTableEqualsModel("after a sink commit on top of Spark's compaction");
    }
    assertThat(lake.table(TABLE).currentSnapshot().summary())
        .containsEntry("sluice.commit.mode", byPosition ? "position-deletes" : "equality-deletes");

    Map<TopicPartition, Long> next = source.next();
    assertThat(lake.offsets(TABLE, CONNECTOR)).as("offsets in the table").isEqualTo(next);
    assertThat(sink.preCommit()).as("offsets the sink hands Connect").isEqualTo(next);
    sink.stop();
    assertThat(start(props).context.seeks).as("a restarted task resumes at").isEqualTo(next);
  }

  private Map<String, String> sinkProperties(int formatVersion) {
    Map<String, String> props = new HashMap<>(lake.connectorProperties());
    props.put("name", CONNECTOR);
    props.put("topics", OrdersSource.TOPIC);
    props.put("commit.interval.ms", "1000");
    props.put("table.format.version", String.valueOf(formatVersion));
    props.put("table.partition.by", "bucket(id, " + BUCKETS + ")");
    // Spark compacts: no merge at commit and no own rewrite (either would replace the files a
    // Spark rewrite group is rewriting, and one of the two would abandon); expiry, manifest
    // rewrites and idle commits stay on.
    props.put("maintenance.merge.max-bytes", "0");
    props.put("maintenance.rewrite.delete-files", String.valueOf(Integer.MAX_VALUE));
    props.put("maintenance.rewrite.small-files", String.valueOf(Integer.MAX_VALUE));
    props.put("maintenance.rewrite.deleted-fraction", "2");
    return props;
  }

  private SinkHarness start(Map<String, String> props) {
    SinkHarness sink =
        new SinkHarness(props, List.of(OrdersSource.P0, OrdersSource.P1), QuarantineClients.KAFKA);
    sinks.add(sink);
    return sink;
  }

  private void assertTableEqualsModel(String when) {
    List<Record> rows = lake.rows(TABLE, "id");
    Map<Integer, String> table = new TreeMap<>();
    rows.forEach(r -> table.put((Integer) r.getField("id"), (String) r.getField("customer")));
    assertThat(rows).as("rows %s (duplicate keys)", when).hasSize(table.size());
    assertThat(table).as("table %s", when).isEqualTo(source.rows());
  }

  /** {@code _row_id} and {@code _last_updated_sequence_number} by key (v3), else nothing. */
  private Map<Integer, List<Object>> lineage(int formatVersion) {
    Map<Integer, List<Object>> byId = new TreeMap<>();
    if (formatVersion < 3) {
      return byId;
    }
    Table table = lake.table(TABLE);
    try (CloseableIterable<Record> rows =
        IcebergGenerics.read(table)
            .project(MetadataColumns.schemaWithRowLineage(table.schema()))
            .build()) {
      rows.forEach(
          r ->
              byId.put(
                  (Integer) r.getField("id"),
                  Arrays.asList(
                      r.getField(MetadataColumns.ROW_ID.name()),
                      r.getField(MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name()))));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return byId;
  }

  /** Why Iceberg gave up a group commit: its exception's class and message. */
  private static String reason(ILoggingEvent event) {
    IThrowableProxy thrown = event.getThrowableProxy();
    if (thrown == null) {
      return event.getFormattedMessage();
    }
    String message = thrown.getMessage() == null ? "" : thrown.getMessage();
    return thrown.getClassName().substring(thrown.getClassName().lastIndexOf('.') + 1)
        + ": "
        + message.substring(0, Math.min(message.length(), 60));
  }

  private Map<Integer, String> sparkRows() {
    String catalog = LocalSpark.catalogName(sinks.get(0).context.configs());
    List<Row> rows =
        session.sql("SELECT id, customer FROM " + catalog + "." + TABLE).collectAsList();
    Map<Integer, String> byId = new TreeMap<>();
    rows.forEach(r -> byId.put(r.getInt(0), r.getString(1)));
    assertThat(rows).as("rows Spark reads (duplicate keys)").hasSize(byId.size());
    return byId;
  }

  /** Every delete file of the current snapshot (content, sequence number, rows, path). */
  private static List<String> liveDeleteFiles(Table table) throws IOException {
    List<String> deletes = new ArrayList<>();
    for (ManifestFile manifest : table.currentSnapshot().deleteManifests(table.io())) {
      try (ManifestReader<DeleteFile> reader =
          ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
        reader.forEach(
            f ->
                deletes.add(
                    f.content()
                        + " seq "
                        + f.dataSequenceNumber()
                        + " rows "
                        + f.recordCount()
                        + " "
                        + f.location()));
      }
    }
    return deletes;
  }
}
