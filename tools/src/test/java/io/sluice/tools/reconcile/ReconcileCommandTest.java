package io.sluice.tools.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.tools.cli.OperatorCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class ReconcileCommandTest {
  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    CommandLine cli = OperatorCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    return cli.execute(args);
  }

  @Test
  void allWithTableIsAUsageError() {
    int exit = run("reconcile", "--all", "--table", "cdc_lab.orders", "--ready-file", "no.json");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString())
        .startsWith("--all and --table are mutually exclusive: --all reconciles every table");
  }

  @Test
  void allWithIcebergTableIsAUsageError() {
    int exit = run("reconcile", "--all", "--iceberg-table", "a.b", "--ready-file", "no.json");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).startsWith("--all and --iceberg-table are mutually exclusive");
  }

  @Test
  void databaseWithoutAllIsAUsageError() {
    int exit = run("reconcile", "--database", "cdc_lab", "--ready-file", "no.json");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).startsWith("--database needs --all;");
  }

  @Test
  void aNegativeReportRowsIsAUsageError() {
    int exit =
        run("reconcile", "--report-rows", "-1", "--output", "r.json", "--ready-file", "no.json");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString())
        .startsWith("--report-rows must be 0 or more, got -1; 0 lists no rows, counts only");
  }

  @Test
  void reportRowsWithoutOutputIsAUsageError() {
    int exit = run("reconcile", "--report-rows", "5", "--ready-file", "no.json");

    assertThat(exit).isEqualTo(2);
    assertThat(err.toString()).startsWith("--report-rows needs --output: only the JSON lists rows");
  }

  @Test
  void helpNamesReportRowsAndItsDefault() {
    assertThat(run("reconcile", "--help")).isZero();

    assertThat(out.toString().replaceAll("\\s+", " "))
        .contains("--report-rows=N", "as mysql_rows and iceberg_rows", "(default: 1000)");
  }

  @Test
  void helpExplainsAllAndDatabase() {
    assertThat(run("reconcile", "--help")).isZero();

    assertThat(out.toString())
        .contains("--all", "--database=NAME", "<db>.<table>_current", "changelog-only");
  }
}
