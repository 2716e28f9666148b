package io.sluice.bench.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.bench.sink.SinkBench.Settings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** A short run of the sink benchmark on real embedded components, proving it counts right. */
class SinkBenchIT {
  @Test
  void bothSinksTakeTheWholeStreamAndTheBenchCountsEveryRecord() {
    List<String> progress = new ArrayList<>();
    Settings settings =
        new Settings(
            2_000, 150, 500, 200, 3, Duration.ofSeconds(120), false, true, false, false, 0);

    SinkBenchResult result = new SinkBench(settings, progress::add).run();

    SinkBenchResult.Workload workload = result.workload();
    assertThat(workload.backlogRecords()).isEqualTo(2_000);
    assertThat(workload.pacedRecords()).isEqualTo(600);
    assertThat(workload.creates() + workload.updates() + workload.deletes()).isEqualTo(2_600);
    assertThat(workload.updates()).isPositive();
    assertThat(workload.deletes()).isPositive();

    SinkBenchResult.Check check = result.check();
    assertThat(check.passed()).as("tables hold what was produced: %s", check).isTrue();
    assertThat(check.expectedEvents()).isEqualTo(2_600);
    assertThat(check.expectedRows()).isBetween(1L, 150L);

    for (SinkBenchResult.Throughput t : List.of(result.upserts(), result.appends())) {
      assertThat(t.records()).isEqualTo(2_000);
      assertThat(t.elapsedMs()).isPositive();
      assertThat(t.snapshots()).isPositive();
    }
    for (SinkBenchResult.Freshness f :
        List.of(result.upsertFreshness(), result.appendFreshness())) {
      assertThat(f.count()).isEqualTo(600);
      assertThat(f.p50Ms()).isPositive().isLessThanOrEqualTo(f.p99Ms());
      assertThat(f.p99Ms()).isLessThanOrEqualTo(f.maxMs());
    }
    assertThat(result.paced()).isEqualTo(new SinkBenchResult.Paced(600, 200.0, 3));
    SinkBenchResult.Limit limit = result.limit();
    assertThat(limit).as("the limit runs unless told not to").isNotNull();
    assertThat(limit.check().passed()).as("the limit's table: %s", limit.check()).isTrue();
    assertThat(limit.backlog().records()).isEqualTo(2_000);
    assertThat(limit.backlog().recordsPerSecond()).isPositive();
    assertThat(result.upsertsOverLimit()).isPositive();
    assertThat(result.passed()).isTrue();
    assertThat(progress).anyMatch(line -> line.startsWith("limit: backlog "));
    assertThat(progress).anyMatch(line -> line.startsWith("produced a backlog of 2,000 records"));
  }

  @Test
  void aPreloadAndAWarmUpComeBeforeTheTimedBacklogOnTheDirectPath() {
    List<String> progress = new ArrayList<>();
    Settings settings =
        new Settings(500, 300, 500, 200, 1, Duration.ofSeconds(120), true, false, true, true, 250);

    SinkBenchResult result = new SinkBench(settings, progress::add).run();

    SinkBenchResult.Workload workload = result.workload();
    assertThat(workload.preloadedRecords()).isEqualTo(300);
    assertThat(workload.warmupRecords()).isEqualTo(250);
    assertThat(workload.events()).isEqualTo(300 + 250 + 500 + 200);
    assertThat(result.check().passed())
        .as("tables hold what was produced: %s", result.check())
        .isTrue();
    assertThat(result.check().expectedEvents()).isEqualTo(1_250);
    assertThat(result.upserts().records()).as("the backlog alone is timed").isEqualTo(500);
    assertThat(progress).anyMatch(line -> line.startsWith("preloaded 300 keys in "));
    assertThat(progress)
        .anyMatch(line -> line.startsWith("warm-up: sluice-upsert-sink alone: "))
        .anyMatch(line -> line.startsWith("warm-up: sluice-changelog-sink alone: "))
        .anyMatch(line -> line.startsWith("warm-up: 250 records worked off by each sink alone"));
    assertThat(result.limit()).as("--no-limit").isNull();
    assertThat(progress).anyMatch(line -> line.contains("(direct path) and "));
    assertThat(progress)
        .as("--backlog drain: produced with both paused, then each sink alone")
        .anyMatch(line -> line.contains("with both sinks paused"))
        .anyMatch(line -> line.startsWith("backlog: sluice-upsert-sink alone: "))
        .anyMatch(line -> line.startsWith("backlog: sluice-changelog-sink alone: "));
    assertThat(result.appends().records()).isEqualTo(500);
    assertThat(result.appends().elapsedMs()).isPositive();
  }
}
