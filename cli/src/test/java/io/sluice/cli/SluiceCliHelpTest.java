package io.sluice.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;

class SluiceCliHelpTest {

  /** Every command path, e.g. ["bench", "router"], found by walking the command tree. */
  static List<List<String>> commands() {
    List<List<String>> paths = new ArrayList<>();
    collect(SluiceCli.commandLine(), new ArrayList<>(), paths);
    return paths;
  }

  private static void collect(CommandLine cli, List<String> path, List<List<String>> paths) {
    paths.add(List.copyOf(path));
    cli.getSubcommands()
        .forEach(
            (name, sub) -> {
              if (!name.equals("help")) {
                List<String> next = new ArrayList<>(path);
                next.add(name);
                collect(sub, next, paths);
              }
            });
  }

  @Test
  void theCommandTreeHasEveryDocumentedCommand() {
    assertThat(commands())
        .contains(
            List.of("up"),
            List.of("config-docs"),
            List.of("bench"),
            List.of("bench", "router"),
            List.of("bench", "validate"),
            List.of("bench", "sink"),
            List.of("table"),
            List.of("table", "scan"),
            List.of("table", "snapshots"));
  }

  @Test
  void everyOperatorCommandIsACommandOfTheDevelopersCliToo() {
    CommandLine operator = io.sluice.tools.cli.OperatorCli.commandLine();
    assertThat(operator.getSubcommands().keySet())
        .containsExactly("dlq", "table", "reconcile", "monitor", "help");
    assertThat(SluiceCli.commandLine().getSubcommands().keySet())
        .containsAll(operator.getSubcommands().keySet())
        .contains("up", "load", "verify", "config-docs", "bench");
  }

  @ParameterizedTest
  @MethodSource("commands")
  void everyCommandPrintsItsUsageAndDescriptionOnHelp(List<String> path) {
    List<String> args = new ArrayList<>(path);
    args.add("--help");

    Captured run = run(args.toArray(String[]::new));

    assertThat(run.exitCode).isZero();
    assertThat(run.out)
        .startsWith("Usage: sluice" + (path.isEmpty() ? "" : " " + String.join(" ", path)));
    assertThat(run.out).contains("-h, --help");
    String description = description(path);
    assertThat(description).as("description of %s", path).isNotBlank();
    assertThat(run.out).contains(description.substring(0, Math.min(40, description.length())));
  }

  @ParameterizedTest
  @MethodSource("commands")
  void everyHelpTextRendersWithoutAWarning(List<String> path) {
    // picocli formats each help line (for %n); a lone '%' makes it warn on stderr and print the
    // raw text.
    CommandLine cli = SluiceCli.commandLine();
    for (String name : path) {
      cli = cli.getSubcommands().get(name);
    }
    PrintStream stderr = System.err;
    ByteArrayOutputStream warnings = new ByteArrayOutputStream();
    System.setErr(new PrintStream(warnings, true, StandardCharsets.UTF_8));
    try {
      cli.getUsageMessage();
    } finally {
      System.setErr(stderr);
    }
    assertThat(warnings.toString(StandardCharsets.UTF_8)).as("stderr of %s --help", path).isEmpty();
  }

  @Test
  void upHelpListsItsOptions() {
    Captured run = run("up", "--help");

    assertThat(run.out)
        .contains(
            "--data-dir", "--ready-file", "--kafka-port", "--registry-port", "--metrics-port");
  }

  @Test
  void benchRouterRequiresRecords() {
    Captured run = run("bench", "router");

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err).contains("Missing required option: '--records=<records>'");
  }

  @Test
  void upHelpListsTheConnectPort() {
    assertThat(run("up", "--help").out).contains("--connect-port");
  }

  @Test
  void tableScanRequiresATableAndNamesTheCatalogOptions() {
    Captured help = run("table", "scan", "--help");
    assertThat(help.out)
        .contains("--ready-file", "--catalog-uri", "--warehouse", "--limit", "--format");

    Captured run = run("table", "scan");
    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err).contains("Missing required parameter: 'TABLE'");
  }

  @Test
  void tableScanWithoutAReadyFileSaysHowToGetOne() {
    Captured run = run("table", "scan", "cdc_lab.orders_current", "--ready-file", "no/such.json");

    assertThat(run.exitCode).isEqualTo(1);
    assertThat(run.err)
        .contains("table scan: no ready file at")
        .contains("scripts/sluice up --ready-file no/such.json");
  }

  @Test
  void benchSinkRequiresRecordsAndKeys() {
    Captured run = run("bench", "sink");

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err).contains("Missing required options").contains("--records", "--keys");
  }

  @Test
  void verifyNamesAnUnknownEndpointKeyBeforeStartingAnything() {
    Captured run = run("verify", "--failure", "poison-dlq", "--endpoint", "kafka=127.0.0.1:9092");

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err)
        .contains("unknown --endpoint key 'kafka'")
        .contains("bootstrap_servers", "capture_admin_url");
  }

  @Test
  void verifyWithFlagsOnlyNamesTheMissingEndpoint() {
    Captured run =
        run("verify", "--failure", "poison-dlq", "--endpoint", "bootstrap_servers=127.0.0.1:9092");

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err).contains("no iceberg_catalog endpoint").contains("--catalog uri=");
  }

  @Test
  void anUnknownCommandIsAUsageError() {
    Captured run = run("upp");

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err).contains("Unmatched argument at index 0: 'upp'");
  }

  @Test
  void aBadPortIsRejectedBeforeAnythingStarts() {
    Captured run = run("up", "--kafka-port", "70000");

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err).contains("--kafka-port must be a TCP port (1-65535) or 0, got 70000");
  }

  private static String description(List<String> path) {
    CommandLine cli = SluiceCli.commandLine();
    for (String name : path) {
      cli = cli.getSubcommands().get(name);
    }
    return String.join(" ", cli.getCommandSpec().usageMessage().description());
  }

  private record Captured(int exitCode, String out, String err) {}

  private static Captured run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = SluiceCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    cli.setUsageHelpWidth(200);
    int exitCode = cli.execute(args);
    return new Captured(exitCode, out.toString(), err.toString());
  }
}
