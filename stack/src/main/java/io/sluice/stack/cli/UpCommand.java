package io.sluice.stack.cli;

import io.sluice.contract.ReadyFile;
import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.stack.EmbeddedStack;
import io.sluice.stack.ProcessScale;
import io.sluice.stack.ProcessStack;
import io.sluice.stack.PrometheusServer;
import io.sluice.stack.StackLayout;
import io.sluice.stack.StackOptions;
import io.sluice.stack.StackPorts;
import io.sluice.stack.StackStartException;
import io.sluice.stack.control.ComponentStatus;
import io.sluice.stack.logging.CommandLog;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice up}: the embedded stack in this JVM until Ctrl-C or SIGTERM. */
@Command(
    name = "up",
    mixinStandardHelpOptions = true,
    description = {
      "Starts a Kafka broker (single-node KRaft), the dev schema registry, MariaDB, the router, a"
          + " Kafka Connect worker with the Iceberg upsert and changelog sinks (JdbcCatalog on"
          + " SQLite, warehouse in the data dir) and the Debezium capture in one JVM, on 127.0.0.1."
          + " Prints every endpoint and writes them to the ready file once everything answers."
          + " Ctrl-C or SIGTERM stops it; a restart with the same data dir keeps rows, topics,"
          + " schemas, offsets, tables and ports; the data dir may lie anywhere, also under /tmp.",
      "The console (stderr) shows Sluice's own log lines and every warning and error; every log"
          + " line, those of Debezium, Jetty and java.util.logging too, goes to <data"
          + " dir>/logs/sluice-up.log (rolled over at "
          + CommandLog.MAX_FILE_SIZE
          + "). --verbose shows them all on the console as well.",
      "With --prometheus it also runs a Prometheus server (Debian's `prometheus`, installed by"
          + " scripts/setup --prometheus) scraping the router, the capture, the upsert sink and the"
          + " monitor every second, with its config, data and log under <data dir>/prometheus/; the ready"
          + " file names it as prometheus_url.",
      "With --processes every component runs in a process of its own under this one as"
          + " supervisor (the broker, the registry, mariadbd, the router, a distributed Connect"
          + " worker that loads both sinks from plugin.path as compose's image does, the capture"
          + " and the monitor, then Prometheus with --prometheus), each logging to <data"
          + " dir>/logs/<component>.log (MariaDB to the supervisor's sluice-up.log, Prometheus to"
          + " <data dir>/prometheus/prometheus.log). The"
          + " ready file then also names each component's pid and state and the control API"
          + " (control_url): `sluice stack status|stop|kill|start <component>` stops, SIGKILLs"
          + " and restarts one, `sluice stack crash` SIGKILLs them all at once and starts them"
          + " again. No component outlives the supervisor, however it ends; a start stops what a"
          + " killed supervisor left running on the data dir, and a second supervisor on the same"
          + " data dir is refused.",
      "Scale-out (--processes only): --routers N runs N router instances of one application"
          + " (router, router-2, ...; the main topic's partitions shared among them),"
          + " --connect-workers N runs N workers of one Connect cluster (connect, connect-2, ...),"
          + " --sink-tasks N gives both sinks tasks.max=N. The ready file's `scale` says what runs."
    })
public final class UpCommand implements Callable<Integer> {
  /** The log of {@code sluice up}, relative to the data dir. */
  public static final Path LOG_FILE = StackOptions.LOG_FILE;

  private static final Logger log = LoggerFactory.getLogger(UpCommand.class);

  @Spec CommandSpec spec;

  @Option(
      names = "--data-dir",
      defaultValue = ".sluice/data",
      description = "Where the stack keeps its data and ports (default: ${DEFAULT-VALUE}).")
  Path dataDir;

  @Option(
      names = "--ready-file",
      description = "Write the endpoints here as one JSON object once everything answers.")
  Path readyFile;

  @Option(
      names = "--kafka-port",
      defaultValue = "0",
      description = "Kafka client port (default: the last one used with this data dir, or free).")
  int kafkaPort;

  @Option(
      names = "--registry-port",
      defaultValue = "0",
      description = "Schema registry port (default: the last one used, or free).")
  int registryPort;

  @Option(
      names = "--metrics-port",
      defaultValue = "0",
      description = "Router /metrics and /health port (default: the last one used, or free).")
  int metricsPort;

  @Option(
      names = "--mariadb-port",
      description = "MariaDB port on 127.0.0.1 (default: the stored one, else a free port).")
  int mariadbPort;

  @Option(
      names = "--capture-port",
      description =
          "Capture admin API port on 127.0.0.1 (default: the stored one, else a free port).")
  int capturePort;

  @Option(
      names = "--connect-port",
      description =
          "Kafka Connect REST port on 127.0.0.1 (default: the stored one, else a free port).")
  int connectPort;

