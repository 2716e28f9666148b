package io.sluice.scenarios.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.RunContext;
import io.sluice.scenarios.RunHeader.StackFolder;
import io.sluice.scenarios.ScenarioEndpoints;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.StepChain;
import io.sluice.scenarios.TableDrift;
import io.sluice.scenarios.VerifyScenario;
import io.sluice.scenarios.poison.PoisonCheck;
import io.sluice.stack.ProcessScale;
import io.sluice.stack.logging.CommandLog;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.TableOutcome;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

class VerifyCommandTest {
  @TempDir Path reports;

  @Test
  void theReportsCommandNamesVerifyOnceWhetherItRanUnderSluiceOrAlone() {
    assertThat(VerifyCommand.commandText(List.of("verify", "--failure", "poison-dlq")))
        .isEqualTo("sluice verify --failure poison-dlq");
    assertThat(VerifyCommand.commandText(List.of("--failure", "poison-dlq", "--seed", "7")))
        .isEqualTo("sluice verify --failure poison-dlq --seed 7");
    assertThat(VerifyCommand.commandText(List.of())).isEqualTo("sluice verify");
  }

  @Test
  void helpListsEveryFailureClass() {
    Result help = execute("--help");

    assertThat(help.exit()).isZero();
    assertThat(help.out().replaceAll("\\s+", " "))
        .contains(
            "one of: poison-dlq, sink-poison, router-crash, sink-crash, capture-restart,"
                + " broker-restart, registry-outage, stack-crash, schema-change, delete-storm, scale-out.")
        .contains("--all", "matrix-<run>.json")
        .contains("The sink-poison scenario");
  }

  @Test
  void anUnknownFailureClassIsAUsageErrorNamingTheKnownOnes() {
    Result run = execute("--failure", "disk-full", "--report-dir", reports.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out())
        .contains(
            "unknown --failure 'disk-full'; known: [poison-dlq, sink-poison, router-crash,"
                + " sink-crash, capture-restart, broker-restart, registry-outage, stack-crash,"
                + " schema-change, delete-storm, scale-out]");
  }

  @Test
  void allAndFailureTogetherOrNeitherIsAUsageError() {
    Result both = execute("--all", "--failure", "poison-dlq", "--report-dir", reports.toString());
    Result neither = execute("--report-dir", reports.toString());

    assertThat(both.exit()).isEqualTo(2);
    assertThat(both.out()).contains("give one of --failure CLASS or --all");
    assertThat(neither.exit()).isEqualTo(2);
    assertThat(neither.out()).contains("give one of --failure CLASS or --all");
    assertThat(reports).isEmptyDirectory();
  }

  @Test
  void faultsOutsideTheWorkloadAreAUsageErrorNamingTheBound() {
    Result run =
        execute(
            "--failure",
            "router-crash",
            "--faults",
            "5",
            "--rounds",
            "5",
            "--report-dir",
            reports.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).contains("--faults must be between 1 and the workload's rounds - 1 (4)");
    assertThat(reports).isEmptyDirectory();
  }

  @Test
  void anOutageOfNoSecondsIsAUsageErrorBeforeAnythingRuns() {
    Result run =
        execute(
            "--failure", "registry-outage", "--outage", "0", "--report-dir", reports.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).contains("--outage must be at least 1 second, got 0");
    assertThat(reports).isEmptyDirectory();
  }

  @Test
  void skipRepairIsRefusedForSinkPoison() {
    Result run =
        execute("--failure", "sink-poison", "--skip-repair", "--report-dir", reports.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out()).contains("--skip-repair is for --failure poison-dlq only");
  }

  @Test
  void aNegativeReportRowsIsAUsageErrorBeforeAnythingRuns() {
    Result run =
        execute(
            "--failure", "poison-dlq", "--report-rows", "-5", "--report-dir", reports.toString());

    assertThat(run.exit()).isEqualTo(2);
    assertThat(run.out())
        .contains("--report-rows must be 0 or more, got -5; 0 lists no rows, counts only");
    assertThat(reports).isEmptyDirectory();
  }

