package io.sluice.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.bench.maintenance.MaintenanceBenchResult;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The command's options, refusals and printing; nothing here starts a broker. */
class MaintenanceBenchCommandTest {
  @Test
  void helpExplainsTheMethodAndEveryOption() {
    Run run = run("maintenance", "--help");

    assertThat(run.exitCode).isZero();
    assertThat(run.out)
        .startsWith("Usage: bench maintenance")
        .contains("Pacing:", "Skew:", "Samples:", "Throughput:", "Written:", "Targets:", "Check:")
        .contains(
            "--keys",
            "--updates",
            "--commits",
            "--commit-interval-ms",
            "--sample-every",
            "--modes",
            "--seed",
            "--sink-config",
            "--timeout",
            "--output",
            "--strict",
            "--hot-keys",
            "--hot-updates")
        .contains(
            "(default: 10000)",
            "(default: 100000)",
            "(default: 50)",
            "(default: off,",
            "(default: 5)");
  }

  @Test
  void aSwitchTheBenchSetsItselfIsRefusedBeforeAnythingStarts() {
    Run run = run("maintenance", "--modes", "off,on", "--sink-config", "maintenance.enabled=true");

    assertThat(run.exitCode).isEqualTo(2);
    assertThat(run.err)
        .contains("maintenance.enabled")
        .as("nothing started")
        .doesNotContain("bench maintenance: broker");
  }

  @Test
  void badValuesAreRefusedWithTheOptionNamed() {
    assertThat(run("maintenance", "--modes", "of").err)
        .contains("mode must be off or on, got 'of'");
    assertThat(run("maintenance", "--modes", "off,off").err)
        .contains("--modes must name off, on or both, each once, got [OFF, OFF]");
    assertThat(run("maintenance", "--keys", "10", "--updates", "0", "--commits", "11").err)
        .contains("--commits must be between 1 and --keys + --updates (10), got 11");
    Run hotKeys = run("maintenance", "--hot-keys", "100");
    assertThat(hotKeys.exitCode).isEqualTo(2);
    assertThat(hotKeys.err)
        .contains(
            "--hot-keys must be a percent of the keys, at least 0 (uniform) and less than 100,"
                + " got 100.0");
    assertThat(run("maintenance", "--hot-keys", "-1").err).contains("--hot-keys must be");
    assertThat(run("maintenance", "--hot-keys", "1", "--hot-updates", "101").err)
        .contains("--hot-updates must be a percent of the updates, 0 to 100, got 101");
    Run sinkConfig = run("maintenance", "--modes", "off", "--sink-config", "commit.interval.ms=5");
    assertThat(sinkConfig.exitCode).isEqualTo(2);
    assertThat(sinkConfig.err)
        .contains(
            "--sink-config commit.interval.ms: the benchmark sets this key itself; use"
                + " --commit-interval-ms");
  }

  @Test
  void theSummaryShowsEveryModeAndTheTargets() throws IOException {
    StringWriter out = new StringWriter();

    MaintenanceBenchCommand.print(new PrintWriter(out), MaintenanceBenchResult.fromJson(fixture()));

    assertThat(out.toString())
        .contains("workload: 10,000 keys inserted, then 100,000 updates (seed 42)")
        .contains("sink config: {maintenance.rewrite.delete-files=4}")
        .contains("skew: 90% of the updates to the hot 1% of the keys")
        .contains("  hot keys: 100, taking 90,100 of the 100,000 updates (90.1%)")
        .contains(
            "maintenance off:     2,000 records/s (110,000 records: c 10,600, u 98,800, d 600, in"
                + " 55.0 s), 51 commits, 0 other snapshots")
        .contains("maintenance on:     1,571 records/s")
        .contains("  visible after p50 700 ms, p95 1,100 ms, p99 1,400 ms, max 2,100 ms")
        .contains(
            "  scan ratio (CPU) over 2 samples (12.3 s of sampling while the sink ran): max 1.60,"
                + " last 1.60 (wall clock: max 3.20); files left: 10 data (20,000 rows),"
                + " 10 equality-delete (10,000 deletes), 0 position-delete (0 deletes)")
        .contains(
            "  written: 26,400,000 bytes in 51 snapshots, 2.00x the changed rows (110,000 changes x"
                + " 120.0 bytes a row compacted); a lower bound: 0 snapshots without"
                + " added-files-size, 1 expired unseen")
        .contains("  written: 39,600,000 bytes in 61 snapshots, 3.00x the changed rows")
        .contains("  commit modes: equality-deletes 50, merge 1")
        .contains("  commit modes: merge 51")
        .contains(
            "  key index of the final table, rebuilt after the run: 9,950 keys in 398,000 bytes"
                + " (40.0 bytes a key), 9,950 rows read in 126 ms (first build 310 ms)")
        .contains("  check: 9,950 rows (expected 9,950), wrong keys 0, duplicate keys 0: passed")
        .contains("target scan ratio with maintenance on, every sample <= 1.5: 1.600, MISSED")
        .contains("target throughput maintenance on / off >= 0.8: 0.786, MISSED")
        .contains("check: passed; run took 131 s");
  }

  private static String fixture() throws IOException {
    try (InputStream in =
        MaintenanceBenchResult.class.getResourceAsStream("maintenance-result-v1.json")) {
      assertThat(in).as("fixture maintenance-result-v1.json").isNotNull();
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  private record Run(int exitCode, String out, String err) {}

  private static Run run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exitCode = cli.execute(args);
    return new Run(exitCode, out.toString(), err.toString());
  }
}
