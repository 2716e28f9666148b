package io.sluice.lab.bench;

import java.time.Duration;
import java.util.List;
import java.util.function.ToDoubleFunction;

/** The timed runs of the router benchmark, per application; figures are medians over the rounds. */
public record RouterBenchResult(
    List<Run> router, List<Run> passThrough, long poison, int valueBytes) {
  /**
   * One application's run: N records committed {@code elapsed} after start; the first commit (of
   * {@code firstCommitted} records) came {@code toFirstCommit} after start.
   */
  public record Run(
      String name, long records, Duration elapsed, long firstCommitted, Duration toFirstCommit) {
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

  private static double median(List<Run> runs) {
    return median(runs, Run::recordsPerSecond);
  }

  private static double median(List<Run> runs, ToDoubleFunction<Run> rate) {
    double[] rates = runs.stream().mapToDouble(rate).sorted().toArray();
    int mid = rates.length / 2;
    return rates.length % 2 == 1 ? rates[mid] : (rates[mid - 1] + rates[mid]) / 2;
  }
}