  @Test
  void helpNamesReportRowsAndWhatRedactLeavesIn() {
    Result help = execute("--help");

    assertThat(help.out().replaceAll("\\s+", " "))
        .contains("--report-rows=N", "as mysql_rows and iceberg_rows", "(default: 1000)")
        .contains("The reconciliation's rows are source data, not payloads, and stay");
  }

  @Test
  void aFailedRunKeepsTheThrowawayStacksDataDirAndLogsAndSaysWhere() throws IOException {
    Run run = verify(new VerifyCommand(VerifyCommandTest::standInStack, failingBaseline()));

    assertThat(run.exit()).isEqualTo(1);
    Path folder = stackFolder();
    Path logs = folder.resolve("data").resolve("logs");
    assertThat(logs.resolve("connect.log")).content().contains("WARN the stand-in worker");
    // The stack's own log holds what was logged while it ran, the failed step's line included.
    assertThat(logs.resolve("sluice-up.log"))
        .content()
        .contains("stand-in baseline on 127.0.0.1:1");
    assertThat(run.err())
        .contains(
            "a run failed; the throwaway stack's data dir and logs are kept in "
                + folder
                + " (one log per component in "
                + logs
                + ")");
    assertThat(run.out()).contains("stack:  " + folder + " (kept: data dir and logs)");
    assertThat(run.out())
        .contains(
            "drift in phase baseline: cdc_lab.customers drift, 1 differing rows (the report's"
                + " table_drift lists the rows)");
    JsonNode report = report();
    assertThat(report.path("evidence_dir").asText()).isEqualTo(folder.toString());
    assertThat(report.path("stack_logs").asText()).isEqualTo(logs.toString());
    assertThat(Path.of(report.path("logs").asText())).exists();
    JsonNode customers = report.path("table_drift").path("baseline").path(0);
    assertThat(customers.path("table").asText()).isEqualTo("cdc_lab.customers");
    assertThat(customers.path("missing_from_actual").path(0).asText())
        .isEqualTo("{\"customer_id\":\"7\"}");
  }

  @Test
  void aStackThatDidNotStartIsKeptWithItsLogs() throws IOException {
    StackStarterThatFails starter = new StackStarterThatFails();
    Run run = verify(new VerifyCommand(starter, failingBaseline()));

    assertThat(run.exit()).isEqualTo(1);
    Path folder = stackFolder();
    assertThat(folder.resolve("data").resolve("logs").resolve("broker.log"))
        .content()
        .contains("ERROR the stand-in broker");
    assertThat(run.err()).contains("the throwaway stack's data dir and logs are kept in " + folder);
    JsonNode report = report();
    assertThat(report.path("summary").path("failure").asText())
        .isEqualTo("the embedded stack did not start: port in use");
    assertThat(report.path("evidence_dir").asText()).isEqualTo(folder.toString());
  }

  @Test
  void aPassedRunRemovesItsThrowawayStack() throws IOException {
    Run run =
        verify(new VerifyCommand(VerifyCommandTest::standInStack, (c, seed) -> new StandIn(false)));

    assertThat(run.exit()).isZero();
    try (Stream<Path> left = Files.list(reports)) {
      assertThat(left.map(p -> p.getFileName().toString()))
          .noneMatch(name -> name.startsWith("stack-"));
    }
    assertThat(run.err()).doesNotContain("kept");
    assertThat(report().path("evidence_dir").isNull()).isTrue();
    assertThat(report().path("table_drift").isEmpty()).isTrue();
  }

