package io.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.sluice.bench.RouterBenchResult.Run;
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
  void ratesAreMediansAndTheRatioIsTheMedianOfTheRoundsRatios() {
    // Round by round: 100/1000, 1000/1000, 500/250 records/s.
    RouterBenchResult result =
        new RouterBenchResult(
            List.of(run(1000, 10), run(1000, 1), run(1000, 2)),
            List.of(run(1000, 1), run(1000, 1), run(1000, 4)),
            0,
            132);

    assertThat(result.routerRecordsPerSecond()).isCloseTo(500, within(1e-9));
    assertThat(result.passThroughRecordsPerSecond()).isCloseTo(1000, within(1e-9));
    assertThat(result.roundRatios()).containsExactly(0.1, 1.0, 2.0);
    // Not 500 / 1000, the ratio of the medians: each round is compared with itself.
    assertThat(result.ratio()).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void ratioOfAnEvenNumberOfRoundsIsTheMeanOfTheMiddleTwo() {
    RouterBenchResult result =
        new RouterBenchResult(
            List.of(run(900, 1), run(800, 1), run(1000, 1), run(300, 1)),
            List.of(run(1000, 1), run(1000, 1), run(1000, 1), run(1000, 1)),
            0,
            132);

    assertThat(result.ratio()).isCloseTo(0.85, within(1e-9));
  }

  @Test
  void steadyRatioPairsTheRoundsToo() {
    // Steady rates: router 800/1 s, 800/4 s; pass-through 800/2 s, 800/2 s.
    RouterBenchResult result =
        new RouterBenchResult(
            List.of(steadyRun(1), steadyRun(4), steadyRun(1)),
            List.of(steadyRun(2), steadyRun(2), steadyRun(1)),
            0,
            132);

    assertThat(result.steadyRatio()).isCloseTo(1.0, within(1e-9));
  }

  @Test
  void everyRoundNeedsBothRuns() {
    assertThatThrownBy(
            () -> new RouterBenchResult(List.of(run(1, 1), run(1, 1)), List.of(run(1, 1)), 0, 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("one router and one pass-through run per round");
    assertThatThrownBy(() -> new RouterBenchResult(List.of(), List.of(), 0, 1))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void cpuPerRecordIsTheMedianOverTheRounds() {
    RouterBenchResult result =
        new RouterBenchResult(
            List.of(
                cpuRun(Duration.ofSeconds(5), Duration.ofSeconds(2), Duration.ofMillis(1500)),
                cpuRun(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(1400)),
                cpuRun(Duration.ofSeconds(9), Duration.ofSeconds(1), Duration.ofMillis(900))),
            List.of(
                cpuRun(Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(1200)),
                cpuRun(Duration.ofSeconds(2), Duration.ofSeconds(1), Duration.ofMillis(1100)),
                cpuRun(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(1300))),
            0,
            132);

    // 1,000,000 records: 5 s of CPU is 5 µs per record.
    assertThat(result.routerProcessCpuMicrosPerRecord()).isCloseTo(5, within(1e-9));
    assertThat(result.routerApplicationCpuMicrosPerRecord()).isCloseTo(2, within(1e-9));
    assertThat(result.passThroughProcessCpuMicrosPerRecord()).isCloseTo(3, within(1e-9));
    assertThat(result.passThroughApplicationCpuMicrosPerRecord()).isCloseTo(2, within(1e-9));
    assertThat(result.routerStreamThreadCpuMicrosPerRecord()).isCloseTo(1.4, within(1e-9));
    assertThat(result.passThroughStreamThreadCpuMicrosPerRecord()).isCloseTo(1.2, within(1e-9));
  }

  private static Run cpuRun(Duration processCpu, Duration applicationCpu, Duration streamCpu) {
    return new Run(
        "x",
        1_000_000,
        Duration.ofSeconds(4),
        0,
        Duration.ZERO,
        processCpu,
        applicationCpu,
        streamCpu);
  }

  /** 1,000 records in 1 s + {@code steadySeconds}, the first 200 committed after 1 s. */
  private static Run steadyRun(long steadySeconds) {
    return new Run("x", 1000, Duration.ofSeconds(1 + steadySeconds), 200, Duration.ofSeconds(1));
  }

  private static Run run(long records, long seconds) {
    return new Run("x", records, Duration.ofSeconds(seconds), 0, Duration.ZERO);
  }
}
