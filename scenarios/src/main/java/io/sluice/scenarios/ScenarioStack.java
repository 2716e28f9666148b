package io.sluice.scenarios;

import io.sluice.embedded.TopicReader;
import io.sluice.lake.Catalogs;
import io.sluice.lake.IcebergRows;
import io.sluice.lake.LakeCatalog;
import io.sluice.lake.offsets.IcebergOffsets;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.stack.StackLayout;
import io.sluice.stack.db.LabTables;
import io.sluice.stack.db.OrdersTable;
import io.sluice.stack.db.OrdersWorkload;
import io.sluice.stack.db.TableWorkload;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.TableOutcome;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.iceberg.Snapshot;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.MemberDescription;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The stack a scenario runs against, as every scenario sees it: the pipeline's names, clients of
 * the broker, the registry and the source, and probes of capture, the router and the lake. What any
 * scenario does on the way (seed a baseline, wait for the lake, take the linkage) is here; what
 * only one scenario does is in its steps. Closing it closes the clients.
 */
public final class ScenarioStack implements AutoCloseable {
  public static final String SOURCE_TABLE = OrdersTable.QUALIFIED_NAME;
  public static final String MAIN_TOPIC = StackLayout.DEFAULT.mainTopic();
  public static final String CLEAN_TOPIC = StackLayout.DEFAULT.cleanTopic();
  public static final String DLQ_TOPIC = StackLayout.DEFAULT.dlqTopic();
  public static final String ROUTER_GROUP = StackLayout.DEFAULT.routerApplicationId();
  public static final String CURRENT_TABLE = StackLayout.DEFAULT.currentTable();
  public static final String CHANGELOG_TABLE = StackLayout.DEFAULT.changelogTable();
  public static final List<String> ICEBERG_TABLES = List.of(CURRENT_TABLE, CHANGELOG_TABLE);

  /** The lab tables a baseline writes beside orders, and at most how many rows of each. */
  public static final List<String> OTHER_TABLES = List.of("customers", "order_items", "audit_log");

  public static final long OTHER_TABLE_ROWS = 30;

  private final ScenarioEndpoints endpoints;
  private final Admin admin;
  private final LakeCatalog catalog;
  private final CaptureAdmin capture;
  private final RouterProbe router;
  private final SchemaRegistryClient registry;
  private final LakeState lake;
  private final Linkage linkage;
  private final int reportRows;

  private ScenarioStack(
      ScenarioEndpoints endpoints, Admin admin, LakeCatalog catalog, Clock clock, int reportRows) {
    this.endpoints = endpoints;
    this.admin = admin;
    this.catalog = catalog;
    this.capture = new CaptureAdmin(endpoints.captureAdminUrl(), StackLayout.DEFAULT.captureName());
    this.router = new RouterProbe(endpoints.routerMetricsUrl());
    this.registry = HttpSchemaRegistryClient.create(endpoints.schemaRegistryUrl());
    this.reportRows = reportRows;
    this.lake =
        new LakeState(
            this::connect,
            catalog,
            "cdc_lab",
            OrdersTable.NAME,
            CURRENT_TABLE,
            CHANGELOG_TABLE,
            reportRows);
    this.linkage =
        new Linkage(
            admin,
            catalog,
            capture,
            List.of(
                new Linkage.Stage("router", ROUTER_GROUP, MAIN_TOPIC),
                new Linkage.Stage(
                    "upsert_sink", "connect-" + StackLayout.DEFAULT.upsertSink(), CLEAN_TOPIC),
                new Linkage.Stage(
                    "changelog_sink",
                    "connect-" + StackLayout.DEFAULT.changelogSink(),
                    CLEAN_TOPIC)),
            StackLayout.DEFAULT.upsertSink(),
            ICEBERG_TABLES,
            clock);
  }

