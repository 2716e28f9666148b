package io.sluice.lab.bench;

import java.time.Duration;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** The timed runs of the router benchmark, per application; figures are medians over the rounds. */
public record RouterBenchResult(
    List<Run> router, List<Run> passThrough, long poison, int valueBytes) {
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

  /** Router records/s over pass-through records/s (medians). */
  public double ratio() {
    return routerRecordsPerSecond() / passThroughRecordsPerSecond();
  }

  /** Router over pass-through in steady state (medians; NaN when a run had no steady part). */
  public double steadyRatio() {
    return median(router, Run::steadyRecordsPerSecond)
        / median(passThrough, Run::steadyRecordsPerSecond);
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
    double[] rates = runs.stream().mapToDouble(rate).sorted().toArray();
    int mid = rates.length / 2;
    return rates.length % 2 == 1 ? rates[mid] : (rates[mid - 1] + rates[mid]) / 2;
  }
}
