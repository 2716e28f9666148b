package io.sluice.bench.maintenance;

import io.sluice.bench.sink.Pacing;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;

/**
 * Paces a workload so that the sink makes at least {@code commits} commits of it.
 *
 * <ul>
 *   <li>Gate: before the sink's c-th commit was seen, at most c+1 parts of {@code commits} are
 *       sent. The last record therefore goes out after commit {@code commits - 1} was seen, so a
 *       later commit takes it, whatever the sink's pace.
 *   <li>Spread: within the gate, the records not sent yet are spread evenly up to {@code commits -
 *       c} commit intervals after the c-th commit was seen, planned again at every commit seen, so
 *       the sink gets a steady stream rather than bursts.
 * </ul>
 *
 * The sink commits once an interval has passed since its last commit; a sink slower than that holds
 * the producer back at the gate.
 */
public final class CommitPacing implements Pacing {
  private final long records;
  private final int commits;
  private final long intervalNanos;
  private final IntSupplier commitsSoFar;
  private final LongSupplier nanoClock;
  private final long gatePollNanos;
  private int seen = -1;
  private long seenAt;
  private long lastSentAt = -1;

  /**
   * @param records how many records the workload sends
   * @param commits how many commits the sink should make of them
   * @param commitIntervalMs the sink's commit interval
   * @param commitsSoFar how many the sink has made
   */
  public CommitPacing(long records, int commits, long commitIntervalMs, IntSupplier commitsSoFar) {
    this(records, commits, commitIntervalMs, commitsSoFar, System::nanoTime);
  }

  CommitPacing(
      long records,
      int commits,
      long commitIntervalMs,
      IntSupplier commitsSoFar,
      LongSupplier nanoClock) {
    if (records < 1 || commits < 1 || commitIntervalMs < 1) {
      throw new IllegalArgumentException(
          "records, commits and the commit interval must be at least 1, got "
              + records
              + ", "
              + commits
              + " and "
              + commitIntervalMs);
    }
    this.records = records;
    this.commits = commits;
    this.intervalNanos = commitIntervalMs * 1_000_000;
    this.commitsSoFar = commitsSoFar;
    this.nanoClock = nanoClock;
    this.gatePollNanos = Math.min(intervalNanos / 20, 10_000_000);
  }

  /** The records/s the pacing starts with, before the sink's first commit. */
  public double initialRecordsPerSecond() {
    return records * 1e9 / ((double) commits * intervalNanos);
  }

  @Override
  public long waitNanos(long sent) {
    long now = nanoClock.getAsLong();
    int commitsNow = commitsSoFar.getAsInt();
    if (commitsNow != seen) {
      seen = commitsNow;
      seenAt = now;
    }
    if (sent >= allowed()) {
      return gatePollNanos;
    }
    if (lastSentAt >= 0) {
      long end = seenAt + Math.max(0, commits - seen) * intervalNanos;
      long due = lastSentAt + Math.max(0, end - lastSentAt) / (records - sent);
      if (due > now) {
        return due - now;
      }
    }
    lastSentAt = now;
    return 0;
  }

  /** How many records may be out once {@code seen} commits were seen. */
  private long allowed() {
    long parts = Math.min(commits, (long) seen + 1);
    return (records * parts + commits - 1) / commits;
  }
}
