package io.sluice.router.testing;

import io.sluice.router.retry.RetryClock;
import java.util.ArrayList;
import java.util.List;

/** A retry clock whose sleeps return at once and move time forward by the slept amount. */
public final class FakeRetryClock implements RetryClock {
  private long nanos;
  private final List<Long> sleeps = new ArrayList<>();

  @Override
  public synchronized long nanoTime() {
    return nanos;
  }

  @Override
  public synchronized void sleep(long millis) {
    sleeps.add(millis);
    nanos += millis * 1_000_000;
  }

  /** Every sleep so far, in milliseconds. */
  public synchronized List<Long> sleeps() {
    return List.copyOf(sleeps);
  }
}
