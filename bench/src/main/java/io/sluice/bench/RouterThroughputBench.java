package io.sluice.bench;

import io.sluice.embedded.EmbeddedKafka;
import io.sluice.router.Router;
import io.sluice.router.RouterTopology;
import io.sluice.router.config.RouterConfig;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import io.sluice.stack.StackLayout;
import io.sluice.stack.kafka.CommittedRecords;
import io.sluice.stack.kafka.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.streams.KafkaStreams;

/**
 * Router throughput against a pass-through Kafka Streams topology, in one run on one embedded
 * broker and one input topic: (a) the Sluice router, (b) bytes in / bytes out with the same
 * processing guarantee and partition count, each from a fresh application id.
 *
 * <p>A run's time goes from building the application (the router's {@code start()} builds its Kafka
 * Streams; the pass-through's is built inside the timed part too) to the moment the application's
 * committed offsets on the input cover all N records. Under exactly_once_v2 the offsets are
 * committed in the same transaction as the output, so that is the moment every output record is
 * committed; the output is then counted with a read_committed consumer to prove it. Both run with
 * the router's Streams properties and stop the same way, outside the timed part.
 *
 * <p>Each run also reports CPU time per record (the JVM's, and the application's own and stream
 * threads'): records/s move with whatever else loads the machine, CPU per record much less, and on
 * one stream thread the stream thread's CPU per record is what bounds the rate.
 */
public final class RouterThroughputBench {
  static final String INPUT_TOPIC = StackLayout.DEFAULT.mainTopic();
  static final String CLEAN_TOPIC = StackLayout.DEFAULT.cleanTopic();
  static final String DLQ_TOPIC = StackLayout.DEFAULT.dlqTopic();
  static final String PASS_THROUGH_TOPIC = "sluice_bench_passthrough";
  static final int PARTITIONS = 3;
  private static final Duration POLL = Duration.ofMillis(50);
  private static final String SEGMENT_DELETE_DELAY_MS = "log.segment.delete.delay.ms";
  private static final Duration RECREATE_TIMEOUT = Duration.ofSeconds(30);

  /** Router keys the benchmark sets for each run. */
  static final List<String> BENCH_KEYS =
      List.of(
          RouterConfig.BOOTSTRAP_SERVERS_CONFIG,
          RouterConfig.SCHEMA_REGISTRY_URL_CONFIG,
          RouterConfig.APPLICATION_ID_CONFIG,
          RouterConfig.STATE_DIR_CONFIG,
          RouterConfig.METRICS_HOST_CONFIG,
          RouterConfig.METRICS_PORT_CONFIG);

  private static final Duration PROGRESS_EVERY = Duration.ofSeconds(2);

  /**
   * Warm-up goes on while the JIT compiler spends more than this share of a round's time compiling.
   */
  public static final int JIT_QUIET_PERCENT = 10;

  /**
   * What to run: N records of about {@code payloadBytes} each, a share of them poison; at least
   * {@code warmupRounds} untimed rounds, and more (up to {@code maxWarmupRounds}) while the JIT
   * compiler was busy for more than {@value #JIT_QUIET_PERCENT}% of the last one; then {@code
   * rounds} timed rounds of both applications (their order alternating, so neither always runs on a
   * warmer JVM or page cache).
   */
  public record Settings(
      long records,
      int payloadBytes,
      double poisonRatio,
      int warmupRounds,
      int maxWarmupRounds,
      int rounds,
      Duration timeout,
      Map<String, String> routerProperties) {
    /** Settings with exactly {@code warmupRounds} warm-up rounds. */
    public Settings(
        long records,
        int payloadBytes,
        double poisonRatio,
        int warmupRounds,
        int rounds,
        Duration timeout,
        Map<String, String> routerProperties) {
      this(
          records,
          payloadBytes,
          poisonRatio,
          warmupRounds,
          warmupRounds,
          rounds,
          timeout,
          routerProperties);
    }

    public Settings {
      routerProperties = Map.copyOf(routerProperties);
      for (String key : BENCH_KEYS) {
        if (routerProperties.containsKey(key)) {
          throw new IllegalArgumentException(
              "router property " + key + " is set by the benchmark itself");
        }
      }
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
      if (maxWarmupRounds < warmupRounds) {
        throw new IllegalArgumentException(
            "the most warm-up rounds ("
                + maxWarmupRounds
                + ") must not be fewer than the warm-up rounds ("
                + warmupRounds
                + ")");
      }
    }
  }

