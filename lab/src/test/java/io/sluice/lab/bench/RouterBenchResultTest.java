package io.sluice.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sluice.lab.bench.RouterBenchResult.Run;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RouterBenchResultTest {
  @Test
  void runRatesCountFromStartAndFromTheFirstCommit() {
    Run run = new Run("router", 1000, Duration.ofSeconds(2), 200, Duration.ofMillis(400));

    assertThat(run.recordsPerSecond()).isCloseTo(500, within(1e-9));
    assertThat(run.steadyRecordsPerSecond()).isCloseTo(500, within(1e-9));
  }

  @Test
  void aRunCommittedInOneGoHasNoSteadyRate() {
    Run run = new Run("router", 1000, Duration.ofSeconds(1), 1000, Duration.ofSeconds(1));

    assertThat(run.steadyRecordsPerSecond()).isNaN();
  }

  @Test
  void ratioIsOfTheMediansOverTheRounds() {
    RouterBenchResult result =
        new RouterBenchResult(
            List.of(run(1000, 10), run(1000, 1), run(1000, 2)),
            List.of(run(1000, 1), run(1000, 1), run(1000, 4)),
            0,
            132);

    assertThat(result.routerRecordsPerSecond()).isCloseTo(500, within(1e-9));
    assertThat(result.passThroughRecordsPerSecond()).isCloseTo(1000, within(1e-9));
    assertThat(result.ratio()).isCloseTo(0.5, within(1e-9));
  }

  private static Run run(long records, long seconds) {
    return new Run("x", records, Duration.ofSeconds(seconds), 0, Duration.ZERO);
  }
}
