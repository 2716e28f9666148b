package io.sluice.bench.backfill;

import java.util.Comparator;
import java.util.List;

/**
 * What a backfill run measured.
 *
 * @param rows N, the rows loaded into the source table
 * @param partitions partitions of the change topic (and so of the clean topic)
 * @param sinkTasks tasks of each sink
 * @param loadSeconds how long loading the source table took (before the clock starts)
 * @param totalSeconds from the start of the capture until the reconciliation said equal or not
 * @param reconcileSeconds how long the reconciliation itself took, part of {@code totalSeconds}
 * @param equal whether the upsert sink's table equals the source table and the changelog holds N
 *     events
 * @param currentRows rows in the upsert sink's table at the end
 * @param changelogRows rows (events) in the changelog sink's table at the end
 * @param stages each stage's figures, in data-flow order
 * @param unattributed the busiest threads no stage takes ("name: seconds")
 */
public record BackfillResult(
    long rows,
    int partitions,
    int sinkTasks,
    double loadSeconds,
    double totalSeconds,
    double reconcileSeconds,
    boolean equal,
    long currentRows,
    long changelogRows,
    List<StageResult> stages,
    List<String> unattributed) {

  /**
   * One stage.
   *
   * @param name the stage
   * @param measure what its count is
   * @param count its count at the end
   * @param windowStart seconds after the capture started when its count started to move
   * @param windowEnd seconds after the capture started when its count reached its final value
   * @param rowsPerSecond N over its active window
   * @param cpuSeconds CPU time of its threads from the capture's start to the end
   */
  public record StageResult(
      String name,
      String measure,
      long count,
      double windowStart,
      double windowEnd,
      double rowsPerSecond,
      double cpuSeconds) {

    /** CPU microseconds per row of N. */
    public double cpuMicrosPerRow(long rows) {
      return rows == 0 ? 0 : cpuSeconds * 1e6 / rows;
    }
  }

  /** The stage with the lowest throughput over its own window: what bounds the backfill. */
  public StageResult slowest() {
    return stages.stream()
        .min(Comparator.comparingDouble(StageResult::rowsPerSecond))
        .orElseThrow();
  }
}
