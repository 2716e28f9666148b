package io.sluice.tools.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

class OperatorCliTest {

  @Test
  void helpListsTheOperatorsCommandsAndNoDeveloperCommand() {
    StringWriter out = new StringWriter();
    CommandLine cli = OperatorCli.commandLine();
    cli.setOut(new PrintWriter(out, true));

    assertThat(cli.execute("--help")).isZero();

    assertThat(out.toString())
        .startsWith("Usage: sluice ")
        .contains("  dlq ", "  table ", "  reconcile ", "  monitor ")
        .doesNotContain("  up ", "  verify ", "  bench ", "  load ");
  }

  @Test
  void aFailingCommandPrintsOneLineNamingItAndExitsWithOne() {
    StringWriter err = new StringWriter();
    CommandLine cli = OperatorCli.commandLine();
    cli.setErr(new PrintWriter(err, true));

    int exit = cli.execute("table", "scan", "cdc_lab.orders_current", "--ready-file", "no.json");

    assertThat(exit).isEqualTo(1);
    assertThat(err.toString().strip())
        .startsWith("sluice table scan: no ready file at ")
        .contains("scripts/sluice up --ready-file no.json")
        .doesNotContain("\n");
  }
}
