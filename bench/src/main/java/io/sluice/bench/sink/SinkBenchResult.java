package io.sluice.bench.sink;

import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code sluice bench sink} measured: throughput of both sinks on the same backlog, freshness
 * of both on a paced stream, and whether the tables hold what was produced.
 *
 * @param upserts the upsert sink on the backlog
 * @param appends the Apache sink on the same backlog, at the same time
 * @param upsertFreshness produce-to-visible of the paced records in the current table
 * @param appendFreshness produce-to-visible of the paced records in the changelog table
 * @param limit the same backlog through the upsert sink's work in one thread without Connect; null
 *     when it was not run
 */
public record SinkBenchResult(
    Workload workload,
    long commitIntervalMs,
    Throughput upserts,
    Throughput appends,
    Paced paced,
    Freshness upsertFreshness,
    Freshness appendFreshness,
    Check check,
    Limit limit) {

  /** Target: the upsert sink keeps at least this share of the Apache sink's append rate. */
  public static final double TARGET_RATIO = 0.8;

  /** Target: p99 freshness at most this many commit intervals. */
  public static final double TARGET_FRESHNESS_INTERVALS = 2.0;

  /**
   * The records produced: preload (0 or one create per key), backlog and paced, and their
   * operations.
   */
  public record Workload(
      long backlogRecords,
      long pacedRecords,
      long keys,
      long creates,
      long updates,
      long deletes,
      long preloadedRecords,
      long warmupRecords) {
    public long events() {
      return preloadedRecords + warmupRecords + backlogRecords + pacedRecords;
    }
  }

  /** The paced phase: how many records at what rate. */
  public record Paced(long records, double recordsPerSecond, long seconds) {}

  /**
   * A sink working off the backlog: {@code records} visible {@code elapsedMs} after the first was
   * produced, in {@code snapshots} commits.
   */
  public record Throughput(long records, long elapsedMs, int snapshots) {
    public double recordsPerSecond() {
      return elapsedMs <= 0 ? 0 : records * 1000.0 / elapsedMs;
    }
  }

  /** Produce-to-visible latency percentiles (nearest rank), in milliseconds. */
  public record Freshness(long count, long p50Ms, long p95Ms, long p99Ms, long maxMs) {
    /** The percentiles of {@code latenciesMs} (sorted in place). */
    public static Freshness of(long[] latenciesMs) {
      if (latenciesMs.length == 0) {
        return new Freshness(0, 0, 0, 0, 0);
      }
      Arrays.sort(latenciesMs);
      return new Freshness(
          latenciesMs.length,
          percentile(latenciesMs, 0.50),
          percentile(latenciesMs, 0.95),
          percentile(latenciesMs, 0.99),
          latenciesMs[latenciesMs.length - 1]);
    }

    /**
     * Produce-to-visible of every record from {@code starts} (inclusive) to {@code ends}
     * (exclusive), by partition: when {@code coverage} first showed it less when it was sent.
     */
    public static Freshness of(
        Coverage coverage, SendLog sends, Map<Integer, Long> starts, Map<Integer, Long> ends) {
      long records = 0;
      for (Map.Entry<Integer, Long> end : ends.entrySet()) {
        records += end.getValue() - starts.getOrDefault(end.getKey(), 0L);
      }
      long[] latencies = new long[(int) records];
      int i = 0;
      for (Map.Entry<Integer, Long> end : ends.entrySet()) {
        int partition = end.getKey();
        for (long offset = starts.getOrDefault(partition, 0L); offset < end.getValue(); offset++) {
          latencies[i++] = coverage.visibleAt(partition, offset) - sends.sentAt(partition, offset);
        }
      }
      return of(latencies);
    }

    static long percentile(long[] sorted, double p) {
      int rank = (int) Math.ceil(p * sorted.length);
      return sorted[Math.max(0, rank - 1)];
    }

    public boolean meets(long commitIntervalMs) {
      return p99Ms <= TARGET_FRESHNESS_INTERVALS * commitIntervalMs;
    }
  }

  /**
   * The tables after the run: the current table against the state the changes leave (rows, and keys
   * whose row is missing, extra or has another event id), the changelog against every event
   * produced (rows and distinct Kafka coordinates).
   */
  public record Check(
      long currentRows,
      long expectedRows,
      long wrongKeys,
      long changelogRows,
      long changelogCoordinates,
      long expectedEvents) {
    public boolean passed() {
      return currentRows == expectedRows
          && wrongKeys == 0
          && changelogRows == expectedEvents
          && changelogCoordinates == expectedEvents;
    }
  }

  /**
   * The limit: the backlog through the cheapest path the upsert sink's work allows, in one thread
   * with no Kafka Connect, into a table of its own.
   *
   * @param backlog the backlog's records, from the limit's first poll to the commit that covered
   *     the last one, and its commits
   * @param stages the CPU time of the limit's thread in that time, in all and by stage
   * @param commitModes the limit's snapshots over the whole run, by the sink's commit modes
   * @param check the limit's table against the state the changes leave
   */
  public record Limit(
      Throughput backlog, Stages stages, Map<String, Long> commitModes, TableCheck check) {
    public Limit {
      commitModes = Collections.unmodifiableMap(new TreeMap<>(commitModes));
    }

    /** Backlog records per second of the limit thread's CPU time; 0 when none was measured. */
    public double recordsPerCpuSecond() {
      return stages.cpuMs() <= 0 ? 0 : backlog.records() * 1000.0 / stages.cpuMs();
    }
  }

  /**
   * Milliseconds of the limit thread's CPU time: {@code cpuMs} in all, and per stage ({@code
   * StageClock.Stage}); the rest ({@link #otherMs}) is the loop itself.
   */
  public record Stages(
      long cpuMs,
      long readMs,
      long decodeMs,
      long convertMs,
      long reduceMs,
      long writeMs,
      long keyIndexMs,
      long commitMs) {
    public long otherMs() {
      return cpuMs - (readMs + decodeMs + convertMs + reduceMs + writeMs + keyIndexMs + commitMs);
    }
  }

  /** Upsert sink's rate over the limit's; 0 without a limit. */
  public double upsertsOverLimit() {
    return overLimit(upserts);
  }

  /** Apache sink's rate over the limit's; 0 without a limit. */
  public double appendsOverLimit() {
    return overLimit(appends);
  }

  private double overLimit(Throughput sink) {
    double limitRate = limit == null ? 0 : limit.backlog().recordsPerSecond();
    return limitRate == 0 ? 0 : sink.recordsPerSecond() / limitRate;
  }

  /** Whether every table checked holds what it must: the sinks' and, when run, the limit's. */
  public boolean passed() {
    return check.passed() && (limit == null || limit.check().passed());
  }

  /** This result with {@code limit}. */
  public SinkBenchResult withLimit(Limit limit) {
    return new SinkBenchResult(
        workload,
        commitIntervalMs,
        upserts,
        appends,
        paced,
        upsertFreshness,
        appendFreshness,
        check,
        limit);
  }

  /** Upserts/s over appends/s on the same backlog. */
  public double ratio() {
    double appendRate = appends.recordsPerSecond();
    return appendRate == 0 ? 0 : upserts.recordsPerSecond() / appendRate;
  }

  public boolean ratioMet() {
    return ratio() >= TARGET_RATIO;
  }
}
