package io.sluice.bench.sink;

import io.sluice.bench.sink.SinkBenchResult.Check;
import io.sluice.bench.sink.SinkBenchResult.Freshness;
import io.sluice.bench.sink.SinkBenchResult.Paced;
import io.sluice.bench.sink.SinkBenchResult.Throughput;
import io.sluice.bench.sink.SinkBenchResult.Workload;
import io.sluice.connect.ConnectorConfigs;
import io.sluice.connect.IcebergControlTopic;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.EmbeddedConnect;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.lab.kafka.Topics;
import io.sluice.lab.workload.OrderRow;
import io.sluice.lab.workload.OrdersAvro;
import io.sluice.lake.Catalogs;
import io.sluice.lake.IcebergRows;
import io.sluice.lake.LakeCatalog;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two lakehouse sinks side by side, in one run on a fresh broker, registry, Connect worker and
 * SQLite catalog in a temporary directory: the Sluice upsert sink ({@code _current}) and the Apache
 * Iceberg sink ({@code _changelog}) read the same topic of Debezium envelopes (c/u/d over K keys)
 * at the same time.
 *
 * <ol>
 *   <li>Throughput: with both connectors running, N records are produced as fast as the producer
 *       goes; each sink's rate is N over the time from the first record produced to the commit of
 *       the snapshot that made the last one visible.
 *   <li>Freshness: more records at a steady rate (default half the slower sink's rate), each timed
 *       from the moment it was handed to the producer to the commit time of the first snapshot that
 *       made it visible.
 *   <li>Check: the current table holds exactly the state the changes leave behind, and the
 *       changelog every event once.
 * </ol>
 */
public final class SinkBench {
  private static final Logger log = LoggerFactory.getLogger(SinkBench.class);
  static final String TOPIC = "broker.cdc_lab.orders.clean";
  static final int PARTITIONS = 3;
  static final String UPSERT_SINK = "sluice-upsert-sink";
  static final String CHANGELOG_SINK = "sluice-changelog-sink";
  static final String CONTROL_TOPIC = "_sluice-iceberg-control";
  static final TableIdentifier CURRENT = TableIdentifier.of("cdc_lab", "orders_current");
  static final TableIdentifier CHANGELOG = TableIdentifier.of("cdc_lab", "orders_changelog");
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
   */
  public record Settings(
      long records,
      long keys,
      long commitIntervalMs,
      double rate,
      long pacedSeconds,
      Duration timeout) {
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
      if (rate < 0 || pacedSeconds < 0) {
        throw new IllegalArgumentException(
            "--rate and --paced-seconds must be >= 0, got " + rate + " and " + pacedSeconds);
      }
    }
  }

  private final Settings settings;
  private final Consumer<String> progress;

  public SinkBench(Settings settings, Consumer<String> progress) {
    this.settings = settings;
    this.progress = progress;
  }

  public SinkBenchResult run() {
    Path dir = tempDir();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"));
        DevSchemaRegistry registry =
            DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0);
        Admin admin = admin(kafka.bootstrapServers())) {
      Topics.ensure(admin, TOPIC, PARTITIONS);
      Topics.ensure(admin, CONTROL_TOPIC, 1);
      IcebergControlTopic.prepare(admin, CONTROL_TOPIC, CHANGELOG_SINK);
      Map<String, String> catalog = Catalogs.embedded(dir.resolve("iceberg"));
      Files.createDirectories(dir.resolve("iceberg").resolve("warehouse"));
      try (LakeCatalog lake = Catalogs.open(catalog);
          EmbeddedConnect connect = startWorker(kafka.bootstrapServers())) {
        progress.accept(
            "broker "
                + kafka.bootstrapServers()
                + ", registry "
                + registry.url()
                + ", Connect "
                + connect.url());
        createConnectors(connect.client(), catalog, registry.url(), kafka.bootstrapServers());
        OrdersAvro orders =
            OrdersAvro.register(HttpSchemaRegistryClient.create(registry.url()), TOPIC);
        try (TablePoller poller =
                new TablePoller(lake.catalog(), CURRENT, UPSERT_SINK, CHANGELOG, TOPIC);
            KafkaProducer<byte[], byte[]> producer = producer(kafka.bootstrapServers())) {
          poller.start(POLL);
          return measure(new Run(orders, producer, poller), lake);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot prepare " + dir, e);
    } finally {
      deleteRecursively(dir);
    }
  }

  /** The pieces one run works with. */
  private record Run(
      OrdersAvro orders, KafkaProducer<byte[], byte[]> producer, TablePoller poller) {}

  private SinkBenchResult measure(Run run, LakeCatalog lake) {
    ChangeStream stream = new ChangeStream(SEED, settings.keys(), DELETE_SHARE);
    SendLog sends = new SendLog();

    long firstSent = System.currentTimeMillis();
    long started = System.nanoTime();
    produce(run, stream, sends, settings.records(), 0);
    progress.accept(
        String.format(
            "produced a backlog of %,d records in %.1f s; waiting for both sinks",
            settings.records(), (System.nanoTime() - started) / 1e9));
    Map<Integer, Long> backlogEnds = sends.ends();
    awaitVisible(run.poller(), Map.of(), backlogEnds, "backlog");
    Throughput upserts =
        new Throughput(
            settings.records(),
            run.poller().upserts().allVisibleAt(backlogEnds) - firstSent,
            run.poller().upserts().snapshots());
    Throughput appends =
        new Throughput(
            settings.records(),
            run.poller().appends().allVisibleAt(backlogEnds) - firstSent,
            run.poller().appends().snapshots());
    progress.accept(
        String.format(
            "backlog: upsert sink %,.0f records/s, Apache sink %,.0f records/s",
            upserts.recordsPerSecond(), appends.recordsPerSecond()));

    double rate =
        settings.rate() > 0
            ? settings.rate()
            : AUTO_RATE_SHARE * Math.min(upserts.recordsPerSecond(), appends.recordsPerSecond());
    long pacedRecords = Math.round(rate * settings.pacedSeconds());
    progress.accept(
        String.format(
            "paced phase: %,d records at %,.0f records/s for %d s",
            pacedRecords, rate, settings.pacedSeconds()));
    produce(run, stream, sends, pacedRecords, rate);
    Map<Integer, Long> pacedEnds = sends.ends();
    awaitVisible(run.poller(), backlogEnds, pacedEnds, "paced");
    Freshness upsertFreshness =
        freshness(run.poller().upserts(), sends, backlogEnds, pacedEnds, pacedRecords);
    Freshness appendFreshness =
        freshness(run.poller().appends(), sends, backlogEnds, pacedEnds, pacedRecords);

    Workload workload =
        new Workload(
            settings.records(),
            pacedRecords,
            settings.keys(),
            stream.creates(),
            stream.updates(),
            stream.deletes());
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
        check);
  }

  /** Produces {@code count} changes; {@code rate} records/s, or as fast as possible when 0. */
  private void produce(Run run, ChangeStream stream, SendLog sends, long count, double rate) {
    AtomicReference<Exception> failure = new AtomicReference<>();
    long started = System.nanoTime();
    for (long i = 0; i < count; i++) {
      if (rate > 0) {
        long due = started + (long) (i * 1e9 / rate);
        long wait = due - System.nanoTime();
        if (wait > 0) {
          LockSupport.parkNanos(wait);
        }
      }
      ChangeStream.Change change = stream.next();
      byte[] key = run.orders().key(change.orderId());
      byte[] value =
          run.orders().value(OrdersAvro.envelope(change.op(), change.before(), change.after()));
      long sentAt = System.currentTimeMillis();
      run.producer()
          .send(
              new ProducerRecord<>(TOPIC, key, value),
              (metadata, e) -> {
                if (e != null) {
                  failure.compareAndSet(null, e);
                } else {
                  sends.sent(metadata.partition(), metadata.offset(), sentAt);
                }
              });
    }
    run.producer().flush();
    if (failure.get() != null) {
      throw new IllegalStateException("producing to " + TOPIC + " failed", failure.get());
    }
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

  private static Freshness freshness(
      Coverage coverage,
      SendLog sends,
      Map<Integer, Long> starts,
      Map<Integer, Long> ends,
      long records) {
    long[] latencies = new long[(int) records];
    int i = 0;
    for (Map.Entry<Integer, Long> end : ends.entrySet()) {
      int partition = end.getKey();
      for (long offset = starts.getOrDefault(partition, 0L); offset < end.getValue(); offset++) {
        latencies[i++] = coverage.visibleAt(partition, offset) - sends.sentAt(partition, offset);
      }
    }
    return Freshness.of(latencies);
  }

  private static Check check(LakeCatalog lake, ChangeStream stream) {
    Map<Long, OrderRow> expected = stream.live();
    Map<Long, Long> eventIds = new HashMap<>();
    long[] currentRows = {0};
    Table current = lake.catalog().loadTable(CURRENT);
    IcebergRows.read(
        current,
        0,
        r -> {
          currentRows[0]++;
          eventIds.put((Long) r.getField("order_id"), (Long) r.getField("event_id"));
        });
    long wrongKeys = 0;
    Set<Long> keys = new HashSet<>(expected.keySet());
    keys.addAll(eventIds.keySet());
    for (Long key : keys) {
      OrderRow row = expected.get(key);
      Long eventId = eventIds.get(key);
      if (row == null || eventId == null || row.eventId() != eventId) {
        wrongKeys++;
      }
    }

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
        currentRows[0],
        expected.size(),
        wrongKeys,
        changelogRows[0],
        coordinates.size(),
        stream.events());
  }

  private EmbeddedConnect startWorker(String bootstrapServers) {
    // Sink tasks commit their offsets (and the upsert sink checks its interval) this often.
    long flushMs = Math.min(1000, settings.commitIntervalMs());
    return EmbeddedConnect.start(
        bootstrapServers,
        "sluice-bench-sink",
        0,
        Map.of("offset.flush.interval.ms", String.valueOf(flushMs)));
  }

  private void createConnectors(
      ConnectRestClient client,
      Map<String, String> catalog,
      String registryUrl,
      String bootstrapServers) {
    client.putConnector(
        UPSERT_SINK,
        ConnectorConfigs.upsertSink(TOPIC, registryUrl, catalog, settings.commitIntervalMs()));
    client.putConnector(
        CHANGELOG_SINK,
        ConnectorConfigs.changelogSink(
            TOPIC,
            registryUrl,
            catalog,
            bootstrapServers,
            CONTROL_TOPIC,
            settings.commitIntervalMs()));
    client.awaitRunning(UPSERT_SINK, Duration.ofSeconds(60));
    client.awaitRunning(CHANGELOG_SINK, Duration.ofSeconds(60));
    progress.accept(UPSERT_SINK + " and " + CHANGELOG_SINK + " RUNNING on " + TOPIC);
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrapServers) {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.LINGER_MS_CONFIG,
            5,
            ProducerConfig.BATCH_SIZE_CONFIG,
            256 * 1024);
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static Admin admin(String bootstrapServers) {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            (int) TimeUnit.SECONDS.toMillis(30)));
  }

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("sluice-bench-sink-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory", e);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      log.warn("Could not delete the benchmark's directory {}: {}", dir, e.toString());
    }
  }
}