  @Option(
      names = "--prometheus",
      description =
          "Also run Prometheus scraping every component once per second (stopped with the stack).")
  boolean prometheus;

  @Option(
      names = "--prometheus-binary",
      description =
          "The prometheus binary (default: $"
              + PrometheusServer.BINARY_ENV
              + ", else prometheus on the PATH). Implies --prometheus.")
  Path prometheusBinary;

  @Option(
      names = "--prometheus-port",
      description = "Prometheus port on 127.0.0.1 (default: the stored one, else a free port).")
  int prometheusPort;

  @Option(
      names = "--processes",
      description =
          "Run every component in a process of its own, supervised (see above); the default runs"
              + " them all in this JVM, which starts faster.")
  boolean processes;

  @Option(
      names = "--routers",
      defaultValue = "1",
      description = "With --processes: router instances, 1-3 (default: 1).")
  int routers;

  @Option(
      names = "--connect-workers",
      defaultValue = "1",
      description = "With --processes: Connect workers in one cluster, 1-3 (default: 1).")
  int connectWorkers;

  @Option(
      names = "--sink-tasks",
      defaultValue = "1",
      description = "With --processes: tasks.max of both sinks, 1-3 (default: 1).")
  int sinkTasks;

  @Option(
      names = "--verbose",
      description =
          "Show every log line on the console too, not only Sluice's own lines and the warnings"
              + " (the log file gets them either way).")
  boolean verbose;

  @Option(
      names = "--ready-timeout",
      defaultValue = "120",
      description = "Seconds every component together may take to answer (default: 120).")
  long readyTimeoutSeconds;

  @Option(
      names = "--router-config",
      paramLabel = "KEY=VALUE",
      description =
          "A router setting over the stack's own, e.g. dlq.topic.suffix=.quarantine; repeatable."
              + " Checked against the router's configuration (docs/configuration.md; Kafka Streams"
              + " settings with the streams. prefix) before anything starts; the sinks, the"
              + " monitor and the ready file follow the topic suffixes it sets. Recorded in the"
              + " ready file as router_config.")
  Map<String, String> routerConfig = new LinkedHashMap<>();

  @Option(
      names = "--sink-config",
      paramLabel = "KEY=VALUE",
      description =
          "An upsert sink setting over the stack's own, e.g. maintenance.enabled=false;"
              + " repeatable. Checked against the sink's configuration (docs/configuration.md)"
              + " before anything starts. Not the keys the stack sets: topics, topics.regex,"
              + " tasks.max, metrics.*, kafka.bootstrap.servers, schema.registry.url (the sink"
              + " decodes the wire Avro itself with the stack's registry), iceberg.catalog.*; the"
              + " topic"
              + " suffixes (clean.topic.suffix, dlq.topic.suffix) are the router's, set with"
              + " --router-config, and refused here unless equal. Recorded in the ready file as"
              + " sink_config.")
  Map<String, String> sinkConfig = new LinkedHashMap<>();

