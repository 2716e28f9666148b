package io.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RouterThroughputBenchIT {
  @Test
  void bothApplicationsCommitEveryRecordAndPoisonLandsOnTheDlq() {
    List<String> progress = new ArrayList<>();
    RouterThroughputBench.Settings settings =
        new RouterThroughputBench.Settings(2_000, 0, 0.05, 0, 1, Duration.ofSeconds(120), Map.of());

    RouterBenchResult result = new RouterThroughputBench(settings, progress::add).run();

    // The bench itself fails unless .clean has N - poison, .dlq has poison and the
    // pass-through output has N committed records.
    assertThat(result.poison()).isEqualTo(100);
    assertThat(result.router())
        .singleElement()
        .satisfies(r -> assertThat(r.records()).isEqualTo(2_000));
    assertThat(result.passThrough()).hasSize(1);
    assertThat(result.ratio()).isPositive();
    assertThat(progress).anyMatch(line -> line.startsWith("produced 2000 records (100 poison)"));
  }

  @Test
  void routerPropertiesReachTheRouter() {
    List<String> progress = new ArrayList<>();
    RouterThroughputBench.Settings settings =
        new RouterThroughputBench.Settings(
            1_000, 0, 0.1, 0, 1, Duration.ofSeconds(120), Map.of("validate.ahead", "false"));

    RouterBenchResult result = new RouterThroughputBench(settings, progress::add).run();

    // Every record validated by the stream thread: the counts on .clean and .dlq still hold.
    assertThat(result.poison()).isEqualTo(100);
    assertThat(progress)
        .anyMatch(
            line -> line.contains("router properties") && line.contains("validate.ahead=false"));
  }

  @Test
  void warmsUpWhileTheJitIsBusyAndEmptiesTheOutputsBetweenRuns() {
    List<String> progress = new ArrayList<>();
    RouterThroughputBench.Settings settings =
        new RouterThroughputBench.Settings(
            2_000, 0, 0.05, 1, 2, 1, Duration.ofSeconds(120), Map.of());

    RouterBenchResult result = new RouterThroughputBench(settings, progress::add).run();

    // One warm-up round, and a second one only when the JIT was busy in the first.
    List<String> verdicts =
        progress.stream()
            .filter(line -> line.matches("warm-up \\d: the JIT compiled for .*"))
            .toList();
    assertThat(verdicts).isNotEmpty().hasSizeLessThanOrEqualTo(2);
    assertThat(verdicts.get(verdicts.size() - 1)).endsWith("timed rounds next");
    if (verdicts.size() == 2) {
      assertThat(verdicts.get(0)).startsWith("warm-up 1:").endsWith("one more warm-up round");
    }
    // Each application ran once per round; the bench fails unless every run's output held
    // exactly that run's records, which needs the outputs emptied in between.
    assertThat(progress.stream().filter(line -> line.startsWith("router: 2000 records committed")))
        .hasSize(verdicts.size() + 1);
    assertThat(result.router()).hasSize(1);
    assertThat(result.passThrough()).hasSize(1);
  }

  @Test
  void theMostWarmUpRoundsAreNeverFewerThanTheWarmUpRounds() {
    assertThatThrownBy(
            () ->
                new RouterThroughputBench.Settings(
                    1, 0, 0, 3, 2, 1, Duration.ofSeconds(1), Map.of()))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("warm-up rounds");
  }

  @Test
  void theBenchmarksOwnKeysCannotBeOverridden() {
    assertThatThrownBy(
            () ->
                new RouterThroughputBench.Settings(
                    1, 0, 0, 0, 1, Duration.ofSeconds(1), Map.of("application.id", "x")))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("application.id");
  }
}
