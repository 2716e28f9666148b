package io.sluice.bench.cli;

import io.sluice.bench.backfill.BackfillBench;
import io.sluice.bench.backfill.BackfillResult;
import io.sluice.bench.backfill.BackfillResult.StageResult;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice bench backfill}: a table's initial snapshot from source to lake, reconciled. */
@Command(
    name = "backfill",
    mixinStandardHelpOptions = true,
    description = {
      "Backfills a table from source to lake on the real embedded stack (MariaDB, KRaft broker,"
          + " dev registry, router, Connect with both sinks, Debezium capture) in a temporary"
          + " directory, deleted afterwards.",
      "Before the stack starts, N rows of the orders shape are loaded into cdc_lab.orders with"
          + " multi-row INSERTs (untimed, progress every 10%%), and the change topic is created"
          + " with --partitions partitions. The stack then starts; the clock starts with the"
          + " capture, whose initial snapshot reads the N rows.",
      "Every --sample-ms it samples each stage's count: capture, the end offsets of"
          + " broker.cdc_lab.orders; router, those of its .clean topic (transaction markers"
          + " included); upsert sink, the rows of cdc_lab.orders_current; changelog sink, the"
          + " rows of cdc_lab.orders_changelog (by their snapshots' summaries). When both tables"
          + " hold N rows, the current table is reconciled with the source (sluice reconcile's"
          + " comparison) and the changelog must hold exactly N events.",
      "Prints the time from the capture's start until the reconciliation answered, and per"
          + " stage its rate: N over its active window (from the last sample before its count"
          + " moved to the first at its final count, so up to two samples long) and its CPU per"
          + " row: the CPU time of its threads, told apart by name (capture: Debezium, binlog"
          + " client, capture engine and producer; router: its application id; each sink: its"
          + " connector name; a pool thread by the stage's code on its stack) from the"
          + " capture's start to the end. Names the slowest stage and the busiest threads no"
          + " stage takes. Exits 1 when the lake does not equal the source."
    })
final class BackfillBenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--rows",
      defaultValue = "1000000",
      description = "N, the rows of the source table (default: ${DEFAULT-VALUE}).")
  long rows;

  @Option(
      names = "--partitions",
      defaultValue = "3",
      description =
          "Partitions of the change topic; the router's clean topic gets as many"
              + " (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Option(
      names = "--sink-tasks",
      defaultValue = "1",
      description = "tasks.max of both sinks, 1-3 (default: ${DEFAULT-VALUE}).")
  int sinkTasks;

  @Option(
      names = "--sample-ms",
      defaultValue = "500",
      description = "How often the counts and thread CPU are sampled (default: ${DEFAULT-VALUE}).")
  long sampleMs;

  @Option(
      names = "--timeout",
      defaultValue = "3600",
      description =
          "Seconds the stack may take from its start until the lake holds N rows"
              + " (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Override
  public Integer call() throws Exception {
    PrintWriter err = spec.commandLine().getErr();
    Path dir = Files.createTempDirectory("sluice-bench-backfill-");
    try {
      BackfillBench.Settings settings;
      try {
        settings =
            new BackfillBench.Settings(
                dir,
                rows,
                partitions,
                sinkTasks,
                Duration.ofMillis(sampleMs),
                Duration.ofSeconds(timeoutSeconds));
      } catch (IllegalArgumentException e) {
        throw new ParameterException(spec.commandLine(), e.getMessage());
      }
      BackfillResult result =
          new BackfillBench(
                  settings,
                  line -> {
                    err.println("bench backfill: " + line);
                    err.flush();
                  })
              .run();
      print(spec.commandLine().getOut(), result);
      return result.equal() ? 0 : 1;
    } finally {
      delete(dir);
    }
  }

  static void print(PrintWriter out, BackfillResult r) {
    out.printf(
        "backfill of %,d rows (cdc_lab.orders), %d partitions, %d task(s) per sink;"
            + " loaded in %.1f s (untimed)%n",
        r.rows(), r.partitions(), r.sinkTasks(), r.loadSeconds());
    out.printf(
        "time until the lake equals the source: %.1f s (%,.0f rows/s), reconciliation %.1f s"
            + " of it%n",
        r.totalSeconds(), r.rows() / r.totalSeconds(), r.reconcileSeconds());
    out.printf(
        "%-15s %12s %9s %9s %12s %12s  %s%n",
        "stage", "count", "from s", "to s", "rows/s", "CPU us/row", "measured by");
    for (StageResult s : r.stages()) {
      out.printf(
          "%-15s %,12d %9.1f %9.1f %,12.0f %12.1f  %s%n",
          s.name(),
          s.count(),
          s.windowStart(),
          s.windowEnd(),
          s.rowsPerSecond(),
          s.cpuMicrosPerRow(r.rows()),
          s.measure());
    }
    StageResult slowest = r.slowest();
    out.printf("slowest stage: %s (%,.0f rows/s)%n", slowest.name(), slowest.rowsPerSecond());
    if (!r.unattributed().isEmpty()) {
      out.println("busiest threads of no stage: " + String.join(", ", r.unattributed()));
    }
    out.printf(
        "reconciled: %s (current table %,d rows, changelog %,d events, source %,d rows)%n",
        r.equal() ? "equal" : "NOT equal", r.currentRows(), r.changelogRows(), r.rows());
  }

  private static void delete(Path dir) throws IOException {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }
}
