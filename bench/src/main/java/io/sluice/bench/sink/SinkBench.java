package io.sluice.bench.sink;

import io.sluice.bench.backfill.Stage;
import io.sluice.bench.backfill.StageCpu;
import io.sluice.bench.sink.SinkBenchResult.Check;
import io.sluice.bench.sink.SinkBenchResult.Freshness;
import io.sluice.bench.sink.SinkBenchResult.Limit;
import io.sluice.bench.sink.SinkBenchResult.Paced;
import io.sluice.bench.sink.SinkBenchResult.Throughput;
import io.sluice.bench.sink.SinkBenchResult.Workload;
import io.sluice.contract.TopicNames;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.embedded.connect.IcebergControlTopic;
import io.sluice.lake.IcebergRows;
import io.sluice.lake.LakeCatalog;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.stack.workload.OrdersAvro;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * The two lakehouse sinks side by side, in one run on a fresh broker, registry, Connect worker and
 * SQLite catalog in a temporary directory: the Sluice upsert sink ({@code _current}) and the Apache
 * Iceberg sink ({@code _changelog}) read the same topic of Debezium envelopes (c/u/d over K keys)
 * at the same time.
 *
 * <ol>
 *   <li>Preload (optional): every one of the K keys created, in key order, and both sinks waited
 *       for, untimed, so that the backlog updates a table that holds K rows.
 *   <li>Throughput: with both connectors running, N records are produced as fast as the producer
 *       goes; each sink's rate is N over the time from the first record produced to the commit of
 *       the snapshot that made the last one visible.
 *   <li>Freshness: more records at a steady rate (default half the slower sink's rate), each timed
 *       from the moment it was handed to the producer to the commit time of the first snapshot that
 *       made it visible.
 *   <li>Check: the current table holds exactly the state the changes leave behind, and the
 *       changelog every event once.
 *   <li>Limit (unless turned off): both connectors deleted, the same records read again in one
 *       thread without Connect and applied with the upsert sink's own writers to a table of its own
 *       ({@link SinkLimit}): the preload untimed, the backlog timed from the first poll to the
 *       commit that covered its last record, the paced records untimed; then its table gets the
 *       same check as the current table.
 * </ol>
 */
public final class SinkBench {
  static final String TOPIC = "broker.cdc_lab.orders.clean";
  static final int PARTITIONS = 3;
  static final String UPSERT_SINK = "sluice-upsert-sink";
  static final String CHANGELOG_SINK = "sluice-changelog-sink";
  static final String CONTROL_TOPIC = "_sluice-iceberg-control";
  static final TableIdentifier CURRENT = TableIdentifier.of("cdc_lab", "orders_current");
  static final TableIdentifier CHANGELOG = TableIdentifier.of("cdc_lab", "orders_changelog");
  static final TableIdentifier LIMIT = TableIdentifier.of("cdc_lab", "orders_limit");

  /** The connector name of the limit's commits: the key of its offsets in snapshot summaries. */
  static final String LIMIT_WRITER = "sluice-bench-limit";

  private static final int SEED = 42;
  private static final double DELETE_SHARE = 0.1;
  private static final double AUTO_RATE_SHARE = 0.5;
  private static final Duration POLL = Duration.ofMillis(100);
  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);

  /**
   * What to run.
   *
   * @param records N, the backlog both sinks work off
   * @param keys K, the order ids the changes touch
   * @param commitIntervalMs both sinks' commit interval
   * @param rate records/s of the paced phase; 0: half the slower sink's backlog rate
   * @param pacedSeconds how long the paced phase produces
   * @param timeout how long each phase may wait for the tables
   * @param preload create every key before the backlog (untimed), so the backlog works on a table
   *     of K rows
   * @param limit run the limit after the sinks ({@link SinkLimit})
   * @param direct run the upsert sink on its direct path (ByteArrayConverter, the sink decodes the
   *     wire Avro itself); else with Sluice's converter
   * @param drain produce the backlog with both connectors paused, then let each sink alone work it
   *     off, timed from its resume; else both sinks consume while it is produced
   * @param warmupRecords records each sink works off alone, untimed, before the backlog (after the
   *     preload): the JVM compiles the sinks' code on them, not on the timed backlog; 0 for none
   */
  public record Settings(
      long records,
      long keys,
      long commitIntervalMs,
      double rate,
      long pacedSeconds,
      Duration timeout,
      boolean preload,
      boolean limit,
      boolean direct,
      boolean drain,
      long warmupRecords) {
    public Settings {
      if (records < 1) {
        throw new IllegalArgumentException("--records must be at least 1, got " + records);
      }
      if (keys < 1) {
        throw new IllegalArgumentException("--keys must be at least 1, got " + keys);
      }
      if (commitIntervalMs < 100) {
        throw new IllegalArgumentException(
            "--commit-interval-ms must be at least 100, got " + commitIntervalMs);
      }
      if (warmupRecords < 0) {
        throw new IllegalArgumentException("--warmup-records must be >= 0, got " + warmupRecords);
      }
      if (rate < 0 || pacedSeconds < 0) {
        throw new IllegalArgumentException(
            "--rate and --paced-seconds must be >= 0, got " + rate + " and " + pacedSeconds);
      }
    }
  }

  private final Settings settings;
  private final Consumer<String> progress;
  private Map<Integer, Long> preloadEnds = Map.of();
  private Map<Integer, Long> backlogEnds = Map.of();
  private Map<Integer, Long> pacedEnds = Map.of();

  public SinkBench(Settings settings, Consumer<String> progress) {
    this.settings = settings;
    this.progress = progress;
  }

  public SinkBenchResult run() {
    try (SinkStack stack =
        SinkStack.start("sluice-bench-sink", settings.commitIntervalMs(), progress)) {
      stack.createTopic(TOPIC, PARTITIONS);
      stack.createTopic(CONTROL_TOPIC, 1);
      IcebergControlTopic.prepare(stack.admin(), CONTROL_TOPIC, CHANGELOG_SINK);
      Map<String, String> upsertSink = upsertSinkConfig(stack);
      createConnectors(stack, upsertSink);
      OrdersAvro orders = stack.registerOrders(TOPIC);
      ChangeStream stream = new ChangeStream(SEED, settings.keys(), DELETE_SHARE);
      SinkBenchResult result;
      try (TablePoller poller =
              new TablePoller(stack.lake().catalog(), CURRENT, UPSERT_SINK, CHANGELOG, TOPIC);
          KafkaProducer<byte[], byte[]> producer = stack.producer()) {
        poller.start(POLL);
        result =
            measure(
                stack.connect(),
                poller,
                new ChangeProducer(producer, orders, TOPIC, new SendLog()),
                stack.lake(),
                stream);
      }
      return settings.limit() ? result.withLimit(limit(stack, upsertSink, stream)) : result;
    }
  }

  /**
   * Stops both sinks, then runs the limit over the same records into {@link #LIMIT}, created in the
   * schema of the sink's table, and checks its table.
   */
  private Limit limit(SinkStack stack, Map<String, String> upsertSink, ChangeStream stream) {
    deleteConnectors(stack);
    Map<String, String> config = new HashMap<>(upsertSink);
    config.put("name", LIMIT_WRITER);
    org.apache.iceberg.Schema schema = stack.lake().catalog().loadTable(CURRENT).schema();
    try (SinkLimit limit =
        new SinkLimit(
            stack.bootstrapServers(),
            TOPIC,
            HttpSchemaRegistryClient.create(stack.registryUrl()),
            stack.lake().catalog(),
            LIMIT,
            schema,
            config)) {
      if (settings.preload()) {
        SinkLimit.Pass preloaded = limit.apply(Map.of(), preloadEnds);
        progress.accept(
            String.format(
                "limit: preloaded %,d keys in %.1f s (untimed)",
                preloaded.records(), preloaded.elapsedNanos() / 1e9));
      }
      SinkLimit.Pass backlog = limit.apply(preloadEnds, backlogEnds);
      Throughput rate =
          new Throughput(backlog.records(), backlog.elapsedNanos() / 1_000_000, backlog.commits());
      progress.accept(
          String.format(
              "limit: backlog %,.0f records/s (%,d records in %.2f s, %d commits)",
              rate.recordsPerSecond(),
              backlog.records(),
              backlog.elapsedNanos() / 1e9,
              backlog.commits()));
      // The paced records too, untimed: the limit's table then ends where the sink's does.
      limit.apply(backlogEnds, pacedEnds);
      TableCheck check = TableCheck.of(stack.lake().catalog().loadTable(LIMIT), stream.live());
      progress.accept(
          String.format(
              "limit: table %s %,d rows (expected %,d, wrong keys %d, duplicate keys %d)",
              LIMIT, check.rows(), check.expectedRows(), check.wrongKeys(), check.duplicateKeys()));
      return new Limit(rate, backlog.stages(), limit.commitModes(), check);
    }
  }

  /** Deletes both connectors and waits until the worker runs neither. */
  private void deleteConnectors(SinkStack stack) {
    ConnectRestClient client = stack.connect();
    client.deleteConnector(UPSERT_SINK);
    client.deleteConnector(CHANGELOG_SINK);
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (!client.connectors().isEmpty()) {
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the Connect worker still runs " + client.connectors() + " 60 s after their deletion");
      }
      LockSupport.parkNanos(POLL.toNanos());
    }
    progress.accept(UPSERT_SINK + " and " + CHANGELOG_SINK + " deleted; the limit runs alone");
  }

  private SinkBenchResult measure(
      ConnectRestClient connect,
      TablePoller poller,
      ChangeProducer producer,
      LakeCatalog lake,
      ChangeStream stream) {
    SendLog sends = producer.sends();
    preloadEnds = settings.preload() ? preload(poller, producer, stream) : Map.of();
    if (settings.warmupRecords() > 0) {
      preloadEnds = warmUp(connect, poller, producer, stream);
    }
    // The preload's snapshots are not the backlog's.
    int upsertSnapshotsBefore = poller.upserts().snapshots();
    int appendSnapshotsBefore = poller.appends().snapshots();

    // Each sink task's thread, found by the code its stack shows, and the upsert sink's commit
    // thread by its name: on two cores the rates say how the sinks share the CPU; their CPU per
    // record says what each one costs.
    StageCpu tasks =
        new StageCpu(
            new Stage[] {
              new Stage(
                  "upsert sink",
                  "records",
                  t -> t.startsWith("sluice-upsert-commit-"),
                  List.of("io.sluice.connect.upsert.")),
              new Stage(
                  "changelog sink", "records", t -> false, List.of("org.apache.iceberg.connect."))
            });
    tasks.start();
    ScheduledExecutorService sampler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread thread = new Thread(r, "sink-bench-cpu-sampler");
              thread.setDaemon(true);
              return thread;
            });
    sampler.scheduleAtFixedRate(tasks::sample, 50, 50, TimeUnit.MILLISECONDS);
    if (settings.drain()) {
      setState(connect, UPSERT_SINK, "PAUSED");
      setState(connect, CHANGELOG_SINK, "PAUSED");
    }
    long firstSent = System.currentTimeMillis();
    long started = System.nanoTime();
    producer.produce(stream::next, settings.records(), Pacing.unpaced());
    backlogEnds = sends.ends();
    Throughput upserts;
    Throughput appends;
    try {
      if (settings.drain()) {
        progress.accept(
            String.format(
                "produced a backlog of %,d records in %.1f s with both sinks paused; each"
                    + " works it off alone",
                settings.records(), (System.nanoTime() - started) / 1e9));
        Throughput[] each =
            drainEach(
                connect,
                poller,
                "backlog",
                backlogEnds,
                settings.records(),
                upsertSnapshotsBefore,
                appendSnapshotsBefore);
        upserts = each[0];
        appends = each[1];
      } else {
        progress.accept(
            String.format(
                "produced a backlog of %,d records in %.1f s; waiting for both sinks",
                settings.records(), (System.nanoTime() - started) / 1e9));
        awaitVisible(poller, preloadEnds, backlogEnds, "backlog");
        upserts =
            new Throughput(
                settings.records(),
                poller.upserts().allVisibleAt(backlogEnds) - firstSent,
                poller.upserts().snapshots() - upsertSnapshotsBefore);
        appends =
            new Throughput(
                settings.records(),
                poller.appends().allVisibleAt(backlogEnds) - firstSent,
                poller.appends().snapshots() - appendSnapshotsBefore);
      }
    } finally {
      sampler.shutdownNow();
    }
    tasks.sample();
    progress.accept(
        String.format(
            "backlog CPU of the sink tasks' threads (and the upsert sink's maintenance): upsert"
                + " sink %.2f s (%.1f µs a record), Apache sink %.2f s (%.1f µs a record)",
            tasks.nanos(0) / 1e9,
            tasks.nanos(0) / 1e3 / settings.records(),
            tasks.nanos(1) / 1e9,
            tasks.nanos(1) / 1e3 / settings.records()));
    progress.accept("backlog: busiest threads of neither sink: " + tasks.unattributed(6));
    progress.accept(
        String.format(
            "backlog: upsert sink %,.0f records/s, Apache sink %,.0f records/s; the upsert"
                + " sink's snapshots so far by commit mode %s",
            upserts.recordsPerSecond(),
            appends.recordsPerSecond(),
            poller.upsertSnapshots().totals().commitModes()));

    double rate =
        settings.rate() > 0
            ? settings.rate()
            : AUTO_RATE_SHARE * Math.min(upserts.recordsPerSecond(), appends.recordsPerSecond());
    long pacedRecords = Math.round(rate * settings.pacedSeconds());
    progress.accept(
        String.format(
            "paced phase: %,d records at %,.0f records/s for %d s",
            pacedRecords, rate, settings.pacedSeconds()));
    producer.produce(stream::next, pacedRecords, Pacing.steady(rate));
    pacedEnds = sends.ends();
    awaitVisible(poller, backlogEnds, pacedEnds, "paced");
    Freshness upsertFreshness = Freshness.of(poller.upserts(), sends, backlogEnds, pacedEnds);
    Freshness appendFreshness = Freshness.of(poller.appends(), sends, backlogEnds, pacedEnds);

    Workload workload =
        new Workload(
            settings.records(),
            pacedRecords,
            settings.keys(),
            stream.creates(),
            stream.updates(),
            stream.deletes(),
            settings.preload() ? settings.keys() : 0,
            settings.warmupRecords());
    Check check = check(lake, stream);
    progress.accept(
        "check: current table "
            + check.currentRows()
            + " rows (expected "
            + check.expectedRows()
            + ", wrong keys "
            + check.wrongKeys()
            + "), changelog "
            + check.changelogRows()
            + " rows (expected "
            + check.expectedEvents()
            + ")");
    return new SinkBenchResult(
        workload,
        settings.commitIntervalMs(),
        upserts,
        appends,
        new Paced(pacedRecords, rate, settings.pacedSeconds()),
        upsertFreshness,
        appendFreshness,
        check,
        null);
  }

  /**
   * Produces the warm-up records with both connectors paused and lets each sink alone work them
   * off, untimed, as it will the backlog: the JVM compiles the code of the sinks' data paths here
   * (measured on this machine, the compiler threads took most of a core through a cold drain).
   *
   * @return where the warm-up ends, per partition: the backlog starts there
   */
  private Map<Integer, Long> warmUp(
      ConnectRestClient connect, TablePoller poller, ChangeProducer producer, ChangeStream stream) {
    long started = System.nanoTime();
    setState(connect, UPSERT_SINK, "PAUSED");
    setState(connect, CHANGELOG_SINK, "PAUSED");
    producer.produce(stream::next, settings.warmupRecords(), Pacing.unpaced());
    Map<Integer, Long> ends = producer.sends().ends();
    drainEach(
        connect,
        poller,
        "warm-up",
        ends,
        settings.warmupRecords(),
        poller.upserts().snapshots(),
        poller.appends().snapshots());
    progress.accept(
        String.format(
            "warm-up: %,d records worked off by each sink alone in %.1f s (untimed); the backlog"
                + " follows",
            settings.warmupRecords(), (System.nanoTime() - started) / 1e9));
    return ends;
  }

  /**
   * Lets the upsert sink, then the Apache sink, work off alone every record up to {@code ends}
   * (both paused before); both run again after.
   *
   * @return the upsert sink's throughput, then the Apache sink's
   */
  private Throughput[] drainEach(
      ConnectRestClient connect,
      TablePoller poller,
      String phase,
      Map<Integer, Long> ends,
      long records,
      int upsertSnapshotsBefore,
      int appendSnapshotsBefore) {
    Throughput upserts =
        drain(
            connect,
            poller,
            UPSERT_SINK,
            poller.upserts(),
            CURRENT,
            upsertSnapshotsBefore,
            phase,
            ends,
            records);
    Throughput appends =
        drain(
            connect,
            poller,
            CHANGELOG_SINK,
            poller.appends(),
            CHANGELOG,
            appendSnapshotsBefore,
            phase,
            ends,
            records);
    setState(connect, UPSERT_SINK, "RUNNING");
    setState(connect, CHANGELOG_SINK, "RUNNING");
    return new Throughput[] {upserts, appends};
  }

  /**
   * Resumes {@code connector} (paused, like the other one) and waits until {@code table} shows
   * every record from {@link #preloadEnds} to {@code ends}; then pauses it again, so that the other
   * sink has the machine to itself.
   *
   * @param phase what the records are, in the progress lines
   * @param records how many records there are
   * @return the records over the time from the resume to the commit that made the last visible
   */
  private Throughput drain(
      ConnectRestClient connect,
      TablePoller poller,
      String connector,
      Coverage coverage,
      TableIdentifier table,
      int snapshotsBefore,
      String phase,
      Map<Integer, Long> ends,
      long records) {
    long resumed = System.currentTimeMillis();
    setState(connect, connector, "RUNNING");
    long deadline = System.nanoTime() + settings.timeout().toNanos();
    long nextReport = System.nanoTime() + PROGRESS_EVERY.toNanos();
    while (coverage.allVisibleAt(ends) < 0) {
      poller.checkAlive();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            String.format(
                "%s: after %d s %s alone made only %,d of %,d records visible in %s",
                phase,
                settings.timeout().toSeconds(),
                connector,
                coverage.visibleRecords(preloadEnds, ends),
                records,
                table));
      }
      if (System.nanoTime() > nextReport) {
        progress.accept(
            String.format(
                "%s: %s alone: visible %,d/%,d in %s",
                phase, connector, coverage.visibleRecords(preloadEnds, ends), records, table));
        nextReport = System.nanoTime() + PROGRESS_EVERY.toNanos();
      }
      LockSupport.parkNanos(POLL.toNanos());
    }
    Throughput rate =
        new Throughput(
            records, coverage.allVisibleAt(ends) - resumed, coverage.snapshots() - snapshotsBefore);
    setState(connect, connector, "PAUSED");
    progress.accept(
        String.format(
            "%s: %s alone: %,.0f records/s (%,d records in %.2f s after its resume)",
            phase, connector, rate.recordsPerSecond(), rate.records(), rate.elapsedMs() / 1e3));
    return rate;
  }

  /** Pauses or resumes {@code connector} and waits until it and its tasks are in {@code state}. */
  private static void setState(ConnectRestClient connect, String connector, String state) {
    if (state.equals("PAUSED")) {
      connect.pauseConnector(connector);
    } else {
      connect.resumeConnector(connector);
    }
    connect.awaitState(connector, state, Duration.ofSeconds(60));
  }

  /**
   * Creates every key, 1 to K in order, and waits until both sinks made them visible.
   *
   * @return where the preload ends, per partition
   */
  private Map<Integer, Long> preload(
      TablePoller poller, ChangeProducer producer, ChangeStream stream) {
    long started = System.nanoTime();
    long[] next = {0};
    producer.produce(() -> stream.next(++next[0]), settings.keys(), Pacing.unpaced());
    Map<Integer, Long> ends = producer.sends().ends();
    awaitVisible(poller, Map.of(), ends, "preload");
    progress.accept(
        String.format(
            "preloaded %,d keys in %.1f s (produced and visible in both tables); the backlog"
                + " follows",
            settings.keys(), (System.nanoTime() - started) / 1e9));
    return ends;
  }

  private void awaitVisible(
      TablePoller poller, Map<Integer, Long> starts, Map<Integer, Long> ends, String phase) {
    long expected = 0;
    for (Map.Entry<Integer, Long> end : ends.entrySet()) {
      expected += end.getValue() - starts.getOrDefault(end.getKey(), 0L);
    }
    long deadline = System.nanoTime() + settings.timeout().toNanos();
    long nextReport = System.nanoTime() + PROGRESS_EVERY.toNanos();
    while (poller.upserts().allVisibleAt(ends) < 0 || poller.appends().allVisibleAt(ends) < 0) {
      poller.checkAlive();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            String.format(
                "%s: after %d s only %d upserts and %d appends of %d records are visible in Iceberg",
                phase,
                settings.timeout().toSeconds(),
                poller.upserts().visibleRecords(starts, ends),
                poller.appends().visibleRecords(starts, ends),
                expected));
      }
      if (System.nanoTime() > nextReport) {
        progress.accept(
            String.format(
                "%s: visible %,d/%,d in %s, %,d/%,d in %s",
                phase,
                poller.upserts().visibleRecords(starts, ends),
                expected,
                CURRENT,
                poller.appends().visibleRecords(starts, ends),
                expected,
                CHANGELOG));
        nextReport = System.nanoTime() + PROGRESS_EVERY.toNanos();
      }
      LockSupport.parkNanos(POLL.toNanos());
    }
  }

  private static Check check(LakeCatalog lake, ChangeStream stream) {
    TableCheck current = TableCheck.of(lake.catalog().loadTable(CURRENT), stream.live());
    Set<Long> coordinates = new HashSet<>();
    long[] changelogRows = {0};
    Table changelog = lake.catalog().loadTable(CHANGELOG);
    IcebergRows.read(
        changelog,
        0,
        r -> {
          changelogRows[0]++;
          Record metadata = (Record) r.getField("_kafka_metadata");
          coordinates.add(
              ((long) (Integer) metadata.getField("partition") << 48)
                  | (Long) metadata.getField("offset"));
        });
    return new Check(
        current.rows(),
        current.expectedRows(),
        current.wrongKeys(),
        changelogRows[0],
        coordinates.size(),
        stream.events());
  }

  private Map<String, String> upsertSinkConfig(SinkStack stack) {
    Map<String, String> config =
        ConnectorConfigs.upsertSink(
            TOPIC, stack.registryUrl(), stack.catalog(), settings.commitIntervalMs());
    return settings.direct() ? ConnectorConfigs.directPath(config, stack.registryUrl()) : config;
  }

  private void createConnectors(SinkStack stack, Map<String, String> upsertSink) {
    ConnectRestClient client = stack.connect();
    client.putConnector(UPSERT_SINK, upsertSink);
    client.putConnector(
        CHANGELOG_SINK,
        ConnectorConfigs.changelogSink(
            TOPIC,
            stack.registryUrl(),
            stack.catalog(),
            stack.bootstrapServers(),
            CONTROL_TOPIC,
            settings.commitIntervalMs(),
            TopicNames.DEFAULTS.dlqTopicOfRecordsIn(TOPIC)));
    client.awaitRunning(UPSERT_SINK, Duration.ofSeconds(60));
    client.awaitRunning(CHANGELOG_SINK, Duration.ofSeconds(60));
    progress.accept(
        UPSERT_SINK
            + " ("
            + (settings.direct() ? "direct path" : "converter path")
            + ") and "
            + CHANGELOG_SINK
            + " RUNNING on "
            + TOPIC);
  }
}