  @Override
  public Integer call() throws InterruptedException {
    checkPort("--kafka-port", kafkaPort);
    checkPort("--registry-port", registryPort);
    checkPort("--metrics-port", metricsPort);
    checkPort("--mariadb-port", mariadbPort);
    checkPort("--capture-port", capturePort);
    checkPort("--connect-port", connectPort);
    checkPort("--prometheus-port", prometheusPort);
    StackOptions options;
    try {
      options =
          new StackOptions(
              dataDir,
              new StackPorts.Requested(
                  kafkaPort,
                  registryPort,
                  metricsPort,
                  mariadbPort,
                  capturePort,
                  connectPort,
                  prometheusPort),
              readyFile,
              Duration.ofSeconds(readyTimeoutSeconds),
              prometheus || prometheusBinary != null,
              prometheusBinary,
              scale(),
              routerConfig,
              sinkConfig);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    // Open until the JVM exits: the stop in the shutdown hook logs into it too.
    CommandLog commandLog = CommandLog.open(options.dataDir().resolve(LOG_FILE), verbose);
    log.info(
        "Full log in {}{}",
        commandLog.file(),
        verbose ? "" : " (the console shows Sluice's lines and warnings; --verbose shows all)");
    if (processes) {
      return runProcesses(options, commandLog.file());
    }
    EmbeddedStack stack = new EmbeddedStack(options);
    CountDownLatch stopped = startUntilSignalled(stack::start, stack, STOP_LIMIT);
    printEndpoints(stack, options, commandLog.file());
    stopped.await();
    return 0;
  }

  private int runProcesses(StackOptions options, Path logFile) throws InterruptedException {
    ProcessStack stack;
    try {
      stack = new ProcessStack(options);
    } catch (StackStartException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
    CountDownLatch stopped = startUntilSignalled(stack::start, stack, PROCESSES_STOP_LIMIT);
    PrintWriter out = spec.commandLine().getOut();
    out.printf("Sluice process stack is up (data dir %s)%n", options.dataDir());
    stack
        .endpoints()
        .forEach(
            (key, value) -> {
              if (!(value instanceof java.util.Map)) {
                out.printf("  %-24s %s%n", key, value);
              }
            });
    for (ComponentStatus c : stack.status()) {
      out.printf("  %-10s pid %-8s log %s%n", c.name(), c.pid(), c.log());
    }
    if (options.readyFile() != null) {
      out.printf("  Ready file               %s%n", options.readyFile().toAbsolutePath());
    }
    out.printf("  Supervisor log           %s%n", logFile);
    out.println("`sluice stack status` lists the components; Ctrl-C stops them all.");
    out.flush();
    stopped.await();
    return 0;
  }

  private void printEndpoints(EmbeddedStack stack, StackOptions options, Path logFile) {
    StackLayout layout = stack.layout();
    PrintWriter out = spec.commandLine().getOut();
    out.printf("Sluice embedded stack is up (data dir %s)%n", options.dataDir());
    out.printf("  Kafka bootstrap servers  %s%n", stack.bootstrapServers());
    out.printf("  Schema registry          %s%n", stack.schemaRegistryUrl());
    out.printf("  Router metrics           %s%n", stack.routerMetricsUrl());
    out.printf("  Router health            %s%n", stack.routerHealthUrl());
    out.printf(
        "  MariaDB (JDBC)           %s (user %s)%n", stack.jdbcUrl(), EmbeddedMariaDb.APP_USER);
    out.printf("  Capture admin API        %s%n", stack.captureAdminUrl());
    out.printf("  Kafka Connect REST       %s%n", stack.connectUrl());
    out.printf("  Iceberg catalog          %s%n", stack.icebergCatalog().get("uri"));
    out.printf("  Iceberg warehouse        %s%n", stack.warehouse());
    Object sinkMetrics = stack.endpoints().get(ReadyFile.UPSERT_SINK_METRICS_URL);
    if (sinkMetrics != null) {
      out.printf("  Upsert sink metrics      %s%n", sinkMetrics);
    }
    out.printf("  Monitor metrics          %s%n", stack.monitorMetricsUrl());
    stack.prometheusUrl().ifPresent(url -> out.printf("  Prometheus               %s%n", url));
    out.printf("  Main topic               %s%n", layout.mainTopic());
    out.printf(
        "  Sinks                    %s -> %s, %s -> %s%n",
        layout.upsertSink(),
        layout.currentTable(),
        layout.changelogSink(),
        layout.changelogTable());
    if (options.readyFile() != null) {
      out.printf("  Ready file               %s%n", options.readyFile().toAbsolutePath());
    }
    out.printf("  Full log                 %s%n", logFile);
    out.println("Press Ctrl-C to stop.");
    out.flush();
  }

  private ProcessScale scale() {
    if (!processes && (routers != 1 || connectWorkers != 1 || sinkTasks != 1)) {
      throw new ParameterException(
          spec.commandLine(),
          "--routers, --connect-workers and --sink-tasks scale the process stack: add"
              + " --processes");
    }
    try {
      return new ProcessScale(routers, connectWorkers, sinkTasks);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage(), e);
    }
  }

  private void checkPort(String option, int port) {
    if (port < 0 || port > 65535) {
      throw new ParameterException(
          spec.commandLine(), option + " must be a TCP port (1-65535) or 0, got " + port);
    }
  }

  /** How long Ctrl-C or SIGTERM waits for a clean stop before it kills the stack's processes. */
  static final Duration STOP_LIMIT = Duration.ofSeconds(45);

  /** The same for {@code --processes}: each component there has a grace period of its own. */
  static final Duration PROCESSES_STOP_LIMIT = Duration.ofSeconds(120);

  /**
   * Runs {@code start} with a shutdown hook that closes {@code stack} on Ctrl-C or SIGTERM, also
   * while it is still starting; the latch opens once the hook has closed it.
   */
  private static CountDownLatch startUntilSignalled(
      Runnable start, AutoCloseable stack, Duration limit) {
    CountDownLatch stopped = new CountDownLatch(1);
    Thread hook =
        new Thread(
            () -> {
              // A stop that hangs must not keep the JVM (and MariaDB) alive: past the limit,
              // BoundedStop logs the stuck threads, kills the stack's processes, and we halt.
              if (!BoundedStop.stop(stack, limit, () -> Runtime.getRuntime().halt(143))) {
                return;
              }
              stopped.countDown();
            },
            "sluice-up-shutdown");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      start.run();
    } catch (RuntimeException e) {
      removeHook(hook);
      throw e;
    }
    return stopped;
  }

  private static void removeHook(Thread hook) {
    try {
      Runtime.getRuntime().removeShutdownHook(hook);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down; the hook is running and stops the stack.
    }
  }
}
