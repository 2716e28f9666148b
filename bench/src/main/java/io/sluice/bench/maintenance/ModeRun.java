package io.sluice.bench.maintenance;

import io.sluice.bench.maintenance.MaintenanceBench.Settings;
import io.sluice.bench.sink.ChangeProducer;
import io.sluice.bench.sink.SendLog;
import io.sluice.bench.sink.SinkBenchResult.Freshness;
import io.sluice.bench.sink.SinkBenchResult.Throughput;
import io.sluice.bench.sink.SinkStack;
import io.sluice.bench.sink.SnapshotTally;
import io.sluice.bench.sink.TableCheck;
import io.sluice.bench.sink.TablePoller;
import io.sluice.contract.TopicNames;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.ConnectRestClient.TaskStatus;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.stack.workload.OrdersAvro;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.producer.KafkaProducer;

/**
 * One mode of the maintenance benchmark on its own topic, connector and table: the workload
 * produced on a producer thread while this one samples the table every {@code sampleEvery} sink
 * commits, then once more after the last record became visible, then the check.
 */
final class ModeRun {
  static final String NAMESPACE = "cdc_lab";
  static final int PARTITIONS = 3;
  private static final Duration POLL = Duration.ofMillis(100);
  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(5);
  private static final Duration COUNTED_WITHIN = Duration.ofSeconds(30);

  private final SinkStack stack;
  private final Settings settings;
  private final SinkSettings sink;
  private final Mode mode;
  private final Consumer<String> progress;
  private final String topic;
  private final String connector;
  private final TableIdentifier table;
  private final Catalog catalog;

  ModeRun(
      SinkStack stack, Settings settings, SinkSettings sink, Mode mode, Consumer<String> progress) {
    this.stack = stack;
    this.settings = settings;
    this.sink = sink;
    this.mode = mode;
    this.progress = progress;
    this.topic = TopicNames.DEFAULTS.cleanTopic("broker." + NAMESPACE + ".orders_" + mode.label());
    this.connector = "sluice-upsert-sink-" + mode.label();
    this.table = TableIdentifier.of(NAMESPACE, "orders_" + mode.label() + "_current");
    this.catalog = stack.lake().catalog();
  }

  ModeResult run() {
    long started = System.nanoTime();
    stack.createTopic(topic, PARTITIONS);
    OrdersAvro orders = stack.registerOrders(topic);
    Map<String, String> config =
        sink.config(
            ConnectorConfigs.upsertSink(
                topic, stack.registryUrl(), stack.catalog(), settings.commitIntervalMs()),
            mode);
    ConnectRestClient client = stack.connect();
    client.putConnector(connector, config);
    client.awaitRunning(connector, Duration.ofSeconds(60));
    progress.accept(
        String.format(
            "mode %s: %s RUNNING on %s (%s)",
            mode.label(),
            connector,
            topic,
            SinkSettings.MAINTENANCE_ENABLED + "=" + config.get(SinkSettings.MAINTENANCE_ENABLED)));
    ExecutorService producerThread =
        Executors.newSingleThreadExecutor(
            r -> {
              Thread t = new Thread(r, "maintenance-bench-producer");
              t.setDaemon(true);
              return t;
            });
    try (TablePoller poller = new TablePoller(catalog, table, connector, topic);
        KafkaProducer<byte[], byte[]> producer = stack.producer()) {
      poller.start(POLL);
      return measure(
          poller,
          new ChangeProducer(producer, orders, topic, new SendLog()),
          producerThread,
          started);
    } finally {
      producerThread.shutdownNow();
      client.deleteConnector(connector);
    }
  }

