package io.sluice.router.retry;

import io.sluice.schema.registry.RegistryUnavailableException;
import java.util.function.Supplier;
import org.apache.kafka.common.errors.InterruptException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Retries an action while the schema registry is unavailable, with exponential backoff, up to a
 * time bound; then throws {@link RegistryRetryTimeoutException}. Other exceptions pass through.
 */
public final class RegistryRetry {
  private static final Logger log = LoggerFactory.getLogger(RegistryRetry.class);

  private final long initialBackoffMs;
  private final long maxBackoffMs;
  private final long timeoutMs;
  private final RetryClock clock;
  private final Runnable onRetry;

  /**
   * @param onRetry called before every retry (counts the metric)
   */
  public RegistryRetry(
      long initialBackoffMs,
      long maxBackoffMs,
      long timeoutMs,
      RetryClock clock,
      Runnable onRetry) {
    this.initialBackoffMs = initialBackoffMs;
    this.maxBackoffMs = maxBackoffMs;
    this.timeoutMs = timeoutMs;
    this.clock = clock;
    this.onRetry = onRetry;
  }

  /** Now on this retry's clock: the {@code startNanos} of a first attempt made by the caller. */
  public long nanoTime() {
    return clock.nanoTime();
  }

  /**
   * Runs {@code action} until it returns without {@link RegistryUnavailableException}.
   *
   * @param where names the record (topic, partition, offset) for logs and the timeout message
   * @throws RegistryRetryTimeoutException when the registry is still unavailable after the bound
   * @throws InterruptException when interrupted while waiting
   */
  public <T> T call(Supplier<T> action, Supplier<String> where) {
    long start = clock.nanoTime();
    try {
      return action.get();
    } catch (RegistryUnavailableException e) {
      return retry(e, start, action, where);
    }
  }

  /**
   * Goes on after a first attempt made by the caller failed with {@code failure}: waits, then runs
   * {@code action} until it returns without {@link RegistryUnavailableException}. The bound counts
   * from {@code startNanos} (see {@link #nanoTime()}): when the first attempt started, or when it
   * failed for a caller that reads the clock only once something went wrong. Callers on a hot path
   * make the first attempt themselves, so records the registry does not hold up cost no lambdas and
   * no clock reads.
   *
   * @param where names the record (topic, partition, offset) for logs and the timeout message
   * @throws RegistryRetryTimeoutException when the registry is still unavailable after the bound
   * @throws InterruptException when interrupted while waiting
   */
  public <T> T retry(
      RegistryUnavailableException failure,
      long startNanos,
      Supplier<T> action,
      Supplier<String> where) {
    long backoff = initialBackoffMs;
    int attempt = 0;
    RegistryUnavailableException last = failure;
    while (true) {
      attempt++;
      long elapsedMs = (clock.nanoTime() - startNanos) / 1_000_000;
      if (elapsedMs + backoff > timeoutMs) {
        throw new RegistryRetryTimeoutException(
            "schema registry unavailable for "
                + elapsedMs
                + " ms ("
                + attempt
                + " attempts) while validating "
                + where.get()
                + "; failing the task so Kafka Streams restarts it from the last committed"
                + " offset (registry.retry.timeout.ms="
                + timeoutMs
                + "): "
                + last.getMessage(),
            last);
      }
      if (attempt == 1) {
        log.warn(
            "Schema registry unavailable while validating {}: {}; retrying for up to {} ms",
            where.get(),
            last.getMessage(),
            timeoutMs);
      }
      onRetry.run();
      sleep(backoff);
      backoff = Math.min(backoff * 2, maxBackoffMs);
      try {
        return action.get();
      } catch (RegistryUnavailableException e) {
        last = e;
      }
    }
  }

  private void sleep(long millis) {
    try {
      clock.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptException(e);
    }
  }
}
