package io.sluice.bench.cli;

import io.sluice.bench.RouterBenchResult;
import io.sluice.bench.RouterBenchResult.Run;
import io.sluice.bench.RouterThroughputBench;
import io.sluice.bench.RouterThroughputBench.Settings;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice bench router}: router records/s against a pass-through topology. */
@Command(
    name = "router",
    mixinStandardHelpOptions = true,
    description = {
      "Produces N orders records once to a 3-partition topic on a fresh embedded broker, then runs"
          + " (a) the Sluice router and (b) a pass-through Kafka Streams topology (bytes in, bytes"
          + " out, same exactly_once_v2 guarantee) over it, each from a fresh application id.",
      "Times each run from start until all N input offsets are committed (with exactly_once_v2"
          + " that is when the output is committed), over warm-up and timed rounds in alternating"
          + " order, and prints the records/s of each, their medians, each round's ratio and the"
          + " median of those (target >= 0.9)."
    })
final class RouterBenchCommand implements Callable<Integer> {
  static final double TARGET_RATIO = 0.9;

  @Spec CommandSpec spec;

  @Option(names = "--records", required = true, description = "How many records to produce.")
  long records;

  @Option(
      names = "--payload-bytes",
      defaultValue = "0",
      description = "Pad each value to about this size (default: the natural size, ~200 bytes).")
  int payloadBytes;

  @Option(
      names = "--poison-ratio",
      defaultValue = "0",
      description = "Share of records that are poison (JSON instead of Avro), 0..1 (default: 0).")
  double poisonRatio;

  @Option(
      names = "--rounds",
      defaultValue = "5",
      description =
          "Timed rounds of both applications; the records/s are medians over the rounds, the"
              + " ratio is the median of each round's own ratio (default: 5, so that a run thrown"
              + " off by the machine's other load does not move the median; see"
              + " docs/benchmarks.md).")
  int rounds;

  @Option(
      names = "--warmup-rounds",
      defaultValue = "3",
      description =
          "Untimed rounds of both applications first, to warm the JVM and the broker; at least"
              + " this many, none with 0 (default: 3; after fewer, the JIT is still busy compiling"
              + " during the timed rounds; see docs/benchmarks.md).")
  int warmupRounds;

  @Option(
      names = "--max-warmup-rounds",
      defaultValue = "10",
      description =
          "After --warmup-rounds, warm up one more round while the JIT compiler was busy for more"
              + " than "
              + RouterThroughputBench.JIT_QUIET_PERCENT
              + "%% of the last one, up to this many rounds in all (default: 10; never fewer than"
              + " --warmup-rounds, so the same number gives a fixed count).")
  int maxWarmupRounds;

  @Option(
      names = "--router-property",
      paramLabel = "KEY=VALUE",
      description =
          "A router configuration property for every run (repeatable), e.g."
              + " validate.ahead=true (the validate-ahead thread even on 2 processors). The"
              + " pass-through runs with the router's Kafka Streams"
              + " properties too, so streams.<key> settings reach both applications. The"
              + " connection, application id, state and metrics keys are the benchmark's own.")
  Map<String, String> routerProperties = new LinkedHashMap<>();

  @Option(
      names = "--timeout",
      defaultValue = "600",
      description = "Seconds each run may take before the benchmark fails (default: 600).")
  long timeoutSeconds;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Settings settings =
        new Settings(
            records,
            payloadBytes,
            poisonRatio,
            warmupRounds,
            Math.max(warmupRounds, maxWarmupRounds),
            rounds,
            Duration.ofSeconds(timeoutSeconds),
            routerProperties);
    RouterBenchResult result =
        new RouterThroughputBench(
                settings,
                line -> {
                  err.println("bench router: " + line);
                  err.flush();
                })
            .run();
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        "records %d (poison %d), value ~%d bytes, 3 partitions, exactly_once_v2, %d rounds%n",
        records, result.poison(), result.valueBytes(), rounds);
    for (int i = 0; i < result.router().size(); i++) {
      print(out, "round " + (i + 1) + " router", result.router().get(i));
      print(out, "round " + (i + 1) + " pass-through", result.passThrough().get(i));
      out.printf("%-23s %12.3f%n", "round " + (i + 1) + " ratio:", result.roundRatios().get(i));
    }
    out.printf(
        "router (median):        %,12.0f records/s   steady %,12.0f records/s%n",
        result.routerRecordsPerSecond(), result.routerSteadyRecordsPerSecond());
    out.printf(
        "pass-through (median):  %,12.0f records/s   steady %,12.0f records/s%n",
        result.passThroughRecordsPerSecond(), result.passThroughSteadyRecordsPerSecond());
    out.printf(
        "ratio router/pass-through: %.3f (target >= %.1f: %s); steady state %.3f%n",
        result.ratio(),
        TARGET_RATIO,
        result.ratio() >= TARGET_RATIO ? "met" : "NOT met",
        result.steadyRatio());
    out.flush();
    return 0;
  }

  private static void print(PrintWriter out, String label, Run run) {
    out.printf(
        "%-23s %,12.0f records/s   steady %,12.0f records/s  (%d in %.2f s, first commit %.2f s)%n",
        label + ":",
        run.recordsPerSecond(),
        run.steadyRecordsPerSecond(),
        run.records(),
        run.elapsed().toNanos() / 1e9,
        run.toFirstCommit().toNanos() / 1e9);
  }
}
