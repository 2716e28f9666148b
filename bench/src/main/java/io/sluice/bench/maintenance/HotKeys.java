package io.sluice.bench.maintenance;

import java.util.SplittableRandom;

/**
 * The keys of a skewed workload's changes: a hot set of {@code hotPercent}% of the {@code keys}
 * order ids (at least one), spread evenly over the ids so that they fall into every insert batch,
 * takes {@code hotDrawsPercent}% of the draws, uniformly within it; the other ids take the rest,
 * uniformly among them. Seeded: the same arguments draw the same ids.
 */
public final class HotKeys {
  private final long keys;
  private final long hot;
  private final double hotShare;
  private final SplittableRandom random;
  private long hotDraws;

  /**
   * @param hotPercent the share of the ids that are hot, in percent: more than 0, less than 100
   * @param hotDrawsPercent the share of the draws that go to a hot id, in percent: 0 to 100
   */
  public HotKeys(long keys, double hotPercent, int hotDrawsPercent, int seed) {
    if (keys < 1) {
      throw new IllegalArgumentException("keys must be at least 1, got " + keys);
    }
    if (!(hotPercent > 0 && hotPercent < 100)) {
      throw new IllegalArgumentException(
          "hot percent must be more than 0 and less than 100, got " + hotPercent);
    }
    if (hotDrawsPercent < 0 || hotDrawsPercent > 100) {
      throw new IllegalArgumentException(
          "hot draws percent must be between 0 and 100, got " + hotDrawsPercent);
    }
    this.keys = keys;
    this.hot = Math.max(1, Math.min(keys, Math.round(keys * hotPercent / 100)));
    this.hotShare = hotDrawsPercent / 100.0;
    // Not the change stream's seed as is: its own draws (delete or update, the new status) stay
    // independent of these.
    this.random = new SplittableRandom(0x9E3779B97F4A7C15L ^ seed);
  }

  /** How many ids are hot. */
  public long hotKeys() {
    return hot;
  }

  /** The draws so far that went to a hot id. */
  public long hotDraws() {
    return hotDraws;
  }

  /** The next order id, in [1, keys]. */
  public long next() {
    if (hot == keys || random.nextDouble() < hotShare) {
      hotDraws++;
      return hotId(random.nextLong(hot));
    }
    // Every id is cold with probability (keys - hot) / keys > 0; redraw the hot ones.
    while (true) {
      long id = 1 + random.nextLong(keys);
      if (!isHot(id)) {
        return id;
      }
    }
  }

  /** Whether {@code id} is one of the hot ids. */
  public boolean isHot(long id) {
    if (id < 1 || id > keys) {
      return false;
    }
    // The hot ids are 1 + floor(j * keys / hot) for j in [0, hot); the only candidate j for an id
    // is the smallest j with j * keys / hot >= id - 1.
    long j = ceilDiv(Math.multiplyExact(id - 1, hot), keys);
    return j < hot && hotId(j) == id;
  }

  private long hotId(long j) {
    return 1 + Math.multiplyExact(j, keys) / hot;
  }

  private static long ceilDiv(long a, long b) {
    return -Math.floorDiv(-a, b);
  }
}
