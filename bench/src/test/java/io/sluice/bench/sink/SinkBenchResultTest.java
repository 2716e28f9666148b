package io.sluice.bench.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sluice.bench.sink.SinkBenchResult.Check;
import io.sluice.bench.sink.SinkBenchResult.Freshness;
import io.sluice.bench.sink.SinkBenchResult.Paced;
import io.sluice.bench.sink.SinkBenchResult.Throughput;
import io.sluice.bench.sink.SinkBenchResult.Workload;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class SinkBenchResultTest {
  @Test
  void percentilesAreNearestRank() {
    long[] latencies = LongStream.rangeClosed(1, 200).map(i -> 201 - i).toArray();

    Freshness f = Freshness.of(latencies);

    assertThat(f).isEqualTo(new Freshness(200, 100, 190, 198, 200));
    assertThat(Freshness.of(new long[] {42})).isEqualTo(new Freshness(1, 42, 42, 42, 42));
    assertThat(Freshness.of(new long[0])).isEqualTo(new Freshness(0, 0, 0, 0, 0));
  }

  @Test
  void freshnessMeetsItsTargetUpToTwoCommitIntervals() {
    assertThat(new Freshness(10, 500, 1_500, 2_000, 2_100).meets(1_000)).isTrue();
    assertThat(new Freshness(10, 500, 1_500, 2_001, 2_100).meets(1_000)).isFalse();
  }

  @Test
  void ratesAndTheirRatioComeFromRecordsAndElapsedTime() {
    SinkBenchResult result =
        result(new Throughput(10_000, 2_000, 3), new Throughput(10_000, 1_500, 2), check(0));

    assertThat(result.upserts().recordsPerSecond()).isEqualTo(5_000.0);
    assertThat(result.appends().recordsPerSecond()).isCloseTo(6_666.7, within(0.1));
    assertThat(result.ratio()).isCloseTo(0.75, within(1e-9));
    assertThat(result.ratioMet()).isFalse();
    assertThat(new Throughput(5, 0, 0).recordsPerSecond()).isZero();
  }

  @Test
  void aPreloadCountsAmongTheEventsTheChangelogMustHold() {
    assertThat(new Workload(100, 50, 100, 100, 40, 10, 0, 0).events()).isEqualTo(150);
    assertThat(new Workload(100, 50, 30, 30, 110, 10, 30, 0).events()).isEqualTo(180);
    assertThat(new Workload(100, 50, 30, 30, 160, 10, 30, 50).events())
        .as("the warm-up's records are events of the stream too")
        .isEqualTo(230);
  }

  @Test
  void theCheckPassesOnlyWhenBothTablesHoldWhatWasProduced() {
    assertThat(check(0).passed()).isTrue();
    assertThat(check(1).passed()).isFalse();
    assertThat(new Check(90, 90, 0, 149, 149, 150).passed()).as("an event missing").isFalse();
    assertThat(new Check(90, 90, 0, 151, 150, 150).passed()).as("an event twice").isFalse();
    assertThat(new Check(91, 90, 0, 150, 150, 150).passed()).as("a row too many").isFalse();
  }

  @Test
  void bothSinksAreMeasuredAgainstTheLimit() {
    SinkBenchResult result =
        result(new Throughput(10_000, 2_000, 3), new Throughput(10_000, 4_000, 2), check(0))
            .withLimit(limit(new Throughput(10_000, 500, 1), new TableCheck(90, 90, 0, 0)));

    assertThat(result.limit().backlog().recordsPerSecond()).isEqualTo(20_000.0);
    assertThat(result.limit().recordsPerCpuSecond()).isEqualTo(25_000.0);
    assertThat(result.limit().stages().otherMs()).isEqualTo(400 - 28);
    assertThat(result.upsertsOverLimit()).isCloseTo(0.25, within(1e-9));
    assertThat(result.appendsOverLimit()).isCloseTo(0.125, within(1e-9));
    SinkBenchResult noLimit =
        result(new Throughput(10_000, 2_000, 3), new Throughput(10_000, 4_000, 2), check(0));
    assertThat(noLimit.upsertsOverLimit()).isZero();
    assertThat(noLimit.appendsOverLimit()).isZero();
  }

  @Test
  void aRunPassesOnlyWhenTheLimitsTableHoldsWhatWasProducedToo() {
    SinkBenchResult sinks =
        result(new Throughput(10_000, 2_000, 3), new Throughput(10_000, 4_000, 2), check(0));
    Throughput rate = new Throughput(10_000, 500, 1);

    assertThat(sinks.passed()).as("no limit run").isTrue();
    assertThat(sinks.withLimit(limit(rate, new TableCheck(90, 90, 0, 0))).passed()).isTrue();
    assertThat(sinks.withLimit(limit(rate, new TableCheck(90, 90, 1, 0))).passed())
        .as("a wrong key in the limit's table")
        .isFalse();
    assertThat(sinks.withLimit(limit(rate, new TableCheck(91, 90, 0, 1))).passed())
        .as("a key twice in the limit's table")
        .isFalse();
  }

  private static SinkBenchResult.Limit limit(Throughput rate, TableCheck check) {
    return new SinkBenchResult.Limit(
        rate, new SinkBenchResult.Stages(400, 1, 2, 3, 4, 5, 6, 7), Map.of("merge", 1L), check);
  }

  private static Check check(long wrongKeys) {
    return new Check(90, 90, wrongKeys, 150, 150, 150);
  }

  private static SinkBenchResult result(Throughput upserts, Throughput appends, Check check) {
    return new SinkBenchResult(
        new Workload(100, 50, 100, 100, 40, 10, 0, 0),
        1_000,
        upserts,
        appends,
        new Paced(50, 10, 5),
        Freshness.of(new long[] {1}),
        Freshness.of(new long[] {1}),
        check,
        null);
  }
}
