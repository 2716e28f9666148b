package io.sluice.lab.bench;

import io.sluice.embedded.EmbeddedKafka;
import io.sluice.lab.kafka.CommittedRecords;
import io.sluice.lab.kafka.Topics;
import io.sluice.lab.workload.OrderRow;
import io.sluice.lab.workload.OrdersAvro;
import io.sluice.router.Router;
import io.sluice.router.RouterTopology;
import io.sluice.router.config.RouterConfig;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Router throughput against a pass-through Kafka Streams topology, in one run on one embedded
 * broker and one input topic: (a) the Sluice router, (b) bytes in / bytes out with the same
 * processing guarantee and partition count, each from a fresh application id.
 *
 * <p>A run's time goes from {@code start()} to the moment the application's committed offsets on
 * the input cover all N records. Under exactly_once_v2 the offsets are committed in the same
 * transaction as the output, so that is the moment every output record is committed; the output is
 * then counted with a read_committed consumer to prove it.
 */
public final class RouterThroughputBench {
  static final String INPUT_TOPIC = "broker.cdc_lab.orders";
  static final String CLEAN_TOPIC = INPUT_TOPIC + ".clean";
  static final String DLQ_TOPIC = INPUT_TOPIC + ".dlq";
  static final String PASS_THROUGH_TOPIC = "sluice_bench_passthrough";
  static final int PARTITIONS = 3;
  private static final Duration POLL = Duration.ofMillis(50);
  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);

  /**
   * What to run: N records of about {@code payloadBytes} each, a share of them poison; {@code
   * warmupRounds} untimed rounds, then {@code rounds} timed rounds of both applications (their
   * order alternating, so neither always runs on a warmer JVM or page cache).
   */
  public record Settings(
      long records,
      int payloadBytes,
      double poisonRatio,
      int warmupRounds,
      int rounds,
      Duration timeout) {
    public Settings {
      if (records < 1) {
        throw new IllegalArgumentException("records must be at least 1, got " + records);
      }
      if (poisonRatio < 0 || poisonRatio > 1) {
        throw new IllegalArgumentException("poison ratio must be in [0, 1], got " + poisonRatio);
      }
      if (payloadBytes < 0) {
        throw new IllegalArgumentException("payload bytes must be >= 0, got " + payloadBytes);
      }
      if (warmupRounds < 0 || rounds < 1) {
        throw new IllegalArgumentException(
            "need rounds >= 1 and warm-up rounds >= 0, got " + rounds + " and " + warmupRounds);
      }
    }
  }

  /**
   * One application's run: N records committed {@code elapsed} after start; the first commit (of
   * {@code firstCommitted} records) came {@code toFirstCommit} after start.
   */
  public record Run(
      String name, long records, Duration elapsed, long firstCommitted, Duration toFirstCommit) {
    /** Records/s from start to the last commit: what a user waits for. */
    public double recordsPerSecond() {
      return records / (elapsed.toNanos() / 1e9);
    }

    /**
     * Records/s from the first commit to the last: the processing rate without the start-up (group
     * join, first fetch); NaN when everything was committed at once.
     */
    public double steadyRecordsPerSecond() {
      long after = records - firstCommitted;
      long nanos = elapsed.toNanos() - toFirstCommit.toNanos();
      return after <= 0 || nanos <= 0 ? Double.NaN : after / (nanos / 1e9);
    }
  }

  /** The timed runs of both applications; figures are medians over the rounds. */
  public record Result(List<Run> router, List<Run> passThrough, long poison, int valueBytes) {
    public double routerRecordsPerSecond() {
      return median(router);
    }

    public double passThroughRecordsPerSecond() {
      return median(passThrough);
    }

    /** Router records/s over pass-through records/s (medians). */
    public double ratio() {
      return routerRecordsPerSecond() / passThroughRecordsPerSecond();
    }

    /** Router over pass-through in steady state (medians; NaN when a run had no steady part). */
    public double steadyRatio() {
      return median(router, Run::steadyRecordsPerSecond)
          / median(passThrough, Run::steadyRecordsPerSecond);
    }

    public double routerSteadyRecordsPerSecond() {
      return median(router, Run::steadyRecordsPerSecond);
    }

    public double passThroughSteadyRecordsPerSecond() {
      return median(passThrough, Run::steadyRecordsPerSecond);
    }

    private static double median(List<Run> runs) {
      return median(runs, Run::recordsPerSecond);
    }

    private static double median(List<Run> runs, ToDoubleFunction<Run> rate) {
      double[] rates = runs.stream().mapToDouble(rate).sorted().toArray();
      int mid = rates.length / 2;
      return rates.length % 2 == 1 ? rates[mid] : (rates[mid - 1] + rates[mid]) / 2;
    }
  }

  private final Settings settings;
  private final Consumer<String> progress;

  public RouterThroughputBench(Settings settings, Consumer<String> progress) {
    this.settings = settings;
    this.progress = progress;
  }

  public Result run() {
    Path dir = tempDir();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"));
        DevSchemaRegistry registry =
            DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0);
        Admin admin = admin(kafka.bootstrapServers())) {
      progress.accept("broker " + kafka.bootstrapServers() + ", registry " + registry.url());
      for (String topic : List.of(CLEAN_TOPIC, DLQ_TOPIC, PASS_THROUGH_TOPIC, INPUT_TOPIC)) {
        Topics.ensure(admin, topic, PARTITIONS);
      }
      Produced produced = produce(kafka.bootstrapServers(), registry.url());
      Rounds rounds = new Rounds(kafka, registry, dir, admin, produced);
      for (int round = 1 - settings.warmupRounds(); round <= settings.rounds(); round++) {
        rounds.play(round);
      }
      return new Result(
          rounds.routerRuns, rounds.passThroughRuns, produced.poison(), produced.valueBytes());
    } finally {
      deleteRecursively(dir);
    }
  }

  /** Plays the rounds and checks each run's output with a read_committed reader. */
  private final class Rounds {
    private final EmbeddedKafka kafka;
    private final DevSchemaRegistry registry;
    private final Path dir;
    private final Admin admin;
    private final Produced produced;
    private final Map<String, Map<TopicPartition, Long>> counted = new HashMap<>();
    final List<Run> routerRuns = new ArrayList<>();
    final List<Run> passThroughRuns = new ArrayList<>();

    Rounds(
        EmbeddedKafka kafka, DevSchemaRegistry registry, Path dir, Admin admin, Produced produced) {
      this.kafka = kafka;
      this.registry = registry;
      this.dir = dir;
      this.admin = admin;
      this.produced = produced;
    }

    void play(int round) {
      boolean warmup = round < 1;
      String label = warmup ? "warm-up " + (round + settings.warmupRounds()) : "round " + round;
      // Odd rounds start with the router, even ones with the pass-through.
      boolean routerFirst = Math.floorMod(round, 2) == 1;
      for (boolean router :
          routerFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
        Run run = router ? router(label) : passThrough(label);
        if (!warmup) {
          (router ? routerRuns : passThroughRuns).add(run);
        }
      }
    }

    private Run router(String label) {
      RouterConfig config = routerConfig(kafka, registry, dir, "sluice-bench-router-");
      progress.accept(label + ": router, application id " + config.applicationId());
      Run run;
      try (Router router = new Router(config)) {
        long started = System.nanoTime();
        router.start();
        run = awaitCommitted(admin, "router", config.applicationId(), started);
      }
      expect(
          "router " + CLEAN_TOPIC, newRecords(CLEAN_TOPIC), settings.records() - produced.poison());
      expect("router " + DLQ_TOPIC, newRecords(DLQ_TOPIC), produced.poison());
      return run;
    }

    private Run passThrough(String label) {
      RouterConfig config = routerConfig(kafka, registry, dir, "sluice-bench-passthrough-");
      progress.accept(label + ": pass-through, application id " + config.applicationId());
      Run run;
      try (KafkaStreams streams =
          new KafkaStreams(
              PassThroughTopology.build(INPUT_TOPIC, PASS_THROUGH_TOPIC),
              RouterTopology.streamsConfig(config))) {
        long started = System.nanoTime();
        streams.start();
        run = awaitCommitted(admin, "pass-through", config.applicationId(), started);
        streams.close(Duration.ofSeconds(30));
      }
      expect(
          "pass-through " + PASS_THROUGH_TOPIC, newRecords(PASS_THROUGH_TOPIC), settings.records());
      return run;
    }

    /** Committed records written to {@code topic} since the last call for it. */
    private long newRecords(String topic) {
      CommittedRecords.Slice slice =
          CommittedRecords.count(kafka.bootstrapServers(), topic, PARTITIONS, counted.get(topic));
      counted.put(topic, slice.end());
      return slice.records();
    }
  }

  private record Produced(long poison, int valueBytes) {}

  private Produced produce(String bootstrapServers, String registryUrl) {
    OrdersAvro orders =
        OrdersAvro.register(HttpSchemaRegistryClient.create(registryUrl), INPUT_TOPIC);
    String padding = padding(orders);
    long poison = 0;
    long started = System.nanoTime();
    try (KafkaProducer<byte[], byte[]> producer = producer(bootstrapServers)) {
      for (long i = 0; i < settings.records(); i++) {
        OrderRow row = OrderRow.generate(i + 1, 42);
        if (!padding.isEmpty()) {
          row = padded(row, padding);
        }
        byte[] value;
        if (isPoison(i)) {
          value = poisonValue(row);
          poison++;
        } else {
          value = orders.created(row);
        }
        producer.send(new ProducerRecord<>(INPUT_TOPIC, orders.key(row.orderId()), value));
      }
      producer.flush();
    }
    progress.accept(
        String.format(
            "produced %d records (%d poison) to %s in %.1f s",
            settings.records(), poison, INPUT_TOPIC, (System.nanoTime() - started) / 1e9));
    return new Produced(poison, orders.created(padded(OrderRow.generate(1, 42), padding)).length);
  }

  /** Poison is spread evenly: record i is poison when it crosses the next multiple of 1/ratio. */
  private boolean isPoison(long i) {
    double r = settings.poisonRatio();
    return Math.floor((i + 1) * r) > Math.floor(i * r);
  }

  /** A JSON rendering of the row: the typical "someone produced JSON to an Avro topic" poison. */
  private static byte[] poisonValue(OrderRow row) {
    return ("{\"order_id\":"
            + row.orderId()
            + ",\"business_key\":\""
            + row.businessKey()
            + "\",\"status\":\""
            + row.status()
            + "\"}")
        .getBytes(StandardCharsets.UTF_8);
  }

  private String padding(OrdersAvro orders) {
    int natural = orders.created(OrderRow.generate(1, 42)).length;
    int missing = settings.payloadBytes() - natural;
    return missing > 0 ? "x".repeat(missing) : "";
  }

  private static OrderRow padded(OrderRow row, String padding) {
    return new OrderRow(
        row.orderId(),
        row.businessKey() + padding,
        row.customerId(),
        row.amountCents(),
        row.status(),
        row.eventId(),
        row.seed(),
        row.updatedAtMs());
  }

  private Run awaitCommitted(Admin admin, String name, String group, long startedNanos) {
    long target = settings.records();
    long deadline = startedNanos + settings.timeout().toNanos();
    long nextProgress = startedNanos + PROGRESS_EVERY.toNanos();
    long firstCommitted = 0;
    long firstCommitNanos = 0;
    while (true) {
      long committed = CommittedRecords.committedOffsets(admin, group, INPUT_TOPIC);
      long now = System.nanoTime();
      if (committed > 0 && firstCommitted == 0) {
        firstCommitted = committed;
        firstCommitNanos = now;
      }
      if (committed >= target) {
        Run run =
            new Run(
                name,
                target,
                Duration.ofNanos(now - startedNanos),
                firstCommitted,
                Duration.ofNanos(firstCommitNanos - startedNanos));
        progress.accept(
            String.format(
                "%s: %d records committed in %.2f s (first commit after %.2f s)",
                name, target, run.elapsed().toNanos() / 1e9, run.toFirstCommit().toNanos() / 1e9));
        return run;
      }
      if (now > deadline) {
        throw new IllegalStateException(
            name
                + " committed "
                + committed
                + " of "
                + target
                + " records within "
                + settings.timeout().toSeconds()
                + " s");
      }
      if (now > nextProgress) {
        progress.accept(String.format("%s: %d/%d committed", name, committed, target));
        nextProgress = now + PROGRESS_EVERY.toNanos();
      }
      sleep(POLL);
    }
  }

  private static void expect(String what, long actual, long expected) {
    if (actual != expected) {
      throw new IllegalStateException(
          what + " has " + actual + " committed records, expected " + expected);
    }
  }

  private static RouterConfig routerConfig(
      EmbeddedKafka kafka, DevSchemaRegistry registry, Path dir, String idPrefix) {
    String applicationId = idPrefix + UUID.randomUUID().toString().substring(0, 8);
    Map<String, Object> props = new HashMap<>();
    props.put(RouterConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(RouterConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.url());
    props.put(RouterConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(RouterConfig.STATE_DIR_CONFIG, dir.resolve("state-" + applicationId).toString());
    props.put(RouterConfig.METRICS_HOST_CONFIG, "127.0.0.1");
    props.put(RouterConfig.METRICS_PORT_CONFIG, 0);
    return new RouterConfig(props);
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrapServers) {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.LINGER_MS_CONFIG,
            20,
            ProducerConfig.BATCH_SIZE_CONFIG,
            256 * 1024);
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  private static Admin admin(String bootstrapServers) {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
  }

  private static Path tempDir() {
    try {
      return Files.createTempDirectory("sluice-bench-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temp dir for the benchmark broker", e);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot delete benchmark dir " + dir, e);
    }
  }

  private static void sleep(Duration duration) {
    try {
      TimeUnit.MILLISECONDS.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for the benchmark", e);
    }
  }
}
