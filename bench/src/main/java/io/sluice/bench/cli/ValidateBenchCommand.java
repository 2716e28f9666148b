package io.sluice.bench.cli;

import io.sluice.bench.ValidationBenchmark;
import java.io.PrintWriter;
import java.util.Collection;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code sluice bench validate}: the JMH benchmark of the validation hot path. */
@Command(
    name = "validate",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the JMH benchmark of the router's validation hot path (RecordValidator on a valid"
          + " orders envelope, key and value, schemas cached in memory) on one thread in one"
          + " forked JVM, and prints records/s per core (target >= 1,000,000)."
    })
final class ValidateBenchCommand implements Callable<Integer> {
  static final double TARGET_PER_CORE = 1_000_000;

  @Spec CommandSpec spec;

  @Option(
      names = "--warmup-iterations",
      defaultValue = "3",
      description = "Warm-up iterations (default: ${DEFAULT-VALUE}).")
  int warmupIterations;

  @Option(
      names = "--iterations",
      defaultValue = "5",
      description = "Measured iterations (default: ${DEFAULT-VALUE}).")
  int iterations;

  @Option(
      names = "--seconds",
      defaultValue = "2",
      description = "Seconds per iteration (default: ${DEFAULT-VALUE}).")
  int seconds;

  @Override
  public Integer call() throws RunnerException {
    Options options =
        new OptionsBuilder()
            .include(ValidationBenchmark.class.getName())
            .forks(1)
            .threads(1)
            .warmupIterations(warmupIterations)
            .warmupTime(TimeValue.seconds(seconds))
            .measurementIterations(iterations)
            .measurementTime(TimeValue.seconds(seconds))
            .timeUnit(TimeUnit.SECONDS)
            .build();
    Collection<RunResult> results = new Runner(options).run();
    PrintWriter out = spec.commandLine().getOut();
    for (RunResult result : results) {
      double perSecond = result.getPrimaryResult().getScore();
      out.printf(
          "%s: %,.0f records/s per core (1 thread, +/- %,.0f; target >= %,.0f: %s)%n",
          result.getParams().getBenchmark(),
          perSecond,
          result.getPrimaryResult().getScoreError(),
          TARGET_PER_CORE,
          perSecond >= TARGET_PER_CORE ? "met" : "NOT met");
    }
    out.flush();
    return 0;
  }
}
