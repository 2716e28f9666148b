package io.sluice.scenarios;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Polls a condition until it holds or a deadline passes. Every wait of a scenario goes through
 * here, so none is unbounded and each failure names what did not happen and what was last seen.
 */
public final class BoundedWait {
  private static final Logger log = LoggerFactory.getLogger(BoundedWait.class);
  private static final Duration POLL = Duration.ofMillis(500);

  private BoundedWait() {}

  /**
   * Calls {@code probe} until {@code done} accepts its value.
   *
   * @param what what should happen, as a failure names it ("the DLQ record appears")
   * @return the first accepted value
   * @throws ScenarioFailure when {@code timeout} passes first; names the last value or error
   */
  public static <T> T until(String what, Duration timeout, Callable<T> probe, Predicate<T> done) {
    return until(what, timeout, probe, done, value -> List.of());
  }

  /**
   * Calls {@code probe} until {@code done} accepts its value; a timeout also says which tables
   * drifted in the last value the probe gave ({@link ScenarioFailure#drift()}).
   *
   * @param drift the tables that drift in a value {@code done} did not accept
   * @throws ScenarioFailure when {@code timeout} passes first; names the last value or error and
   *     carries {@code drift} of the last value (none when the probe never answered)
   */
  public static <T> T until(
      String what,
      Duration timeout,
      Callable<T> probe,
      Predicate<T> done,
      Function<? super T, List<TableDrift>> drift) {
    long deadline = System.nanoTime() + timeout.toNanos();
    String lastSeen = "nothing yet";
    T last = null;
    while (true) {
      try {
        T value = probe.call();
        if (done.test(value)) {
          return value;
        }
        last = value;
        lastSeen = String.valueOf(value);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ScenarioFailure("interrupted while waiting until " + what, e);
      } catch (Exception e) {
        lastSeen = e.toString();
        log.debug("waiting until {}: {}", what, lastSeen);
      }
      if (System.nanoTime() > deadline) {
        throw new ScenarioFailure(
            "timed out after "
                + timeout.toSeconds()
                + " s waiting until "
                + what
                + "; last seen: "
                + abbreviate(lastSeen),
            last == null ? List.of() : drift.apply(last));
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new ScenarioFailure("interrupted while waiting until " + what, e);
      }
    }
  }

  /**
   * Calls {@code probe} until {@code done} accepts its value or {@code timeout} passes, and returns
   * the last value either way (null when the probe never answered): for waits whose outcome is a
   * check of the report rather than the end of the run.
   */
  public static <T> T latest(Duration timeout, Callable<T> probe, Predicate<T> done) {
    long deadline = System.nanoTime() + timeout.toNanos();
    T last = null;
    while (true) {
      try {
        last = probe.call();
        if (done.test(last)) {
          return last;
        }
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return last;
      } catch (Exception e) {
        log.debug("probe failed: {}", e.toString());
      }
      if (System.nanoTime() > deadline) {
        return last;
      }
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return last;
      }
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 300 ? text : text.substring(0, 300) + "...";
  }
}
