package io.sluice.tools.monitor;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.contract.ReadyFile;
import io.sluice.contract.TopicNames;
import io.sluice.tools.cli.CommandReadyFile;
import io.sluice.tools.cli.TopicSuffixOptions;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
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
      "Serves Prometheus metrics derived from Kafka: DLQ records and inputs, backlog, oldest"
          + " unrepaired age, records repaired/replayed, consumer-group lag; and, given an Iceberg catalog, each table's"
          + " commits and current totals read from its metadata.",
      "Each refresh finds the DLQ topics (every topic ending with the router's DLQ suffix:"
          + " --dlq-suffix, else the ready file's topics.dlq_suffix, else .dlq; or"
          + " --dlq-topic-pattern; ledgers <dlq>.repairs never), reads their new records and their"
          + " ledger's, and the lag of the matching groups. It reads read_committed without a"
          + " consumer group and commits nothing.",
      "The Iceberg part (--catalog, or the ready file's iceberg_catalog) lists the tables"
          + " (--iceberg-table, default all) every --iceberg-interval seconds and re-reads each"
          + " one's metadata: no manifest or data file is read, nothing is written.",
      "DLQ inputs and backlog count quarantined inputs, as `sluice dlq` acts on them: a second"
          + " DLQ record a zombie sink task wrote of an input is one more record, no second input.",
      "Metrics: sluice_dlq_records, sluice_dlq_inputs, sluice_dlq_backlog_records,"
          + " sluice_dlq_oldest_unrepaired_age_seconds, sluice_dlq_records_handled_total{action},"
          + " sluice_dlq_unreadable_records_total{kind} (labels topic, dlq_topic);"
          + " sluice_consumer_group_lag_records{group,topic};"
          + " sluice_monitor_last_refresh_timestamp_seconds, sluice_monitor_refresh_failures_total;"
          + " per Iceberg table (label table): sluice_iceberg_table_last_commit_timestamp_seconds,"
          + " sluice_iceberg_table_snapshots, sluice_iceberg_table_commits_total{operation},"
          + " sluice_iceberg_table_records, sluice_iceberg_table_data_files,"
          + " sluice_iceberg_table_delete_files, sluice_iceberg_table_equality_deletes,"
          + " sluice_iceberg_table_load_failures_total; sluice_iceberg_last_refresh_timestamp_seconds,"
          + " sluice_iceberg_refresh_failures_total.",
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
          "Ready file of `sluice up` to take bootstrap_servers, iceberg_catalog and the topic"
              + " suffixes (topics) from (default: ${DEFAULT-VALUE}).")
  Path readyFile;

  @Mixin TopicSuffixOptions suffixes;

  @Option(
      names = "--dlq-topic-pattern",
      paramLabel = "REGEX",
      description =
          "Java regex of the DLQ topics to watch, matched against the whole name (default: every"
              + " name ending with the DLQ suffix, .+\\.dlq by default).")
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

  @Option(
      names = "--catalog",
      paramLabel = "KEY=VALUE",
      description =
          "An Iceberg catalog property as CatalogUtil.buildIcebergCatalog takes it (name, type,"
              + " uri, warehouse, io-impl, s3.endpoint, ...); repeat for each. With --catalog the"
              + " ready file's iceberg_catalog is not used.")
  Map<String, String> catalog = new LinkedHashMap<>();

  @Option(
      names = "--iceberg-table",
      paramLabel = "NAMESPACE[.TABLE]",
      description =
          "A namespace (its tables) or a table to watch; repeat for each (default: every table of"
              + " every namespace, listed again at each refresh).")
  List<String> icebergTables = new ArrayList<>();

  @Option(
      names = "--iceberg-interval",
      paramLabel = "SECONDS",
      defaultValue = "10",
      description =
          "Seconds between two reads of the Iceberg tables' metadata, at least 0.1 (default:"
              + " ${DEFAULT-VALUE}).")
  double icebergIntervalSeconds;

  @Option(
      names = "--no-iceberg",
      description = "No Iceberg metrics, even when the ready file names a catalog.")
  boolean noIceberg;

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
    IcebergSettings lake = settings.iceberg();
    if (lake.enabled()) {
      out.printf(
          "  Iceberg tables %s of catalog %s, every %s s%n",
          lake.tables().isEmpty() ? "(all)" : String.join(", ", lake.tables()),
          lake.describeCatalog(),
          icebergIntervalSeconds);
    }
    out.println("Press Ctrl-C to stop.");
    out.flush();
    stopped.await();
    return 0;
  }

  /**
   * The settings the parsed options give (the broker from the ready file when no flag names it; the
   * Iceberg catalog from the ready file when no --catalog does and --no-iceberg is not given).
   *
   * @throws ParameterException naming the option whose value is bad or the endpoint that is missing
   */
  public MonitorSettings settings() {
    CommandReadyFile ready = new CommandReadyFile(readyFile, spec.commandLine());
    JsonNode readyObject = ready.read(bootstrapServers == null);
    TopicNames names = suffixes.resolve(ready, readyObject, spec.commandLine());
    String bootstrap = bootstrapServers;
    if (bootstrap == null) {
      bootstrap = ReadyFile.text(readyObject, ReadyFile.BOOTSTRAP_SERVERS);
      if (bootstrap == null) {
        throw ready.missing("--bootstrap-servers", ReadyFile.BOOTSTRAP_SERVERS);
      }
    }
    checkInterval("--interval", intervalSeconds);
    checkInterval("--iceberg-interval", icebergIntervalSeconds);
    if (noIceberg && !catalog.isEmpty()) {
      throw new ParameterException(
          spec.commandLine(), "--no-iceberg and --catalog contradict each other: give one");
    }
    if (metricsPort < 0 || metricsPort > 65535) {
      throw new ParameterException(
          spec.commandLine(),
          "--metrics-port must be a TCP port (1-65535) or 0, got " + metricsPort);
    }
    String servers = bootstrap;
    MonitorSettings defaults =
        checked("--bootstrap-servers", () -> MonitorSettings.defaults(servers));
    MonitorSettings topics = defaults.withTopicNames(names);
    MonitorSettings dlq =
        dlqTopicPattern == null
            ? topics
            : checked("--dlq-topic-pattern", () -> topics.withDlqTopicPattern(dlqTopicPattern));
    MonitorSettings groups = checked("--group-pattern", () -> dlq.withGroupPattern(groupPattern));
    MonitorSettings metrics =
        checked("--metrics-host", () -> groups.withMetrics(metricsHost, metricsPort));
    Map<String, String> lake = noIceberg ? null : icebergCatalog(readyObject);
    String lakeOption =
        catalog.isEmpty() ? "--ready-file's " + ReadyFile.ICEBERG_CATALOG : "--catalog";
    MonitorSettings withCatalog = checked(lakeOption, () -> metrics.withIcebergCatalog(lake));
    MonitorSettings tables =
        checked("--iceberg-table", () -> withCatalog.withIcebergTables(icebergTables));
    return tables
        .withRefreshInterval(Duration.ofMillis(Math.round(intervalSeconds * 1000)))
        .withIcebergRefreshInterval(Duration.ofMillis(Math.round(icebergIntervalSeconds * 1000)));
  }

  /** The --catalog flags, else the ready file's catalog object; null when neither names one. */
  private Map<String, String> icebergCatalog(JsonNode readyObject) {
    if (!catalog.isEmpty()) {
      return catalog;
    }
    JsonNode object = readyObject == null ? null : readyObject.get(ReadyFile.ICEBERG_CATALOG);
    if (object == null || !object.isObject()) {
      return null;
    }
    Map<String, String> properties = new LinkedHashMap<>();
    object
        .fields()
        .forEachRemaining(
            e -> {
              if (e.getValue().isValueNode() && !e.getValue().isNull()) {
                properties.put(e.getKey(), e.getValue().asText());
              }
            });
    return properties;
  }

  private void checkInterval(String option, double seconds) {
    if (!(seconds >= 0.1) || seconds > 86_400) {
      throw new ParameterException(
          spec.commandLine(), option + " must be between 0.1 and 86400 seconds, got " + seconds);
    }
  }

  private MonitorSettings checked(String option, Supplier<MonitorSettings> settings) {
    try {
      return settings.get();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), option + ": " + e.getMessage(), e);
    }
  }
}
