package io.sluice.router.retry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.router.testing.FakeRetryClock;
import io.sluice.schema.registry.RegistryUnavailableException;
import io.sluice.schema.registry.SchemaNotFoundException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class RegistryRetryTest {
  private final FakeRetryClock clock = new FakeRetryClock();
  private final AtomicInteger retries = new AtomicInteger();
  private final RegistryRetry retry =
      new RegistryRetry(100, 1000, 5000, clock, retries::incrementAndGet);

  private static Supplier<String> failing(int times, AtomicInteger attempts) {
    return () -> {
      if (attempts.incrementAndGet() <= times) {
        throw new RegistryUnavailableException(503, "registry down", null);
      }
      return "ok";
    };
  }

  @Test
  void retriesWithExponentialBackoffUntilTheRegistryAnswers() {
    AtomicInteger attempts = new AtomicInteger();
    assertThat(retry.call(failing(5, attempts), () -> "record t-0@1")).isEqualTo("ok");
    assertThat(attempts.get()).isEqualTo(6);
    assertThat(retries.get()).isEqualTo(5);
    assertThat(clock.sleeps()).containsExactly(100L, 200L, 400L, 800L, 1000L);
  }

  @Test
  void givesUpPastTheBoundNamingTheRecord() {
    AtomicInteger attempts = new AtomicInteger();
    assertThatThrownBy(() -> retry.call(failing(1000, attempts), () -> "record t-2@41"))
        .isInstanceOf(RegistryRetryTimeoutException.class)
        .isInstanceOf(org.apache.kafka.streams.errors.StreamsException.class)
        .hasMessageContaining("record t-2@41")
        .hasMessageContaining("registry.retry.timeout.ms=5000")
        .hasMessageContaining("registry down")
        .hasCauseInstanceOf(RegistryUnavailableException.class);
    long slept = clock.sleeps().stream().mapToLong(Long::longValue).sum();
    assertThat(slept).isLessThanOrEqualTo(5000L);
  }

  @Test
  void permanentRegistryErrorsAreNotRetried() {
    assertThatThrownBy(
            () ->
                retry.call(
                    () -> {
                      throw new SchemaNotFoundException("Schema 9 not found");
                    },
                    () -> "record t-0@0"))
        .isInstanceOf(SchemaNotFoundException.class)
        .hasMessage("Schema 9 not found");
    assertThat(retries.get()).isZero();
  }

  @Test
  void goesOnAfterTheCallersFirstAttemptCountingTheBoundFromItsStart() {
    long start = retry.nanoTime();
    clock.sleep(4_000); // the caller's own first attempt took 4 s
    AtomicInteger attempts = new AtomicInteger();
    RegistryUnavailableException first = new RegistryUnavailableException(503, "down", null);

    assertThatThrownBy(() -> retry.retry(first, start, failing(1000, attempts), () -> "t-0@7"))
        .isInstanceOf(RegistryRetryTimeoutException.class)
        .hasMessageContaining("while validating t-0@7")
        .hasMessageContaining("registry.retry.timeout.ms=5000");
    // 4 s gone already: only 100 + 200 + 400 ms of backoff fit before the 5 s bound.
    assertThat(clock.sleeps()).containsExactly(4_000L, 100L, 200L, 400L);
    assertThat(attempts.get()).isEqualTo(3);
  }

  @Test
  void aRetryAfterTheCallersFailureReturnsOnceTheRegistryAnswers() {
    AtomicInteger attempts = new AtomicInteger();
    RegistryUnavailableException first = new RegistryUnavailableException(503, "down", null);

    assertThat(retry.retry(first, retry.nanoTime(), failing(2, attempts), () -> "t-0@8"))
        .isEqualTo("ok");
    assertThat(retries.get()).isEqualTo(3);
    assertThat(clock.sleeps()).containsExactly(100L, 200L, 400L);
  }
}
