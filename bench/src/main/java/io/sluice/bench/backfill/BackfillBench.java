package io.sluice.bench.backfill;

import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import io.sluice.stack.EmbeddedStack;
import io.sluice.stack.ProcessScale;
import io.sluice.stack.StackLayout;
import io.sluice.stack.StackOptions;
import io.sluice.stack.StackPorts;
import io.sluice.stack.db.OrdersTable;
import io.sluice.stack.kafka.Topics;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.Reconciler;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * A backfill from source to lake on the real embedded stack: N rows of {@code cdc_lab.orders} are
 * loaded into MariaDB before anything captures them, then the stack starts, Debezium's initial
 * snapshot reads them, the router validates them, both sinks write them; the run ends when the
 * upsert sink's table and the changelog each hold N rows and a reconciliation compared the current
 * table with the source. The clock starts when the capture starts.
 */
public final class BackfillBench {
  /**
   * @param dataDir an empty dir for the stack's data
   * @param rows N
   * @param partitions partitions of the change topic (the router gives its clean topic as many)
   * @param sinkTasks tasks of each sink, 1 to {@link ProcessScale#MAX_SINK_TASKS}
   * @param sampleEvery how often the counts and thread CPU times are sampled
   * @param timeout how long the stack may take from its start until the lake holds N rows
   */
  public record Settings(
      Path dataDir,
      long rows,
      int partitions,
      int sinkTasks,
      Duration sampleEvery,
      Duration timeout) {
    public Settings {
      if (rows < 1) {
        throw new IllegalArgumentException("--rows must be >= 1, got " + rows);
      }
      if (partitions < 1) {
        throw new IllegalArgumentException("--partitions must be >= 1, got " + partitions);
      }
      if (sinkTasks < 1 || sinkTasks > ProcessScale.MAX_SINK_TASKS) {
        throw new IllegalArgumentException(
            "--sink-tasks must be 1 to " + ProcessScale.MAX_SINK_TASKS + ", got " + sinkTasks);
      }
    }
  }

  private final Settings settings;
  private final Consumer<String> progress;

  public BackfillBench(Settings settings, Consumer<String> progress) {
    this.settings = settings;
    this.progress = progress;
  }

  public BackfillResult run() throws Exception {
    Path dir = settings.dataDir();
    StackOptions options =
        StackOptions.in(dir)
            .withScale(new ProcessScale(1, 1, settings.sinkTasks()))
            .withReadyTimeout(settings.timeout());
    StackLayout layout = options.layout();
    double loadSeconds = prepare(dir, layout);

    Stage[] stages = Stage.of(layout);
    StageCpu cpu = new StageCpu(stages);
    List<StageSeries> series = new ArrayList<>();
    for (int i = 0; i < stages.length; i++) {
      series.add(new StageSeries());
    }
    progress.accept("starting the embedded stack; the clock starts with the capture");
    try (EmbeddedStack stack = new EmbeddedStack(options)) {
      AtomicReference<Throwable> startFailure = new AtomicReference<>();
      Thread starter =
          new Thread(
              () -> {
                try {
                  stack.start();
                } catch (Throwable t) {
                  startFailure.set(t);
                }
              },
              "backfill-stack-start");
      starter.setDaemon(true);
      starter.start();
      long deadline = System.nanoTime() + settings.timeout().toNanos();
      while (!captureStarted(stack)) {
        failIfStopped(startFailure, deadline, "the capture to start");
        Thread.sleep(20);
      }
      long t0 = System.nanoTime();
      cpu.start();
      try (KafkaConsumer<byte[], byte[]> consumer = consumer(stack.bootstrapServers());
          LakeCatalog lake = Catalogs.open(stack.icebergCatalog())) {
        TableRows current = new TableRows(lake, layout.currentTable());
        TableRows changelog = new TableRows(lake, layout.changelogTable());
        long nextReport = 0;
        while (true) {
          double at = (System.nanoTime() - t0) / 1e9;
          long[] counts = {
            endOffsets(consumer, layout.mainTopic()),
            endOffsets(consumer, layout.cleanTopic()),
            current.rows(),
            changelog.rows()
          };
          cpu.sample();
          for (int i = 0; i < stages.length; i++) {
            series.get(i).add(at, counts[i]);
          }
          if (System.nanoTime() >= nextReport) {
            progress.accept(
                String.format(
                    "%6.1f s: capture %,d, router %,d, upsert sink %,d, changelog sink %,d",
                    at, counts[0], counts[1], counts[2], counts[3]));
            nextReport = System.nanoTime() + Duration.ofSeconds(5).toNanos();
          }
          if (counts[2] >= settings.rows() && counts[3] >= settings.rows()) {
            break;
          }
          failIfStopped(startFailure, deadline, "the lake to hold " + settings.rows() + " rows");
          Thread.sleep(settings.sampleEvery().toMillis());
        }
        progress.accept("both tables hold N rows; reconciling the current table with the source");
        long reconcileStarted = System.nanoTime();
        ReconcileResult reconciled;
        try (Connection c = stack.mariaDb().connect()) {
          reconciled =
              new Reconciler(dir.resolve("reconcile"), Reconciler.DEFAULT_RUN_SIZE, 10, 0, progress)
                  .reconcile(c, layout.database(), layout.mainTable(), current.table());
        }
        long end = System.nanoTime();
        cpu.sample();
        long currentRows = current.rows();
        long changelogRows = changelog.rows();
        List<BackfillResult.StageResult> results = new ArrayList<>();
        for (int i = 0; i < stages.length; i++) {
          double[] window = series.get(i).window();
          double seconds = window[1] - window[0];
          results.add(
              new BackfillResult.StageResult(
                  stages[i].name(),
                  stages[i].measure(),
                  series.get(i).last(),
                  window[0],
                  window[1],
                  seconds > 0 ? settings.rows() / seconds : 0,
                  cpu.nanos(i) / 1e9));
        }
        return new BackfillResult(
            settings.rows(),
            settings.partitions(),
            settings.sinkTasks(),
            loadSeconds,
            (end - t0) / 1e9,
            (end - reconcileStarted) / 1e9,
            reconciled.converged() && changelogRows == settings.rows(),
            currentRows,
            changelogRows,
            results,
            cpu.unattributed(5));
      }
    }
  }

