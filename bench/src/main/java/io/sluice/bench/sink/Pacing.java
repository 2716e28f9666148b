package io.sluice.bench.sink;

/** When a producer may send its next record. */
@FunctionalInterface
public interface Pacing {
  /**
   * Nanoseconds to wait from now before sending the record numbered {@code sent} (0 is the first);
   * 0 or less: send it now. Asked again after the wait, until it says to send.
   */
  long waitNanos(long sent);

  /** As fast as the producer goes. */
  static Pacing unpaced() {
    return sent -> 0;
  }

  /**
   * {@code recordsPerSecond} records a second from the first record on, catching up after a delay;
   * 0 is {@link #unpaced()}.
   */
  static Pacing steady(double recordsPerSecond) {
    if (recordsPerSecond <= 0) {
      return unpaced();
    }
    return new Pacing() {
      private long start = -1;

      @Override
      public long waitNanos(long sent) {
        long now = System.nanoTime();
        if (start < 0) {
          start = now;
        }
        return start + (long) (sent * 1e9 / recordsPerSecond) - now;
      }
    };
  }
}