  private final Settings settings;
  private final Consumer<String> progress;

  public RouterThroughputBench(Settings settings, Consumer<String> progress) {
    this.settings = settings;
    this.progress = progress;
  }

  public RouterBenchResult run() {
    Path dir = tempDir();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"));
        DevSchemaRegistry registry =
            DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0);
        Admin admin = admin(kafka.bootstrapServers())) {
      progress.accept("broker " + kafka.bootstrapServers() + ", registry " + registry.url());
      if (!settings.routerProperties().isEmpty()) {
        progress.accept("router properties (both applications): " + settings.routerProperties());
      }
      deleteFilesAtOnce(admin);
      for (String topic : List.of(CLEAN_TOPIC, DLQ_TOPIC, PASS_THROUGH_TOPIC, INPUT_TOPIC)) {
        Topics.ensure(admin, topic, PARTITIONS);
      }
      BenchInput.Produced produced =
          new BenchInput(settings.records(), settings.payloadBytes(), settings.poisonRatio())
              .produce(
                  kafka.bootstrapServers(),
                  HttpSchemaRegistryClient.create(registry.url()),
                  INPUT_TOPIC,
                  progress);
      Rounds rounds = new Rounds(kafka, registry, dir, admin, produced);
      warmUp(rounds);
      for (int round = 1; round <= settings.rounds(); round++) {
        // Odd rounds start with the router, even ones with the pass-through.
        rounds.play("round " + round, round % 2 == 1, true);
      }
      RouterBenchResult result =
          new RouterBenchResult(
              rounds.routerRuns, rounds.passThroughRuns, produced.poison(), produced.valueBytes());
      progress.accept(
          String.format(
              "CPU per record (medians): router %.2f µs in the JVM, %.2f µs in its threads, %.2f"
                  + " µs in its stream threads; pass-through %.2f µs in the JVM, %.2f µs in its"
                  + " threads, %.2f µs in its stream threads",
              result.routerProcessCpuMicrosPerRecord(),
              result.routerApplicationCpuMicrosPerRecord(),
              result.routerStreamThreadCpuMicrosPerRecord(),
              result.passThroughProcessCpuMicrosPerRecord(),
              result.passThroughApplicationCpuMicrosPerRecord(),
              result.passThroughStreamThreadCpuMicrosPerRecord()));
      return result;
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
    private final BenchInput.Produced produced;
    final List<RouterBenchResult.Run> routerRuns = new ArrayList<>();
    final List<RouterBenchResult.Run> passThroughRuns = new ArrayList<>();

    Rounds(
        EmbeddedKafka kafka,
        DevSchemaRegistry registry,
        Path dir,
        Admin admin,
        BenchInput.Produced produced) {
      this.kafka = kafka;
      this.registry = registry;
      this.dir = dir;
      this.admin = admin;
      this.produced = produced;
    }

    void play(String label, boolean routerFirst, boolean timed) {
      for (boolean router :
          routerFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
        RouterBenchResult.Run run = router ? router(label) : passThrough(label);
        if (timed) {
          (router ? routerRuns : passThroughRuns).add(run);
        }
      }
    }

    private RouterBenchResult.Run router(String label) {
      RouterConfig config =
          routerConfig(kafka, registry, dir, "sluice-bench-router-", settings.routerProperties());
      progress.accept(label + ": router, application id " + config.applicationId());
      RouterBenchResult.Run run;
      Start start = Start.now();
      // Router.start() builds the topology and constructs Kafka Streams: timed, as for the
      // pass-through below.
      try (Router router = new Router(config)) {
        router.start();
        run = awaitCommitted(admin, "router", config.applicationId(), start, router::state);
      }
      expect(
          "router " + CLEAN_TOPIC,
          takeRecords(CLEAN_TOPIC),
          settings.records() - produced.poison());
      expect("router " + DLQ_TOPIC, takeRecords(DLQ_TOPIC), produced.poison());
      return run;
    }

    private RouterBenchResult.Run passThrough(String label) {
      RouterConfig config =
          routerConfig(
              kafka, registry, dir, "sluice-bench-passthrough-", settings.routerProperties());
      progress.accept(label + ": pass-through, application id " + config.applicationId());
      RouterBenchResult.Run run;
      Start start = Start.now();
      // The router's Streams properties, so both run with the same guarantee and client settings.
      try (KafkaStreams streams =
          new KafkaStreams(
              PassThroughTopology.build(INPUT_TOPIC, PASS_THROUGH_TOPIC),
              RouterTopology.streamsConfig(config))) {
        streams.start();
        run = awaitCommitted(admin, "pass-through", config.applicationId(), start, streams::state);
        // Stopped as the router stops itself (outside the timed part).
        streams.close(
            new KafkaStreams.CloseOptions()
                .timeout(Duration.ofMillis(config.closeTimeoutMs()))
                .leaveGroup(true));
      }
      expect(
          "pass-through " + PASS_THROUGH_TOPIC,
          takeRecords(PASS_THROUGH_TOPIC),
          settings.records());
      return run;
    }

    /**
     * The committed records of output {@code topic}, which is then emptied (deleted and created
     * again): so the benchmark takes the disk of one run's output, not of all runs', and no run
     * waits for the kernel to write an earlier run's output to disk.
     */
    private long takeRecords(String topic) {
      long records =
          CommittedRecords.count(kafka.bootstrapServers(), topic, PARTITIONS, null).records();
      Topics.recreate(admin, topic, PARTITIONS, RECREATE_TIMEOUT);
      return records;
    }
  }

  /**
   * Plays the warm-up rounds: at least {@code warmupRounds}, then one more while the JIT compiler
   * spent more than {@value #JIT_QUIET_PERCENT}% of the last round's time compiling (compiling
   * takes CPU the applications lose; docs/benchmarks.md), up to {@code maxWarmupRounds}; none at
   * all when {@code warmupRounds} is 0. Warm-up k starts with the router when k is odd.
   */
  private void warmUp(Rounds rounds) {
    int most = settings.warmupRounds() == 0 ? 0 : settings.maxWarmupRounds();
    for (int round = 1; round <= most; round++) {
      long startNanos = System.nanoTime();
      Duration compiledBefore = CpuMeter.jitCompilation();
      rounds.play("warm-up " + round, round % 2 == 1, false);
      double seconds = (System.nanoTime() - startNanos) / 1e9;
      double compiled = CpuMeter.jitCompilation().minus(compiledBefore).toNanos() / 1e9;
      boolean quiet = compiled * 100 <= JIT_QUIET_PERCENT * seconds;
      if (round < settings.warmupRounds()) {
        continue;
      }
      if (quiet || round == most) {
        progress.accept(
            String.format(
                "warm-up %d: the JIT compiled for %.2f s of its %.2f s%s; timed rounds next",
                round, compiled, seconds, quiet ? "" : " (the most warm-up rounds)"));
        return;
      }
      progress.accept(
          String.format(
              "warm-up %d: the JIT compiled for %.2f s of its %.2f s (more than %d%%); one more"
                  + " warm-up round",
              round, compiled, seconds, JIT_QUIET_PERCENT));
    }
  }

  /** When a run started: wall clock and the JVM's CPU time. */
  private record Start(long nanos, Duration processCpu, Duration jitCompilation) {
    static Start now() {
      return new Start(System.nanoTime(), CpuMeter.process(), CpuMeter.jitCompilation());
    }
  }

  private RouterBenchResult.Run awaitCommitted(
      Admin admin, String name, String group, Start start, Supplier<KafkaStreams.State> state) {
    long target = settings.records();
    long deadline = start.nanos() + settings.timeout().toNanos();
    long nextProgress = start.nanos() + PROGRESS_EVERY.toNanos();
    long firstCommitted = 0;
    long firstCommitNanos = 0;
    long runningNanos = 0;
    while (true) {
      long committed = CommittedRecords.committedOffsets(admin, group, INPUT_TOPIC);
      long now = System.nanoTime();
      if (runningNanos == 0 && state.get() == KafkaStreams.State.RUNNING) {
        runningNanos = now;
      }
      if (committed > 0 && firstCommitted == 0) {
        firstCommitted = committed;
        firstCommitNanos = now;
      }
      if (committed >= target) {
        // Read before the application stops: its threads' CPU time goes with them.
        Duration applicationCpu = CpuMeter.threadsOf(group);
        Duration streamThreadsCpu = CpuMeter.streamThreadsOf(group);
        Duration processCpu = CpuMeter.process().minus(start.processCpu());
        RouterBenchResult.Run run =
            new RouterBenchResult.Run(
                name,
                target,
                Duration.ofNanos(now - start.nanos()),
                firstCommitted,
                Duration.ofNanos(firstCommitNanos - start.nanos()),
                processCpu,
                applicationCpu,
                streamThreadsCpu);
        progress.accept(
            String.format(
                "%s: %d records committed in %.2f s (running after %.2f s, first commit after"
                    + " %.2f s); CPU µs/record: %.2f in the JVM, %.2f in its threads, %.2f in its"
                    + " stream threads; the JIT compiled for %.2f s",
                name,
                target,
                run.elapsed().toNanos() / 1e9,
                runningNanos == 0 ? Double.NaN : (runningNanos - start.nanos()) / 1e9,
                run.toFirstCommit().toNanos() / 1e9,
                run.processCpuMicrosPerRecord(),
                run.applicationCpuMicrosPerRecord(),
                run.streamThreadCpuMicrosPerRecord(),
                CpuMeter.jitCompilation().minus(start.jitCompilation()).toNanos() / 1e9));
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
      EmbeddedKafka kafka,
      DevSchemaRegistry registry,
      Path dir,
      String idPrefix,
      Map<String, String> routerProperties) {
    String applicationId = idPrefix + UUID.randomUUID().toString().substring(0, 8);
    Map<String, Object> props = new HashMap<>(routerProperties);
    props.put(RouterConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    props.put(RouterConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.url());
    props.put(RouterConfig.APPLICATION_ID_CONFIG, applicationId);
    props.put(RouterConfig.STATE_DIR_CONFIG, dir.resolve("state-" + applicationId).toString());
    props.put(RouterConfig.METRICS_HOST_CONFIG, "127.0.0.1");
    props.put(RouterConfig.METRICS_PORT_CONFIG, 0);
    return new RouterConfig(props);
  }

  /**
   * Has the broker delete the files of deleted topics at once rather than a minute later, so that
   * emptied outputs leave the disk (and the page cache) before the next run.
   */
  private static void deleteFilesAtOnce(Admin admin) {
    ConfigResource brokers = new ConfigResource(ConfigResource.Type.BROKER, "");
    AlterConfigOp noDelay =
        new AlterConfigOp(new ConfigEntry(SEGMENT_DELETE_DELAY_MS, "0"), AlterConfigOp.OpType.SET);
    try {
      admin.incrementalAlterConfigs(Map.of(brokers, List.of(noDelay))).all().get();
    } catch (ExecutionException e) {
      throw new IllegalStateException(
          "cannot set " + SEGMENT_DELETE_DELAY_MS + " on the benchmark broker", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while configuring the benchmark broker", e);
    }
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
