package io.sluice.bench;

import java.time.Duration;
import java.util.List;
import java.util.function.ToDoubleFunction;
import java.util.stream.DoubleStream;
import java.util.stream.IntStream;

/**
 * The timed runs of the router benchmark, per application, in round order: {@code router.get(i)}
 * and {@code passThrough.get(i)} ran back to back in round i. Rates are medians over the rounds;
 * the ratio is the median of the rounds' own ratios.
 */
public record RouterBenchResult(
    List<Run> router, List<Run> passThrough, long poison, int valueBytes) {
  public RouterBenchResult {
    router = List.copyOf(router);
    passThrough = List.copyOf(passThrough);
    if (router.size() != passThrough.size() || router.isEmpty()) {
      throw new IllegalArgumentException(
          "need one router and one pass-through run per round, got "
              + router.size()
              + " and "
              + passThrough.size());
    }
  }

  /**
   * One application's run: N records committed {@code elapsed} after start; the first commit (of
   * {@code firstCommitted} records) came {@code toFirstCommit} after start. Meanwhile the JVM spent
   * {@code processCpu} of CPU time (broker and registry included), the application's own threads
   * {@code applicationCpu}, and of those its stream threads {@code streamThreadCpu}.
   */
  public record Run(
      String name,
      long records,
      Duration elapsed,
      long firstCommitted,
      Duration toFirstCommit,
      Duration processCpu,
      Duration applicationCpu,
      Duration streamThreadCpu) {
    /** A run without CPU figures. */
    public Run(
        String name, long records, Duration elapsed, long firstCommitted, Duration toFirstCommit) {
      this(
          name,
          records,
          elapsed,
          firstCommitted,
          toFirstCommit,
          Duration.ZERO,
          Duration.ZERO,
          Duration.ZERO);
    }

    /** Records/s from start to the last commit: what a user waits for. */
    public double recordsPerSecond() {
      return records / (elapsed.toNanos() / 1e9);
    }

    /**
     * Records/s from the first commit to the last: the processing rate without the start-up (group
     * join, first fetch); NaN when everything was committed at once.
     */
    public double steadyRecordsPerSecond() {
      long after = records - firstCommitted;
      long nanos = elapsed.toNanos() - toFirstCommit.toNanos();
      return after <= 0 || nanos <= 0 ? Double.NaN : after / (nanos / 1e9);
    }

    /** JVM CPU microseconds per record, start-up included. */
    public double processCpuMicrosPerRecord() {
      return processCpu.toNanos() / 1e3 / records;
    }

    /** CPU microseconds of the application's own threads per record, start-up included. */
    public double applicationCpuMicrosPerRecord() {
      return applicationCpu.toNanos() / 1e3 / records;
    }

    /**
     * CPU microseconds of the application's stream threads per record, start-up included: where
     * records are processed, and the figure that moves least with the machine's other load.
     */
    public double streamThreadCpuMicrosPerRecord() {
      return streamThreadCpu.toNanos() / 1e3 / records;
    }
  }

  public double routerRecordsPerSecond() {
    return median(router);
  }

  public double passThroughRecordsPerSecond() {
    return median(passThrough);
  }

  /**
   * Router records/s over pass-through records/s: the median of {@link #roundRatios()}. Each round
   * compares two runs seconds apart, so what drifts over a benchmark (the JIT still compiling, the
   * old generation filling up) weighs on both sides of a round's ratio alike; the median leaves out
   * the round whose one run a collection or compilation burst slowed down.
   */
  public double ratio() {
    return median(ratios(Run::recordsPerSecond));
  }

  /** Each round's router records/s over its pass-through records/s, in round order. */
  public List<Double> roundRatios() {
    return ratios(Run::recordsPerSecond).boxed().toList();
  }

  /** As {@link #ratio()} in steady state (NaN when a run had no steady part). */
  public double steadyRatio() {
    return median(ratios(Run::steadyRecordsPerSecond));
  }

  private DoubleStream ratios(ToDoubleFunction<Run> rate) {
    return IntStream.range(0, router.size())
        .mapToDouble(
            i -> rate.applyAsDouble(router.get(i)) / rate.applyAsDouble(passThrough.get(i)));
  }

  public double routerSteadyRecordsPerSecond() {
    return median(router, Run::steadyRecordsPerSecond);
  }

  public double passThroughSteadyRecordsPerSecond() {
    return median(passThrough, Run::steadyRecordsPerSecond);
  }

  /** Median JVM CPU microseconds per record of the router's runs. */
  public double routerProcessCpuMicrosPerRecord() {
    return median(router, Run::processCpuMicrosPerRecord);
  }

  /** Median JVM CPU microseconds per record of the pass-through's runs. */
  public double passThroughProcessCpuMicrosPerRecord() {
    return median(passThrough, Run::processCpuMicrosPerRecord);
  }

  /** Median CPU microseconds per record of the router's own threads. */
  public double routerApplicationCpuMicrosPerRecord() {
    return median(router, Run::applicationCpuMicrosPerRecord);
  }

  /** Median CPU microseconds per record of the pass-through's own threads. */
  public double passThroughApplicationCpuMicrosPerRecord() {
    return median(passThrough, Run::applicationCpuMicrosPerRecord);
  }

  /** Median CPU microseconds per record of the router's stream threads. */
  public double routerStreamThreadCpuMicrosPerRecord() {
    return median(router, Run::streamThreadCpuMicrosPerRecord);
  }

  /** Median CPU microseconds per record of the pass-through's stream threads. */
  public double passThroughStreamThreadCpuMicrosPerRecord() {
    return median(passThrough, Run::streamThreadCpuMicrosPerRecord);
  }

  private static double median(List<Run> runs) {
    return median(runs, Run::recordsPerSecond);
  }

  private static double median(List<Run> runs, ToDoubleFunction<Run> rate) {
    return median(runs.stream().mapToDouble(rate));
  }

  private static double median(DoubleStream values) {
    double[] rates = values.sorted().toArray();
    int mid = rates.length / 2;
    return rates.length % 2 == 1 ? rates[mid] : (rates[mid - 1] + rates[mid]) / 2;
  }
}
