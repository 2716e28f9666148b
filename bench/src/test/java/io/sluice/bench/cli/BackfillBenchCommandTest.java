package io.sluice.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.bench.backfill.BackfillResult;
import io.sluice.bench.backfill.BackfillResult.StageResult;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The backfill benchmark's options and printing; nothing here starts the stack. */
class BackfillBenchCommandTest {
  @Test
  void helpExplainsWhatIsMeasured() {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out, true));

    assertThat(cli.execute("backfill", "--help")).isZero();
    assertThat(out.toString())
        .startsWith("Usage: bench backfill")
        .contains("--rows", "--partitions", "--sink-tasks", "--sample-ms", "--timeout")
        .contains("initial snapshot", "active window", "CPU per", "slowest stage");
  }

  @Test
  void tooManySinkTasksAreRefusedByName() {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setErr(new PrintWriter(err, true));

    assertThat(cli.execute("backfill", "--rows=10", "--sink-tasks=4")).isNotZero();
    assertThat(err.toString()).contains("--sink-tasks must be 1 to 3, got 4");
  }

  @Test
  void theSlowestStageIsNamedWithEveryStagesRateAndCpu() {
    BackfillResult r =
        new BackfillResult(
            100_000,
            3,
            1,
            4.2,
            30.0,
            2.0,
            true,
            100_000,
            100_000,
            List.of(
                new StageResult("capture", "records in t", 100_000, 0.5, 10.5, 10_000, 2.0),
                new StageResult("router", "offsets of t.clean", 100_003, 1.0, 11.0, 10_000, 1.0),
                new StageResult("upsert sink", "rows in c", 100_000, 2.0, 27.0, 4_000, 5.0),
                new StageResult("changelog sink", "rows in l", 100_000, 2.0, 22.0, 5_000, 4.0)),
            List.of("main: 1.0 s"));
    StringWriter out = new StringWriter();

    BackfillBenchCommand.print(new PrintWriter(out, true), r);

    assertThat(out.toString())
        .contains("backfill of 100,000 rows (cdc_lab.orders), 3 partitions, 1 task(s) per sink")
        .contains("time until the lake equals the source: 30.0 s (3,333 rows/s)")
        .containsPattern("upsert sink\\s+100,000\\s+2.0\\s+27.0\\s+4,000\\s+50.0  rows in c")
        .contains("slowest stage: upsert sink (4,000 rows/s)")
        .contains("busiest threads of no stage: main: 1.0 s")
        .contains("reconciled: equal (current table 100,000 rows");
  }
}
