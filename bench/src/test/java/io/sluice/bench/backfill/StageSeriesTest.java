package io.sluice.bench.backfill;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class StageSeriesTest {
  @Test
  void theWindowRunsFromTheLastIdleSampleToTheFirstAtTheFinalCount() {
    StageSeries series = new StageSeries();
    series.add(0.0, 0);
    series.add(1.0, 0);
    series.add(2.0, 400);
    series.add(3.0, 1_000);
    series.add(4.0, 1_000);

    assertThat(series.window()).containsExactly(1.0, 3.0);
    assertThat(series.last()).isEqualTo(1_000);
  }

  @Test
  void aStageThatNeverMovedHasAWindowOfItsWholeSampling() {
    StageSeries series = new StageSeries();
    series.add(0.5, 0);
    series.add(1.5, 0);

    assertThat(series.window()).containsExactly(0.5, 0.5);
  }
}
