package io.sluice.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class ReadinessTest {
  @Test
  void waitsUntilEachCheckAnswersInOrder() {
    AtomicInteger calls = new AtomicInteger();
    new Readiness()
        .check("Registry", "GET /subjects", () -> calls.incrementAndGet() >= 3)
        .check("Router", "state RUNNING", () -> true)
        .await(Duration.ofSeconds(10));

    assertThat(calls).hasValue(3);
  }

  @Test
  void aComponentThatNeverAnswersIsNamedWithWhatWasAskedAndTheLastError() {
    Readiness readiness =
        new Readiness()
            .check("Kafka broker", "describeCluster", () -> true)
            .check(
                "Schema registry",
                "GET http://127.0.0.1:1/subjects",
                () -> {
                  throw new ConnectException("Connection refused");
                });

    assertThatThrownBy(() -> readiness.await(Duration.ofMillis(300)))
        .isInstanceOf(StackStartException.class)
        .hasMessageStartingWith(
            "Schema registry did not answer in time (GET http://127.0.0.1:1/subjects, waited 0.3 s)")
        .hasMessageContaining("Connection refused")
        .hasCauseInstanceOf(IOException.class);
  }

  @Test
  void aCheckThatAnswersNoIsReportedWithoutACause() {
    Readiness readiness = new Readiness().check("Router", "state RUNNING", () -> false);

    assertThatThrownBy(() -> readiness.await(Duration.ofMillis(300)))
        .isInstanceOf(StackStartException.class)
        .hasMessage("Router did not answer in time (state RUNNING, waited 0.3 s)")
        .hasNoCause();
  }

  @Test
  void aCheckThatKnowsWaitingCannotHelpEndsTheWaitAtOnce() {
    AtomicInteger calls = new AtomicInteger();
    Readiness readiness =
        new Readiness()
            .check(
                "Kafka Connect",
                "connector RUNNING",
                () -> {
                  calls.incrementAndGet();
                  throw new StackStartException("task 0 of connector c FAILED: boom");
                });

    long started = System.nanoTime();
    assertThatThrownBy(() -> readiness.await(Duration.ofSeconds(30)))
        .isInstanceOf(StackStartException.class)
        .hasMessage("task 0 of connector c FAILED: boom");
    assertThat(calls).hasValue(1);
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(5));
  }
}
