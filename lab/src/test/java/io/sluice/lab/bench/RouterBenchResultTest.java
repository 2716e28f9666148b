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

  @Test
  void cpuPerRecordIsTheMedianOverTheRounds() {
    RouterBenchResult result =
        new RouterBenchResult(
            List.of(
                cpuRun(Duration.ofSeconds(5), Duration.ofSeconds(2), Duration.ofMillis(1500)),
                cpuRun(Duration.ofSeconds(4), Duration.ofSeconds(3), Duration.ofMillis(1400)),
                cpuRun(Duration.ofSeconds(9), Duration.ofSeconds(1), Duration.ofMillis(900))),
            List.of(cpuRun(Duration.ofSeconds(3), Duration.ofSeconds(2), Duration.ofMillis(1200))),
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

  private static Run run(long records, long seconds) {
    return new Run("x", records, Duration.ofSeconds(seconds), 0, Duration.ZERO);
  }
}
