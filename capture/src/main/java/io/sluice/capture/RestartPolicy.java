package io.sluice.capture;

import io.sluice.capture.publish.PublishException;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Decides whether a failed engine run is restarted. Only publish failures are: the engine then
 * resumes from its last committed source offset and re-emits what followed (at-least-once), which
 * cures a batch Kafka refused or let expire. A few restarts in a row, each after a longer delay;
 * the count starts again once a change is published.
 */
final class RestartPolicy {
  private final int maxInARow;
  private final Duration firstDelay;
  private final AtomicInteger inARow = new AtomicInteger();

  RestartPolicy(int maxInARow, Duration firstDelay) {
    this.maxInARow = maxInARow;
    this.firstDelay = firstDelay;
  }

  /** One restart the caller may make, or empty when the failure is final. */
  Optional<Restart> afterFailure(Throwable error) {
    Optional<PublishException> publish = PublishException.in(error);
    if (publish.isEmpty()) {
      return Optional.empty();
    }
    int attempt = inARow.incrementAndGet();
    if (attempt > maxInARow) {
      return Optional.empty();
    }
    return Optional.of(
        new Restart(
            publish.get().topic(),
            reason(publish.get()),
            attempt,
            maxInARow,
            firstDelay.multipliedBy(1L << (attempt - 1))));
  }

  private static String reason(PublishException publish) {
    Throwable cause = publish.getCause();
    return cause == null ? publish.getMessage() : publish.getMessage() + ": " + cause;
  }

  /** A change was published: the engine works again. */
  void progressed() {
    inARow.set(0);
  }

  /**
   * @param topic the change topic that could not be written
   * @param reason why, as the publish failure says it
   * @param attempt 1 for the first restart in a row
   */
  record Restart(String topic, String reason, int attempt, int of, Duration delay) {}
}
