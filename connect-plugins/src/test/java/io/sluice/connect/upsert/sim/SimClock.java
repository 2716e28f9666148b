package io.sluice.connect.upsert.sim;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The simulation's time: the sink's interval and retry clocks, its wall clock and its sleeps all
 * read or move this one value, so a schedule decides when commits, retries and expiry happen.
 */
final class SimClock {
  private final long startMillis;
  private long nanos;

  SimClock(long startMillis) {
    this.startMillis = startMillis;
  }

  long nanos() {
    return nanos;
  }

  long millis() {
    return startMillis + nanos / 1_000_000;
  }

  void advanceMs(long ms) {
    nanos += ms * 1_000_000;
  }

  /** A sleep of the sink passes simulated time only. */
  void sleep(long ms) {
    advanceMs(ms);
  }

  Clock wall() {
    return new Clock() {
      @Override
      public ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return Instant.ofEpochMilli(SimClock.this.millis());
      }
    };
  }
}
