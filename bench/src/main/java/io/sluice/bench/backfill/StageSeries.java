package io.sluice.bench.backfill;

import java.util.ArrayList;
import java.util.List;

/**
 * A stage's count sampled over time (seconds since the capture started). Its active window runs
 * from the last sample before its count first moved to the first sample at its final count, so it
 * errs long by up to two sampling intervals, never short.
 */
final class StageSeries {
  private final List<double[]> samples = new ArrayList<>();

  synchronized void add(double seconds, long count) {
    samples.add(new double[] {seconds, count});
  }

  synchronized long last() {
    return samples.isEmpty() ? 0 : (long) samples.get(samples.size() - 1)[1];
  }

  /** Seconds at which the window opens and closes, {@code [start, end]}. */
  synchronized double[] window() {
    if (samples.isEmpty()) {
      return new double[] {0, 0};
    }
    double initial = samples.get(0)[1];
    double fin = samples.get(samples.size() - 1)[1];
    double start = samples.get(0)[0];
    double end = samples.get(samples.size() - 1)[0];
    for (int i = 0; i < samples.size(); i++) {
      if (samples.get(i)[1] != initial) {
        start = samples.get(Math.max(0, i - 1))[0];
        break;
      }
    }
    for (double[] s : samples) {
      if (s[1] == fin) {
        end = s[0];
        break;
      }
    }
    return new double[] {start, end};
  }
}
