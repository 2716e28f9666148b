package io.sluice.lab.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
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
