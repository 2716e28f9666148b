package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.cli.SluiceCli;
import io.sluice.scenarios.VerifyReport;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;

/** {@code sluice verify} of one failure class against a running stack, as a user runs it. */
final class VerifyRuns {
  private static final Logger log = LoggerFactory.getLogger(VerifyRuns.class);

  private VerifyRuns() {}

  /**
   * Runs one class with a short workload against the stack of {@code ready}; asserts it passed
   * every check and has the reference report's shape, and returns the report.
   */
  static JsonNode passed(Path ready, Path reports, String failureClass, int seed, String... more)
      throws IOException {
    CommandLine cli = SluiceCli.commandLine();
    StringWriter out = new StringWriter();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(out, true));
    List<String> args =
        new ArrayList<>(
            List.of(
                "verify",
                "--failure",
                failureClass,
                "--ready-file",
                ready.toString(),
                "--seed",
                String.valueOf(seed),
                "--baseline-rows",
                "20",
                "--rounds",
                "12",
                "--rows-per-round",
                "15",
                "--report-dir",
                reports.toString()));
    args.addAll(List.of(more));
    int code = cli.execute(args.toArray(String[]::new));
    log.info("sluice verify --failure {}:\n{}", failureClass, out);
    assertThat(code).as("exit code of verify --failure %s:%n%s", failureClass, out).isZero();
    Path file;
    try (Stream<Path> files = Files.list(reports)) {
      file = files.filter(p -> p.toString().endsWith(".json")).findFirst().orElseThrow();
    }
    JsonNode report = new ObjectMapper().readTree(file.toFile());
    List<String> keys = new ArrayList<>();
    report.fieldNames().forEachRemaining(keys::add);
    assertThat(keys).containsExactlyElementsOf(VerifyReport.KEYS);
    assertThat(report.path("failure_class").asText()).isEqualTo(failureClass);
    assertThat(report.at("/summary/passed").asBoolean()).isTrue();
    report
        .path("checks")
        .fields()
        .forEachRemaining(c -> assertThat(c.getValue().asBoolean()).as(c.getKey()).isTrue());
    assertThat(report.at("/reconciliation/mysql_rows").isArray()).isTrue();
    assertThat(report.at("/baseline_offset_checkpoint_snapshot_linkage").isObject()).isTrue();
    assertThat(report.at("/repair_offset_checkpoint_snapshot_linkage").isObject()).isTrue();
    assertThat(report.at("/offset_checkpoint_snapshot_linkage").isObject()).isTrue();
    return report;
  }
}