  /**
   * Opens the clients of the stack at {@code endpoints}.
   *
   * @param run its clock is what the linkage's {@code captured_at} reads; its report-rows bound is
   *     how many rows each reconciliation keeps per side
   */
  public static ScenarioStack open(ScenarioEndpoints endpoints, RunContext run) {
    Admin admin =
        Admin.create(
            Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, endpoints.bootstrapServers(),
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 20_000));
    try {
      return new ScenarioStack(
          endpoints,
          admin,
          Catalogs.open(endpoints.icebergCatalog()),
          run.clock(),
          run.reportRows());
    } catch (RuntimeException e) {
      admin.close();
      throw e;
    }
  }

  /**
   * Opens the stack, runs a scenario's steps on it and closes it. Failing to open or to close it
   * fails the chain where it stands (at {@link StepChain#START} or after its last step), as a step
   * that fails would.
   */
  public static <S> StepChain<S, ? extends S> run(
      ScenarioEndpoints endpoints,
      RunContext run,
      StepChain<S, ? extends S> start,
      Function<ScenarioStack, StepChain<S, ? extends S>> steps) {
    StepChain<S, ? extends S> end = start;
    try (ScenarioStack stack = open(endpoints, run)) {
      end = steps.apply(stack);
    } catch (Exception e) {
      end = end.failedBy(e);
    }
    return end;
  }

  public ScenarioEndpoints endpoints() {
    return endpoints;
  }

  public CaptureAdmin capture() {
    return capture;
  }

  /**
   * The registry calls every router instance retried so far ({@code
   * sluice_router_registry_retries_total}, summed over the instances).
   */
  public long routerRegistryRetries() {
    return endpoints.routerMetricsUrls().stream()
        .mapToLong(url -> new RouterProbe(url).registryRetries())
        .sum();
  }

  public RouterProbe router() {
    return router;
  }

  public SchemaRegistryClient registry() {
    return registry;
  }

  /** The source table and its Iceberg tables: reconciliation and event ids. */
  public LakeState lake() {
    return lake;
  }

  /** A new JDBC connection to the source (auto-commit). */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(
        endpoints.jdbcUrl(), endpoints.jdbcUser(), endpoints.jdbcPassword());
  }

  /** The versions of the stack's libraries and of the source's server. */
  public StackVersions stackVersions() throws SQLException {
    try (Connection c = connect()) {
      return RunEnvironment.stackVersions(c);
    }
  }

  /** Where every stage of the pipeline is now. */
  public LinkageSnapshot linkage() {
    return linkage.now();
  }

  /** {@code group}'s committed offsets on {@code topic}, per partition (absent: none). */
  public Map<TopicPartition, Long> committed(String group, String topic) {
    return linkage.committed(group, topic);
  }

  /** The last stable offset of each partition of {@code topic}, by partition. */
  public Map<Integer, Long> endOffsets(String topic) {
    return linkage.endOffsets(topic);
  }

  /** The current snapshot of an Iceberg table, loaded afresh; null before its first commit. */
  public Snapshot currentSnapshot(String icebergTable) {
    return catalog.table(icebergTable).currentSnapshot();
  }

  /**
   * The value of {@code column} in every row of {@code icebergTable} (deletes applied), by key;
   * null where the row holds none, or where the table has no such column (yet).
   */
  public Map<String, Object> columnValues(String icebergTable, String keyColumn, String column) {
    Map<String, Object> values = new HashMap<>();
    org.apache.iceberg.Table table = catalog.table(icebergTable);
    boolean has = table.schema().findField(column) != null;
    IcebergRows.read(
        table,
        0,
        row ->
            values.put(String.valueOf(row.getField(keyColumn)), has ? row.getField(column) : null));
    return values;
  }

  /**
   * Every key of {@code icebergTable} (deletes applied), with how many rows hold it: 1 each unless
   * a key is duplicated.
   */
  public Map<String, Long> keyCounts(String icebergTable, String keyColumn) {
    Map<String, Long> counts = new HashMap<>();
    IcebergRows.read(
        catalog.table(icebergTable),
        0,
        row -> counts.merge(String.valueOf(row.getField(keyColumn)), 1L, Long::sum));
    return counts;
  }

  /**
   * The partitions each member of consumer group {@code group} holds, by its group instance id
   * (static membership) or else its client id; an empty group gives an empty map.
   */
  public Map<String, List<TopicPartition>> groupAssignments(String group) {
    try {
      ConsumerGroupDescription description =
          admin.describeConsumerGroups(List.of(group)).describedGroups().get(group).get();
      Map<String, List<TopicPartition>> members = new TreeMap<>();
      for (MemberDescription m : description.members()) {
        members.put(
            m.groupInstanceId().orElse(m.clientId()),
            m.assignment().topicPartitions().stream()
                .sorted(Comparator.comparing(TopicPartition::toString))
                .toList());
      }
      return members;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScenarioFailure("interrupted describing group " + group, e);
    } catch (ExecutionException e) {
      throw new ScenarioFailure("cannot describe consumer group " + group, e.getCause());
    }
  }

  /**
   * The Kafka offsets the upsert sink recorded in {@code icebergTable}'s snapshots (found by
   * walking the ancestry, as its tasks do when they start), per partition.
   */
  public Map<TopicPartition, Long> upsertSinkOffsets(String icebergTable) {
    return IcebergOffsets.all(catalog.table(icebergTable), StackLayout.DEFAULT.upsertSink());
  }

  /** The router group's committed offsets on the main topic, per partition. */
  public Map<TopicPartition, Long> routerCommitted() {
    return linkage.committed(ROUTER_GROUP, MAIN_TOPIC);
  }

  /** The sum of the router's committed offsets, which grows with every commit that moves one. */
  public long routerCommitId() {
    return routerCommitted().values().stream().mapToLong(Long::longValue).sum();
  }

  /**
   * A producer of raw bytes to the stack's broker, as a scenario injects records: acks=all,
   * idempotent, named {@code clientId}. The caller closes it.
   */
  public KafkaProducer<byte[], byte[]> producer(String clientId) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            endpoints.bootstrapServers(),
            ProducerConfig.CLIENT_ID_CONFIG,
            clientId,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
            true),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }

  /** Every committed record of {@code topic} (read_committed, up to the last stable offsets). */
  public List<ConsumerRecord<byte[], byte[]>> readCommitted(String topic) {
    return TopicReader.readCommitted(endpoints.bootstrapServers(), topic);
  }

  /**
   * Checks that a baseline can start: the source holds no rows of {@code seed} yet (a run's rows
   * and sha256 come from its seed) and capture runs.
   *
   * @throws ScenarioFailure naming what to change
   */
  public void requireFreshStart(int seed) throws SQLException {
    for (String table : seededTables()) {
      if (lake.rowsOfSeed(table, seed) > 0) {
        throw new ScenarioFailure(
            table
                + " already holds rows of seed "
                + seed
                + "; pick another --seed, or run without --ready-file for a fresh stack");
      }
    }
    String state = capture.state();
    if (!state.equals("RUNNING")) {
      throw new ScenarioFailure("capture is " + state + ", not RUNNING; start or resume it first");
    }
  }

  /** Inserts {@code rows} rows of {@code seed} into the source, as {@code sluice load} does. */
  public void seed(int seed, long rows, Consumer<String> progress) throws SQLException {
    try (Connection c = connect()) {
      new OrdersWorkload(seed).run(c, rows, 0, 0, line -> progress.accept("  load: " + line));
    }
  }

  /**
   * Writes the lab's other tables as {@code sluice load} does (each created when missing, so it
   * appears while the stack runs): {@code min(rows, OTHER_TABLE_ROWS)} rows of {@code seed}, a
   * third of them updated and a fifth deleted, so every scenario also proves that every captured
   * table reaches the lake (composite key and keyless table included).
   */
  public void seedOtherTables(int seed, long rows, Consumer<String> progress) throws SQLException {
    long n = Math.min(rows, OTHER_TABLE_ROWS);
    try (Connection c = connect()) {
      for (String name : OTHER_TABLES) {
        TableWorkload workload = LabTables.workload(name, seed);
        try (Statement s = c.createStatement()) {
          s.execute(workload.createSql());
        }
        workload.run(c, n, n / 3, n / 5, line -> progress.accept("  load: " + line));
      }
    }
  }

  /** Every table {@code sluice load} writes, qualified. */
  private static List<String> seededTables() {
    return LabTables.ALL.stream().map(name -> LabTables.workload(name, 0).table()).toList();
  }

  /**
   * Every table of the source database against its current table ({@code sluice reconcile --all});
   * {@code progress} gets one line per table.
   */
  public List<TableOutcome> reconcileEveryTable() {
    try {
      return lake.reconcileAll();
    } catch (SQLException e) {
      throw new ScenarioFailure("cannot reconcile the source tables: " + e.getMessage(), e);
    }
  }

  /** One reading of the lake at the end of a run: the orders table, its event ids, every table. */
  public record LakeReading(
      ReconcileResult reconcile, EventIdAudit audit, List<TableOutcome> tables) {
    /** Every table equal, the current table converged and the audit consistent. */
    public boolean settled() {
      return everyTableEqual(tables) && reconcile.converged() && audit.consistent();
    }
  }

  /**
   * The final wait every scenario shares: reads the lake until it {@link LakeReading#settled} and
   * {@code also} holds (the scenario's own events in the changelog), or {@code timeout} passes;
   * returns the last reading either way, for the report's checks.
   *
   * @throws ScenarioFailure when no reading could be taken at all
   */
  public LakeReading finalReading(Duration timeout, Predicate<EventIdAudit> also) {
    LakeReading last =
        BoundedWait.latest(
            timeout,
            () -> new LakeReading(lake.reconcile(), lake.audit(), reconcileEveryTable()),
            r -> r.settled() && also.test(r.audit()));
    if (last == null) {
      throw new ScenarioFailure("the final reconciliation could not read the source or Iceberg");
    }
    return last;
  }

  /** True when every outcome is equal or skipped (a keyless table, changelog-only). */
  public static boolean everyTableEqual(List<TableOutcome> outcomes) {
    return !outcomes.isEmpty() && outcomes.stream().allMatch(o -> o.status().ok());
  }

  /** One line per table: {@code cdc_lab.orders equal, cdc_lab.audit_log skipped, ...}. */
  public static String describe(List<TableOutcome> outcomes) {
    return outcomes.stream()
        .map(o -> o.table() + " " + o.status().name().toLowerCase(Locale.ROOT))
        .collect(Collectors.joining(", "));
  }

  /** What every scenario starts from: the DLQ records there before it, and the baseline linkage. */
  public record Baselined(Set<String> dlqBefore, LinkageSnapshot linkage) {}

  /**
   * The baseline step every scenario shares: checks the start is fresh, notes the DLQ records
   * already there, seeds {@code rows} rows of {@code seed} (and the other lab tables), waits until
   * the current table equals the source, every other keyed table its current table, and the
   * changelog holds every event of the source, and takes the linkage.
   *
   * @throws ScenarioFailure when the start is not fresh or the lake does not catch up in time
   */
  public Baselined baseline(int seed, long rows, Duration timeout, Consumer<String> progress)
      throws SQLException {
    requireFreshStart(seed);
    Set<String> dlqBefore = dlqRecordIds();
    seed(seed, rows, progress);
    seedOtherTables(seed, rows, progress);
    awaitConverged("the current table equals the source after the baseline", timeout);
    List<TableOutcome> tables =
        BoundedWait.latest(timeout, this::reconcileEveryTable, ScenarioStack::everyTableEqual);
    if (tables == null || !everyTableEqual(tables)) {
      throw new ScenarioFailure(
          "not every source table reached the lake within "
              + timeout.toSeconds()
              + " s: "
              + (tables == null ? "no reconciliation" : describe(tables)),
          tables == null ? List.of() : drifting(tables));
    }
    progress.accept("  every table: " + describe(tables));
    // The changelog sink commits on its own coordinator's schedule, often after the current table:
    // the linkage names both tables, so the changelog must hold the baseline too.
    BoundedWait.until(
        "the changelog holds every baseline event",
        timeout,
        lake::audit,
        audit -> audit.missingFromChangelog().isEmpty());
    return new Baselined(dlqBefore, linkage());
  }

  /** The ids ({@code partition@offset}) of the DLQ records there now. */
  public Set<String> dlqRecordIds() {
    return readCommitted(DLQ_TOPIC).stream()
        .map(r -> r.partition() + "@" + r.offset())
        .collect(Collectors.toUnmodifiableSet());
  }

  /** The DLQ records written since {@code before} ({@link #dlqRecordIds}) was taken. */
  public List<ConsumerRecord<byte[], byte[]>> dlqRecordsSince(Set<String> before) {
    return readCommitted(DLQ_TOPIC).stream()
        .filter(r -> !before.contains(r.partition() + "@" + r.offset()))
        .toList();
  }

  /**
   * Checks the run size a scenario's settings give.
   *
   * @throws IllegalArgumentException naming the flag and its bounds
   */
  public static void checkRunSize(int seed, long baselineRows) {
    if (seed < 0) {
      throw new IllegalArgumentException("--seed must be >= 0, got " + seed);
    }
    if (baselineRows < 1 || baselineRows >= OrdersWorkload.ID_SPAN - 2) {
      throw new IllegalArgumentException(
          "--baseline-rows must be between 1 and " + (OrdersWorkload.ID_SPAN - 3));
    }
  }

  /**
   * Waits until the current table equals the source.
   *
   * @param what what should happen, as a failure names it
   * @return the reconciliation that converged
   * @throws ScenarioFailure when {@code timeout} passes first, with the differing rows of the last
   *     reconciliation as its drift
   */
  public ReconcileResult awaitConverged(String what, Duration timeout) {
    return BoundedWait.until(
        what, timeout, lake::reconcile, ReconcileResult::converged, this::drifting);
  }

  /**
   * The source table against its current table as {@code r} found it, for the report's {@code
   * table_drift}: empty when {@code r} is null or converged.
   */
  public List<TableDrift> drifting(ReconcileResult r) {
    return r == null || r.converged()
        ? List.of()
        : List.of(TableDrift.of(SOURCE_TABLE, CURRENT_TABLE, r, reportRows));
  }

  /**
   * The tables of {@code outcomes} that are neither equal nor skipped, with at most the run's
   * report-rows differing rows listed per side: for the report's {@code table_drift}.
   */
  public List<TableDrift> drifting(List<TableOutcome> outcomes) {
    return TableDrift.drifting(outcomes, reportRows);
  }

  @Override
  public void close() {
    try {
      catalog.close();
    } finally {
      admin.close();
    }
  }
}
