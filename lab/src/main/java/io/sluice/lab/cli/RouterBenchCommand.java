package io.sluice.lab.cli;

import io.sluice.lab.bench.RouterThroughputBench;
import io.sluice.lab.bench.RouterThroughputBench.Result;
import io.sluice.lab.bench.RouterThroughputBench.Run;
import io.sluice.lab.bench.RouterThroughputBench.Settings;
import java.io.PrintWriter;
import java.time.Duration;
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
      "Prints the records/s of each, from start until all N input offsets are committed, and"
          + " their ratio (target >= 0.9)."
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
      names = "--timeout",
      defaultValue = "600",
      description = "Seconds each run may take before the benchmark fails (default: 600).")
  long timeoutSeconds;

  @Override
  public Integer call() {
    PrintWriter err = spec.commandLine().getErr();
    Settings settings =
        new Settings(records, payloadBytes, poisonRatio, Duration.ofSeconds(timeoutSeconds));
    Result result =
        new RouterThroughputBench(
                settings,
                line -> {
                  err.println("bench router: " + line);
                  err.flush();
                })
            .run();
    PrintWriter out = spec.commandLine().getOut();
    out.printf(
        "records %d (poison %d), value ~%d bytes, 3 partitions, exactly_once_v2%n",
        records, result.poison(), result.valueBytes());
    print(out, result.router());
    print(out, result.passThrough());
    out.printf(
        "ratio router/pass-through: %.3f (target >= %.1f: %s)%n",
        result.ratio(), TARGET_RATIO, result.ratio() >= TARGET_RATIO ? "met" : "NOT met");
    out.flush();
    return 0;
  }

  private static void print(PrintWriter out, Run run) {
    out.printf(
        "%-13s %,12.0f records/s  (%d records in %.2f s)%n",
        run.name() + ":", run.recordsPerSecond(), run.records(), run.elapsed().toNanos() / 1e9);
  }
}
