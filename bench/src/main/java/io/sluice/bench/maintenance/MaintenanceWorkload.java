package io.sluice.bench.maintenance;

import io.sluice.bench.sink.ChangeStream;
import io.sluice.stack.workload.OrderRow;
import java.util.Map;

/**
 * The changes of one run, the same for every mode: {@code keys} orders created in key order, then
 * {@code updates} changes to keys drawn uniformly (seeded) or, skewed, mostly from a hot few
 * ({@link HotKeys}), of which {@value #DELETE_PERCENT}% of those to a live key delete it; a deleted
 * key drawn again is created anew (a re-insert). Keeps the state the changes leave, which the table
 * must hold afterwards.
 */
public final class MaintenanceWorkload {
  /** Percent of the changes to a live key that delete it. */
  public static final int DELETE_PERCENT = 1;

  private static final double DELETE_SHARE = DELETE_PERCENT / 100.0;

  private final long keys;
  private final long updates;
  private final ChangeStream stream;
  private final HotKeys hot;
  private long produced;

  /** Changes to keys drawn uniformly. */
  public MaintenanceWorkload(long keys, long updates, int seed) {
    this(keys, updates, seed, 0, 0);
  }

  /**
   * Changes to keys drawn uniformly ({@code hotPercent} 0) or, skewed, {@code hotUpdatesPercent}%
   * of them to a hot {@code hotPercent}% of the keys ({@link HotKeys}). The uniform draws are the
   * ones of {@link ChangeStream#next()}, as before the skew existed, so a seed gives the same run.
   */
  public MaintenanceWorkload(
      long keys, long updates, int seed, double hotPercent, int hotUpdatesPercent) {
    if (updates < 0) {
      throw new IllegalArgumentException("updates must be >= 0, got " + updates);
    }
    this.keys = keys;
    this.updates = updates;
    this.stream = new ChangeStream(seed, keys, DELETE_SHARE);
    this.hot = hotPercent == 0 ? null : new HotKeys(keys, hotPercent, hotUpdatesPercent, seed);
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
    if (produced <= keys) {
      return stream.next(produced);
    }
    return hot == null ? stream.next() : stream.next(hot.next());
  }

  /** The rows that exist after every change so far, by order id. */
  public Map<Long, OrderRow> live() {
    return stream.live();
  }

  /** What the changes so far were. */
  public Counts counts() {
    return new Counts(
        keys,
        updates,
        stream.creates(),
        stream.updates(),
        stream.deletes(),
        hot == null ? 0 : hot.hotKeys(),
        hot == null ? 0 : hot.hotDraws());
  }

  /**
   * The workload's size and, of the changes so far, how many created (the {@code keys} inserts and
   * the re-inserts), updated and deleted a row; skewed, how many keys were hot and how many of the
   * {@code updates} (changes after the inserts) went to one (both 0 when uniform).
   */
  public record Counts(
      long keys,
      long updates,
      long creates,
      long updated,
      long deletes,
      long hotKeys,
      long hotUpdates) {
    public long records() {
      return creates + updated + deletes;
    }
  }
}
