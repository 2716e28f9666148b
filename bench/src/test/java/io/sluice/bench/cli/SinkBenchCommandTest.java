package io.sluice.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.bench.sink.SinkBenchResult;
import io.sluice.bench.sink.SinkBenchResult.Check;
import io.sluice.bench.sink.SinkBenchResult.Freshness;
import io.sluice.bench.sink.SinkBenchResult.Limit;
import io.sluice.bench.sink.SinkBenchResult.Paced;
import io.sluice.bench.sink.SinkBenchResult.Stages;
import io.sluice.bench.sink.SinkBenchResult.Throughput;
import io.sluice.bench.sink.SinkBenchResult.Workload;
import io.sluice.bench.sink.TableCheck;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Map;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** The sink benchmark's options and printing; nothing here starts a broker. */
class SinkBenchCommandTest {
  @Test
  void helpExplainsThePreload() {
    StringWriter out = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out, true));

    assertThat(cli.execute("sink", "--help")).isZero();
    assertThat(out.toString())
        .startsWith("Usage: bench sink")
        .contains("Preload (--preload):", "--preload", "--records", "--keys", "p50/p95/p99")
        .contains("Limit (unless --no-limit):", "--no-limit");
  }

  @Test
  void theLimitIsPrintedBesideBothSinksWithItsCheck() {
    StringWriter out = new StringWriter();
    Limit limit =
        new Limit(
            new Throughput(100_000, 2_000, 2),
            new Stages(1_600, 100, 300, 200, 50, 700, 100, 100),
            Map.of("position-deletes", 3L),
            new TableCheck(290_000, 290_000, 0, 0));

    SinkBenchCommand.print(new PrintWriter(out), result(300_000).withLimit(limit));

    assertThat(out.toString())
        .contains("ratio upserts/appends: ")
        .contains(
            "limit (one thread, no Connect):     50,000 records/s  (100,000 records in 2.00 s,")
        .contains("upsert sink / limit 0.100; Apache sink / limit 0.200")
        .contains(
            "limit's thread CPU 1.60 s (62,500 records per CPU second): read 0.10 s, decode"
                + " 0.30 s, convert 0.20 s, reduce 0.05 s, write 0.70 s, key index 0.10 s, commit"
                + " 0.10 s, other 0.05 s; snapshots by commit mode {position-deletes=3}")
        .contains("check: current table 290,000 rows")
        .contains(
            "limit check: table 290,000 rows (expected 290,000, wrong keys 0, duplicate keys 0):"
                + " passed");
    StringWriter skipped = new StringWriter();
    SinkBenchCommand.print(new PrintWriter(skipped), result(0));
    assertThat(skipped.toString())
        .contains("limit (one thread, no Connect): not run (--no-limit)")
        .doesNotContain("limit check");
  }

  @Test
  void aPreloadedRunSaysHowManyRowsTheBacklogUpdated() {
    StringWriter out = new StringWriter();

    SinkBenchCommand.print(new PrintWriter(out), result(300_000));

    assertThat(out.toString())
        .contains(
            "preloaded 300,000 keys before the backlog (untimed): the backlog updates a table of"
                + " 300,000 rows")
        .contains("upsert sink (current):        5,000 upserts/s")
        .contains("p50    700 ms  p95    900 ms  p99  1,400 ms  max  2,100 ms");
    StringWriter plain = new StringWriter();
    SinkBenchCommand.print(new PrintWriter(plain), result(0));
    assertThat(plain.toString()).doesNotContain("preloaded");
  }

  private static SinkBenchResult result(long preloaded) {
    Freshness freshness = new Freshness(600, 700, 900, 1_400, 2_100);
    return new SinkBenchResult(
        new Workload(100_000, 600, 300_000, 300_000 + 500, 90_000, 10_100, preloaded, 0),
        1_000,
        new Throughput(100_000, 20_000, 20),
        new Throughput(100_000, 10_000, 10),
        new Paced(600, 200, 3),
        freshness,
        freshness,
        new Check(290_000, 290_000, 0, 400_600, 400_600, 400_600),
        null);
  }
}