  /**
   * Before the stack runs: the change topic with its partitions, and the source table with N rows,
   * on the ports and in the dirs the stack will use, so the capture finds the rows in its initial
   * snapshot.
   */
  private double prepare(Path dir, StackLayout layout) throws SQLException {
    StackPorts ports = StackPorts.resolve(dir, StackPorts.Requested.NONE);
    try (EmbeddedKafka kafka =
            EmbeddedKafka.start(dir.resolve("kafka"), ports.kafka(), ports.controller());
        Admin admin =
            Admin.create(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      Topics.ensure(admin, layout.mainTopic(), settings.partitions());
    }
    progress.accept(
        String.format(
            "loading %,d rows into %s (multi-row INSERTs of %,d, %,d rows a transaction)",
            settings.rows(),
            OrdersTable.QUALIFIED_NAME,
            OrdersLoader.ROWS_PER_STATEMENT,
            OrdersLoader.ROWS_PER_STATEMENT * OrdersLoader.STATEMENTS_PER_TRANSACTION));
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(dir.resolve("mariadb"), ports.mariadb());
        Connection c = db.connect()) {
      return new OrdersLoader(progress).load(c, settings.rows());
    }
  }

  private static boolean captureStarted(EmbeddedStack stack) {
    try {
      stack.capture();
      return true;
    } catch (IllegalStateException notYet) {
      return false;
    }
  }

  private static void failIfStopped(
      AtomicReference<Throwable> startFailure, long deadline, String waitingFor) {
    Throwable failure = startFailure.get();
    if (failure != null) {
      throw new IllegalStateException("the embedded stack failed to start: " + failure, failure);
    }
    if (System.nanoTime() > deadline) {
      throw new IllegalStateException(
          "timed out waiting for " + waitingFor + "; raise --timeout or lower --rows");
    }
  }

  private static KafkaConsumer<byte[], byte[]> consumer(String bootstrapServers) {
    return new KafkaConsumer<>(
        Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers),
        new ByteArrayDeserializer(),
        new ByteArrayDeserializer());
  }

  /** The sum of the topic's end offsets; 0 while it does not exist. */
  private static long endOffsets(KafkaConsumer<byte[], byte[]> consumer, String topic) {
    var infos = consumer.partitionsFor(topic, Duration.ofSeconds(5));
    if (infos == null || infos.isEmpty()) {
      return 0;
    }
    List<TopicPartition> partitions =
        infos.stream().map(p -> new TopicPartition(topic, p.partition())).toList();
    return consumer.endOffsets(partitions, Duration.ofSeconds(5)).values().stream()
        .mapToLong(Long::longValue)
        .sum();
  }

  /** Rows of a table by its current snapshot's summary: data rows less position deletes. */
  private static final class TableRows {
    private final LakeCatalog lake;
    private final TableIdentifier id;
    private Table table;

    TableRows(LakeCatalog lake, String name) {
      this.lake = lake;
      this.id = TableIdentifier.parse(name);
    }

    long rows() {
      if (table == null) {
        if (!lake.catalog().tableExists(id)) {
          return 0;
        }
        table = lake.catalog().loadTable(id);
      }
      table.refresh();
      Snapshot snapshot = table.currentSnapshot();
      if (snapshot == null) {
        return 0;
      }
      Map<String, String> summary = snapshot.summary();
      return Long.parseLong(summary.getOrDefault(SnapshotSummary.TOTAL_RECORDS_PROP, "0"))
          - Long.parseLong(summary.getOrDefault(SnapshotSummary.TOTAL_POS_DELETES_PROP, "0"));
    }

    Table table() {
      return table;
    }
  }
}