  private Run verify(VerifyCommand command) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(command);
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute("--failure", "poison-dlq", "--report-dir", reports.toString());
    return new Run(exit, out.toString(), err.toString());
  }

  private Path stackFolder() throws IOException {
    try (Stream<Path> listed = Files.list(reports)) {
      List<Path> folders =
          listed.filter(p -> p.getFileName().toString().startsWith("stack-")).toList();
      assertThat(folders).as("kept stack folders in %s", reports).hasSize(1);
      return folders.get(0);
    }
  }

  private JsonNode report() throws IOException {
    try (Stream<Path> files = Files.list(reports)) {
      Path file =
          files.filter(p -> p.getFileName().toString().endsWith(".json")).findFirst().orElseThrow();
      return new ObjectMapper().readTree(file.toFile());
    }
  }

  private record Run(int exit, String out, String err) {}

  private static final ScenarioEndpoints ENDPOINTS =
      new ScenarioEndpoints(
          "127.0.0.1:1",
          "http://127.0.0.1:2",
          "http://127.0.0.1:3",
          "jdbc:mariadb://127.0.0.1:4/cdc_lab",
          "root",
          "",
          "http://127.0.0.1:5",
          Map.of(),
          null,
          null,
          List.of("http://127.0.0.1:3"));

  /** A stack that "runs": its folder holds a component log and the stack's own log. */
  private static ThrowawayStack standInStack(
      Path folder, ProcessScale processes, Consumer<String> progress) {
    StackFolder stack = ThrowawayStack.folderOf(folder);
    writeLog(stack, "connect.log", "WARN the stand-in worker lost its coordinator\n");
    CommandLog log = CommandLog.open(stack.logs().resolve("sluice-up.log"), true);
    return new ThrowawayStack(stack, () -> {}, ENDPOINTS, null, log, progress);
  }

  /** A stack whose broker did not start: it left its log, as a real one would. */
  private static final class StackStarterThatFails implements VerifyCommand.StackStarter {
    @Override
    public ThrowawayStack start(Path folder, ProcessScale processes, Consumer<String> progress) {
      StackFolder stack = ThrowawayStack.folderOf(folder);
      writeLog(stack, "broker.log", "ERROR the stand-in broker cannot bind 127.0.0.1:1\n");
      return new ThrowawayStack(
          stack, null, null, "the embedded stack did not start: port in use", null, progress);
    }
  }

  private static void writeLog(StackFolder stack, String name, String line) {
    try {
      Files.createDirectories(stack.logs());
      Files.writeString(stack.logs().resolve(name), line);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static VerifyCommand.ScenarioFactory failingBaseline() {
    return (failureClass, seed) -> new StandIn(true);
  }

  /**
   * A scenario whose baseline step passes, or fails as a baseline wait that timed out does: with
   * the drifting table's differing row.
   */
  private record StandIn(boolean fails) implements VerifyScenario {
    @Override
    public String failureClass() {
      return "poison-dlq";
    }

    @Override
    public String claimBoundary(String stack) {
      return "a stand-in run on " + stack;
    }

    @Override
    public Findings run(ScenarioEndpoints endpoints, RunContext context) {
      StepChain<Object, Object> end =
          StepChain.<Object, Object>start("poison-dlq", context.progress(), "plan")
              .then(
                  "baseline",
                  "seeding the stand-in baseline",
                  plan -> {
                    LoggerFactory.getLogger(StandIn.class)
                        .info("stand-in baseline on {}", endpoints.bootstrapServers());
                    if (fails) {
                      throw new ScenarioFailure(
                          "not every source table reached the lake within 120 s:"
                              + " cdc_lab.customers drift",
                          TableDrift.drifting(List.of(customersMissingOneRow()), 10));
                    }
                    return plan;
                  })
              .complete();
      Map<PoisonCheck, Boolean> all = new EnumMap<>(PoisonCheck.class);
      for (PoisonCheck check : PoisonCheck.values()) {
        all.put(check, !fails);
      }
      return Findings.builder(PoisonCheck.class)
          .proved(all)
          .build(end.phase(), end.failure().orElse(null), !fails, !fails);
    }

    @Override
    public Findings notRun(String phase, String reason) {
      return Findings.builder(PoisonCheck.class)
          .build(phase, new StepChain.Failure(phase, reason), false, false);
    }

    private static TableOutcome customersMissingOneRow() {
      return new TableOutcome(
          "cdc_lab.customers",
          "cdc_lab.customers_current",
          TableOutcome.Status.DRIFT,
          null,
          new ReconcileResult(
              List.of("customer_id"),
              List.of("customer_id"),
              1,
              0,
              List.of(),
              List.of(),
              "aa",
              "bb",
              List.of("{\"customer_id\":\"7\"}"),
              List.of(),
              1));
    }
  }

  private record Result(int exit, String out) {}

  private static Result execute(String... args) {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new VerifyCommand());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(out, true));
    int exit = cli.execute(args);
    return new Result(exit, out.toString());
  }
}
