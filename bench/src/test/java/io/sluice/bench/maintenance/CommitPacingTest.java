package io.sluice.bench.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CommitPacingTest {
  private static final long SECOND = 1_000_000_000L;
  private static final long GATE_POLL = 10_000_000L;

  private final AtomicInteger commits = new AtomicInteger();
  private final AtomicLong now = new AtomicLong();
  private final CommitPacing pacing = new CommitPacing(1_000, 10, 1_000, commits::get, now::get);

  @Test
  void theFirstRecordGoesAtOnceAndTheRestIsSpreadOverTheCommitIntervalsWanted() {
    assertThat(pacing.initialRecordsPerSecond()).isCloseTo(100.0, within(1e-9));
    assertThat(pacing.waitNanos(0)).isZero();

    assertThat(pacing.waitNanos(1)).as("999 records over 10 s").isEqualTo(10 * SECOND / 999);
    now.set(10 * SECOND / 999);
    assertThat(pacing.waitNanos(1)).isZero();
  }

  @Test
  void atMostOnePartMoreThanTheCommitsSeenIsOut() {
    pacing.waitNanos(0);
    now.set(SECOND);

    assertThat(pacing.waitNanos(99)).as("the 100th record, before any commit").isZero();
    assertThat(pacing.waitNanos(100)).as("the 101st waits for a commit").isEqualTo(GATE_POLL);
    commits.set(1);
    assertThat(pacing.waitNanos(100))
        .as("let through, and 900 records over the 9 intervals after the commit")
        .isEqualTo(9 * SECOND / 900);
    assertThat(pacing.waitNanos(200)).isEqualTo(GATE_POLL);
  }

  @Test
  void everyCommitSeenMakesThePlanAgain() {
    pacing.waitNanos(0);
    now.set(3 * SECOND);
    commits.set(1);
    pacing.waitNanos(100);

    now.set(3 * SECOND + 1);
    assertThat(pacing.waitNanos(101))
        .as("a late first commit: 899 records over the 9 intervals after it")
        .isEqualTo(9 * SECOND / 899 - 1);
  }

  @Test
  void theLastRecordWaitsForTheLastCommitButOne() {
    pacing.waitNanos(0);
    now.set(SECOND);
    commits.set(8);
    assertThat(pacing.waitNanos(999)).isEqualTo(GATE_POLL);

    commits.set(9);
    assertThat(pacing.waitNanos(999)).as("due at the end of the interval").isEqualTo(SECOND);
    now.set(2 * SECOND);
    assertThat(pacing.waitNanos(999)).isZero();
  }

  @Test
  void aPlanThatRanOutSendsAsFastAsTheGateLets() {
    pacing.waitNanos(0);
    commits.set(12);
    now.set(20 * SECOND);

    assertThat(pacing.waitNanos(500)).isZero();
    assertThat(pacing.waitNanos(501)).isZero();
  }

  @Test
  void badSettingsAreRefused() {
    assertThatThrownBy(() -> new CommitPacing(10, 0, 1_000, commits::get))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "records, commits and the commit interval must be at least 1, got 10, 0 and 1000");
  }
}
