package io.sluice.bench.cli;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice bench}: the benchmarks. */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description =
        "Benchmarks: router throughput against a pass-through topology, the validation hot"
            + " path (JMH), the upsert sink against the Apache Iceberg sink, a timed"
            + " reconciliation, the upsert sink's table maintenance off against on, and a backfill"
            + " from source to lake.",
    subcommands = {
      RouterBenchCommand.class,
      ValidateBenchCommand.class,
      SinkBenchCommand.class,
      ReconcileBenchCommand.class,
      MaintenanceBenchCommand.class,
      BackfillBenchCommand.class
    })
public final class BenchCommand implements Runnable {
  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(
        spec.commandLine(),
        "Missing benchmark: router, validate, sink, reconcile, maintenance or backfill");
  }
}
