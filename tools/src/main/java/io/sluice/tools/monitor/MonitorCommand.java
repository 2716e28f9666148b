package io.sluice.tools.monitor;

import io.sluice.tools.cli.ReadyFile;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code sluice monitor}: runs a {@link PipelineMonitor} until SIGTERM or Ctrl-C. Also a main class
 * of its own, for the compose image: {@code java ... io.sluice.tools.monitor.MonitorCommand
 * --bootstrap-servers kafka:19092}.
 */
@Command(
    name = "monitor",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Serves Prometheus metrics derived from Kafka: DLQ backlog, oldest unrepaired age, records"
          + " repaired/replayed, consumer-group lag.",
      "Each refresh finds the DLQ topics (--dlq-topic-pattern; ledgers <dlq>.repairs never), reads"
          + " their new records and their ledger's, and the lag of the matching groups. It reads"
          + " read_committed without a consumer group and commits nothing.",
      "Metrics: sluice_dlq_records, sluice_dlq_backlog_records,"
          + " sluice_dlq_oldest_unrepaired_age_seconds, sluice_dlq_records_handled_total{action},"
          + " sluice_dlq_unreadable_records_total{kind} (labels topic, dlq_topic);"
          + " sluice_consumer_group_lag_records{group,topic};"
          + " sluice_monitor_last_refresh_timestamp_seconds, sluice_monitor_refresh_failures_total.",
      "Runs until SIGTERM or Ctrl-C; GET /health is 200 while refreshes succeed."
    })
public final class MonitorCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = {"--bootstrap-servers", "--bootstrap-server"},
      paramLabel = "HOST:PORT",
      description = "Kafka bootstrap servers; overrides the ready file.")
  String bootstrapServers;

  @Option(
      names = "--ready-file",
      paramLabel = "FILE",
      defaultValue = ".sluice/ready.json",
      description =
          "Ready file of `sluice up` to take bootstrap_servers from (default: ${DEFAULT-VALUE}).")
  Path readyFile;

  @Option(
      names = "--dlq-topic-pattern",
      paramLabel = "REGEX",
      defaultValue = MonitorSettings.DEFAULT_DLQ_TOPIC_PATTERN,
      description =
          "Java regex of the DLQ topics to watch, matched against the whole name (default:"
              + " ${DEFAULT-VALUE}).")
  String dlqTopicPattern;

  @Option(
      names = "--group-pattern",
      paramLabel = "REGEX",
      defaultValue = MonitorSettings.DEFAULT_GROUP_PATTERN,
      description =
          "Java regex of the consumer groups whose lag is reported (default: ${DEFAULT-VALUE},"
              + " every group; the Iceberg sinks are connect-sluice-upsert-sink and"
              + " connect-sluice-changelog-sink).")
  String groupPattern;

  @Option(
      names = "--interval",
      paramLabel = "SECONDS",
      defaultValue = "5",
      description = "Seconds between two refreshes, at least 0.1 (default: ${DEFAULT-VALUE}).")
  double intervalSeconds;

  @Option(
      names = "--metrics-host",
      paramLabel = "HOST",
      defaultValue = MonitorSettings.DEFAULT_METRICS_HOST,
      description =
          "Address /metrics and /health bind to (default: ${DEFAULT-VALUE}; 0.0.0.0 for all).")
  String metricsHost;

  @Option(
      names = "--metrics-port",
      paramLabel = "PORT",
      defaultValue = "0",
      description = "Port of /metrics and /health; 0 picks a free one (default: ${DEFAULT-VALUE}).")
  int metricsPort;

  public static void main(String[] args) {
    System.exit(new CommandLine(new MonitorCommand()).execute(args));
  }

  @Override
  public Integer call() throws InterruptedException {
    MonitorSettings settings = settings();
    PipelineMonitor monitor;
    try {
      monitor = PipelineMonitor.start(settings);
    } catch (UncheckedIOException e) {
      throw new ParameterException(
          spec.commandLine(), e.getMessage() + " (" + e.getCause().getMessage() + ")", e);
    }
    CountDownLatch stopped = new CountDownLatch(1);
    Runtime.getRuntime()
        .addShutdownHook(
            new Thread(
                () -> {
                  monitor.close();
                  stopped.countDown();
                },
                "sluice-monitor-shutdown"));
    PrintWriter out = spec.commandLine().getOut();
    out.printf("Sluice monitor on %s%n", settings.bootstrapServers());
    out.printf("  Metrics  %s%n", monitor.metricsUrl());
    out.printf("  Health   %s%n", monitor.healthUrl());
    out.printf(
        "  DLQ topics matching %s, lag of groups matching %s, every %s s%n",
        settings.dlqTopicPattern(), settings.groupPattern(), intervalSeconds);
    out.println("Press Ctrl-C to stop.");
    out.flush();
    stopped.await();
    return 0;
  }

  /**
   * The settings the parsed options give (the broker from the ready file when no flag names it).
   *
   * @throws ParameterException naming the option whose value is bad or the endpoint that is missing
   */
  public MonitorSettings settings() {
    String bootstrap = bootstrapServers;
    if (bootstrap == null) {
      ReadyFile ready = new ReadyFile(readyFile, spec.commandLine());
      bootstrap = ReadyFile.text(ready.read(true), ReadyFile.BOOTSTRAP_SERVERS);
      if (bootstrap == null) {
        throw ready.missing("--bootstrap-servers", ReadyFile.BOOTSTRAP_SERVERS);
      }
    }
    if (!(intervalSeconds >= 0.1) || intervalSeconds > 86_400) {
      throw new ParameterException(
          spec.commandLine(),
          "--interval must be between 0.1 and 86400 seconds, got " + intervalSeconds);
    }
    if (metricsPort < 0 || metricsPort > 65535) {
      throw new ParameterException(
          spec.commandLine(),
          "--metrics-port must be a TCP port (1-65535) or 0, got " + metricsPort);
    }
    String servers = bootstrap;
    MonitorSettings defaults =
        checked("--bootstrap-servers", () -> MonitorSettings.defaults(servers));
    MonitorSettings dlq =
        checked("--dlq-topic-pattern", () -> defaults.withDlqTopicPattern(dlqTopicPattern));
    MonitorSettings groups = checked("--group-pattern", () -> dlq.withGroupPattern(groupPattern));
    MonitorSettings metrics =
        checked("--metrics-host", () -> groups.withMetrics(metricsHost, metricsPort));
    return metrics.withRefreshInterval(Duration.ofMillis(Math.round(intervalSeconds * 1000)));
  }

  private MonitorSettings checked(String option, Supplier<MonitorSettings> settings) {
    try {
      return settings.get();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage(), e);
    }
  }
}
