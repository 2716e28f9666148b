package io.sluice.stack.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class BoundedStopTest {

  @Test
  void aStopInTimeRunsNoOverrun() {
    AtomicBoolean closed = new AtomicBoolean();
    AtomicBoolean overrun = new AtomicBoolean();

    boolean stopped =
        BoundedStop.stop(() -> closed.set(true), Duration.ofSeconds(10), () -> overrun.set(true));

    assertThat(stopped).isTrue();
    assertThat(closed).isTrue();
    assertThat(overrun).isFalse();
  }

  @Test
  void aHangingStopKillsTheProcessesThisJvmStartedAndRunsTheOverrun() throws Exception {
    Process child = new ProcessBuilder("sleep", "300").start();
    CountDownLatch release = new CountDownLatch(1);
    AtomicBoolean overrun = new AtomicBoolean();
    try {
      boolean stopped =
          BoundedStop.stop(
              () -> release.await(), Duration.ofMillis(500), () -> overrun.set(!child.isAlive()));

      assertThat(stopped).isFalse();
      assertThat(overrun).as("the child was gone when the overrun ran").isTrue();
      assertThat(child.waitFor(1, TimeUnit.SECONDS)).isTrue();
    } finally {
      release.countDown();
      child.destroyForcibly();
    }
  }

  @Test
  void theStacksOfTheStuckThreadsNameWhereTheyWait() throws Exception {
    CountDownLatch release = new CountDownLatch(1);
    Thread stuck =
        new Thread(
            () -> {
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            },
            "stuck-for-test");
    stuck.start();
    try {
      // Started is not yet waiting: the stack is read once the thread is parked in the latch.
      await().atMost(Duration.ofSeconds(10)).until(() -> stuck.getState() == Thread.State.WAITING);
      assertThat(BoundedStop.stacksOf(java.util.List.of("stuck-for-test")))
          .contains("thread stuck-for-test (WAITING)")
          .contains("CountDownLatch.await");
    } finally {
      release.countDown();
      stuck.join();
    }
  }
}
