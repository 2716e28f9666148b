package io.sluice.bench.maintenance;

import io.sluice.bench.sink.ChangeStream;
import io.sluice.stack.workload.OrderRow;
import java.util.Map;

/**
 * The changes of one run, the same for every mode: {@code keys} orders created in key order, then
 * {@code updates} changes to keys drawn uniformly (seeded), of which {@value #DELETE_PERCENT}% of
 * those to a live key delete it; a deleted key drawn again is created anew (a re-insert). Keeps the
 * state the changes leave, which the table must hold afterwards.
 */
public final class MaintenanceWorkload {
  /** Percent of the changes to a live key that delete it. */
  public static final int DELETE_PERCENT = 1;

  private static final double DELETE_SHARE = DELETE_PERCENT / 100.0;

  private final long keys;
  private final long updates;
  private final ChangeStream stream;
  private long produced;

  public MaintenanceWorkload(long keys, long updates, int seed) {
    if (updates < 0) {
      throw new IllegalArgumentException("updates must be >= 0, got " + updates);
    }
    this.keys = keys;
    this.updates = updates;
    this.stream = new ChangeStream(seed, keys, DELETE_SHARE);
  }

  /** Inserts plus updates. */
  public long size() {
    return keys + updates;
  }

  /**
   * The next change.
   *
   * @throws IllegalStateException after {@link #size()} changes
   */
  public ChangeStream.Change next() {
    if (produced >= size()) {
      throw new IllegalStateException("the workload has only " + size() + " changes");
    }
    produced++;
    return produced <= keys ? stream.next(produced) : stream.next();
  }

  /** The rows that exist after every change so far, by order id. */
  public Map<Long, OrderRow> live() {
    return stream.live();
  }

  /** What the changes so far were. */
  public Counts counts() {
    return new Counts(keys, updates, stream.creates(), stream.updates(), stream.deletes());
  }

  /**
   * The workload's size and, of the changes so far, how many created (the {@code keys} inserts and
   * the re-inserts), updated and deleted a row.
   */
  public record Counts(long keys, long updates, long creates, long updated, long deletes) {
    public long records() {
      return creates + updated + deletes;
    }
  }
}