  private ModeResult measure(
      TablePoller poller, ChangeProducer producer, ExecutorService producerThread, long started) {
    MaintenanceWorkload workload =
        new MaintenanceWorkload(
            settings.keys(),
            settings.updates(),
            settings.seed(),
            settings.hotKeysPercent(),
            settings.hotUpdatesPercent());
    CommitPacing pacing =
        new CommitPacing(
            workload.size(),
            settings.commits(),
            settings.commitIntervalMs(),
            poller.upserts()::commits);
    ScanSampler sampler =
        new ScanSampler(catalog, table, TableIdentifier.of(NAMESPACE, table.name() + "_compacted"));
    progress.accept(
        String.format(
            "mode %s: %,d changes (%,d inserts, then %,d updates) at about %,.0f records/s, for at"
                + " least %d commits",
            mode.label(),
            workload.size(),
            settings.keys(),
            settings.updates(),
            pacing.initialRecordsPerSecond(),
            settings.commits()));
    progress.accept(SampleTable.HEADER);

    long firstSent = System.currentTimeMillis();
    Future<Long> producing =
        producerThread.submit(
            () -> {
              producer.produce(workload::next, workload.size(), pacing);
              return System.currentTimeMillis();
            });
    List<Sample> samples = new ArrayList<>();
    long samplingNanos = 0;
    int nextSample = settings.sampleEvery();
    Map<Integer, Long> ends = null;
    long deadline = Long.MAX_VALUE;
    long nextReport = System.nanoTime() + PROGRESS_EVERY.toNanos();
    while (ends == null || poller.upserts().allVisibleAt(ends) < 0) {
      poller.checkAlive();
      if (ends == null && producing.isDone()) {
        long producedAt = awaitProduced(producing);
        ends = producer.sends().ends();
        deadline = System.nanoTime() + settings.timeoutSeconds() * 1_000_000_000L;
        progress.accept(
            String.format(
                "mode %s: produced %,d records in %.1f s; waiting for the sink",
                mode.label(), workload.size(), (producedAt - firstSent) / 1000.0));
        continue;
      }
      int commits = poller.upserts().commits();
      if (commits >= nextSample) {
        long sampling = System.nanoTime();
        sample(sampler, commits, firstSent).ifPresent(samples::add);
        samplingNanos += System.nanoTime() - sampling;
        nextSample = (commits / settings.sampleEvery() + 1) * settings.sampleEvery();
        continue;
      }
      if (System.nanoTime() > nextReport) {
        checkTasks();
        if (ends != null) {
          progress.accept(
              String.format(
                  "mode %s: visible %,d/%,d",
                  mode.label(), poller.upserts().visibleRecords(Map.of(), ends), workload.size()));
        }
        nextReport = System.nanoTime() + PROGRESS_EVERY.toNanos();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            String.format(
                "mode %s: %d s after the last record was produced only %,d of %,d records are"
                    + " visible in %s",
                mode.label(),
                settings.timeoutSeconds(),
                poller.upserts().visibleRecords(Map.of(), ends),
                workload.size(),
                table));
      }
      LockSupport.parkNanos(POLL.toNanos());
    }
    Throughput throughput =
        new Throughput(
            workload.size(),
            poller.upserts().allVisibleAt(ends) - firstSent,
            poller.upserts().commits());
    int otherSnapshots = poller.upserts().snapshots() - poller.upserts().commits();
    Snapshot current = catalog.loadTable(table).currentSnapshot();
    if (samples.isEmpty() || samples.get(samples.size() - 1).snapshotId() != current.snapshotId()) {
      sample(sampler, throughput.snapshots(), firstSent).ifPresent(samples::add);
    }
    TableCheck check = TableCheck.of(catalog.loadTable(table), workload.live());
    SnapshotTally.Totals written = writtenUpTo(poller, catalog.loadTable(table).currentSnapshot());
    KeyIndexRebuild keyIndex = KeyIndexRebuild.of(catalog.loadTable(table));
    progress.accept(
        String.format(
            "mode %s: key index rebuilt in %,.0f ms (first build %,.0f ms): %,d keys, %,d bytes,"
                + " %,d rows read",
            mode.label(),
            keyIndex.buildMs(),
            keyIndex.firstBuildMs(),
            keyIndex.keys(),
            keyIndex.bytes(),
            keyIndex.rowsRead()));
    progress.accept(
        String.format(
            "mode %s: %,.0f records/s, %d commits, %d other snapshots; check: %,d rows (expected"
                + " %,d), wrong keys %d, duplicate keys %d",
            mode.label(),
            throughput.recordsPerSecond(),
            throughput.snapshots(),
            otherSnapshots,
            check.rows(),
            check.expectedRows(),
            check.wrongKeys(),
            check.duplicateKeys()));
    return ModeResult.of(
        mode,
        workload.counts(),
        throughput,
        otherSnapshots,
        Freshness.of(poller.upserts(), producer.sends(), Map.of(), ends),
        samples,
        samplingNanos / 1e9,
        check,
        (System.nanoTime() - started) / 1e9,
        written,
        keyIndex);
  }

  /**
   * What the table's snapshots wrote, once the poller counted {@code current} (it polls every
   * {@link #POLL}): every snapshot up to the end of the run, maintenance after the last commit
   * included.
   */
  private static SnapshotTally.Totals writtenUpTo(TablePoller poller, Snapshot current) {
    long deadline = System.nanoTime() + COUNTED_WITHIN.toNanos();
    while (!poller.upsertSnapshots().counted(current.snapshotId())) {
      poller.checkAlive();
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "the poller did not see snapshot "
                + current.snapshotId()
                + " within "
                + COUNTED_WITHIN.toSeconds()
                + " s");
      }
      LockSupport.parkNanos(POLL.toNanos());
    }
    return poller.upsertSnapshots().totals();
  }

  private Optional<Sample> sample(ScanSampler sampler, int commits, long firstSent) {
    Optional<Sample> sample = sampler.sample(commits, System.currentTimeMillis() - firstSent);
    sample.ifPresent(s -> progress.accept(SampleTable.row(mode, s)));
    return sample;
  }

  /** Fails the run at once when the sink's task failed, rather than at the timeout. */
  private void checkTasks() {
    for (TaskStatus task : stack.connect().status(connector).tasks()) {
      if ("FAILED".equals(task.state())) {
        throw new IllegalStateException(
            "task " + task.id() + " of " + connector + " FAILED: " + task.trace());
      }
    }
  }

  /** When the producer had sent and flushed every record. */
  private static long awaitProduced(Future<Long> producing) {
    try {
      return producing.get();
    } catch (ExecutionException e) {
      throw e.getCause() instanceof RuntimeException r
          ? r
          : new IllegalStateException("producing failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while producing", e);
    }
  }
}
