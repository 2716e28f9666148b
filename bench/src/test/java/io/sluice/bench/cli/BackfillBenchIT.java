package io.sluice.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@code sluice bench backfill} with 2,000 rows on the real embedded stack: Debezium's initial
 * snapshot through the router into both sinks, reconciled, with every stage's rate and CPU.
 */
class BackfillBenchIT {
  private static final Pattern STAGE =
      Pattern.compile(
          "(?m)^(capture|router|upsert sink|changelog sink)\\s+([\\d,]+)\\s+([\\d.]+)\\s+"
              + "([\\d.]+)\\s+([\\d,]+)\\s+([\\d.]+)\\s+");

  @Test
  void twoThousandRowsReachBothTablesReconciledWithEveryStageMeasured() {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));

    int exitCode = cli.execute("backfill", "--rows=2000", "--sample-ms=200", "--timeout=300");

    String output = out.toString();
    assertThat(exitCode).as("stdout: %s%nstderr: %s", output, err).isZero();
    assertThat(err.toString())
        .contains("bench backfill: loaded 2,000/2,000 rows (100%")
        .contains("bench backfill: starting the embedded stack");
    assertThat(output)
        .contains("backfill of 2,000 rows (cdc_lab.orders), 3 partitions, 1 task(s) per sink")
        .containsPattern("time until the lake equals the source: [\\d.]+ s")
        .containsPattern("slowest stage: (capture|router|upsert sink|changelog sink) \\(")
        .contains(
            "reconciled: equal (current table 2,000 rows, changelog 2,000 events, source 2,000"
                + " rows)");
    Matcher stages = STAGE.matcher(output);
    int seen = 0;
    while (stages.find()) {
      seen++;
      String stage = stages.group(1);
      long count = Long.parseLong(stages.group(2).replace(",", ""));
      double from = Double.parseDouble(stages.group(3));
      double to = Double.parseDouble(stages.group(4));
      double rate = Double.parseDouble(stages.group(5).replace(",", ""));
      double cpuPerRow = Double.parseDouble(stages.group(6));
      assertThat(count).as("%s count", stage).isGreaterThanOrEqualTo(2_000);
      assertThat(to).as("%s window", stage).isGreaterThan(from);
      assertThat(rate).as("%s rows/s", stage).isPositive();
      assertThat(cpuPerRow).as("%s CPU per row", stage).isPositive();
    }
    assertThat(seen).as("stage lines in:%n%s", output).isEqualTo(4);
  }
}
