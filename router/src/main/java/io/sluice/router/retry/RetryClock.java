package io.sluice.router.retry;

/** Time for retry loops, injectable so tests do not wait. */
public interface RetryClock {
  /** The system clock: {@link System#nanoTime()} and {@link Thread#sleep(long)}. */
  RetryClock SYSTEM =
      new RetryClock() {
        @Override
        public long nanoTime() {
          return System.nanoTime();
        }

        @Override
        public void sleep(long millis) throws InterruptedException {
          Thread.sleep(millis);
        }
      };

  /** A monotonic time in nanoseconds. */
  long nanoTime();

  /** Waits {@code millis} milliseconds. */
  void sleep(long millis) throws InterruptedException;
}
