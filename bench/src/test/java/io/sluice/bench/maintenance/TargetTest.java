package io.sluice.bench.maintenance;

import static io.sluice.bench.maintenance.Results.PASSED;
import static io.sluice.bench.maintenance.Results.mode;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sluice.bench.maintenance.Target.Status;
import io.sluice.bench.sink.TableCheck;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetTest {
  @Test
  void aModeKeepsItsHighestAndItsLastScanRatioAndTheFilesOfTheLastSample() {
    ModeResult off = mode(Mode.OFF, 55_000, PASSED, 30, 10, 90, 10, 60, 12);

    assertThat(off.samples()).extracting(Sample::ratio).containsExactly(3.0, 9.0, 5.0);
    assertThat(off.maxRatio()).isEqualTo(9.0);
    assertThat(off.lastRatio()).isEqualTo(5.0);
    assertThat(off.finalFiles()).isEqualTo(off.samples().get(2).files());
    assertThat(off.recordsPerSecond()).isEqualTo(2_000.0);
    assertThat(off.sinkCommits()).isEqualTo(51);
    assertThat(off.checkPassed()).isTrue();
  }

  @Test
  void aSampleWhoseCompactedScanTookNoTimeHasNoRatio() {
    Sample sample = Sample.of(5, 1, 1, 1, TableFiles.NONE, 12, 0, 0, 14, 0);
    assertThat(sample.ratio()).isZero();
    assertThat(sample.wallRatio()).isZero();
  }

  @Test
  void maintenanceOnMeetsBothTargets() {
    List<Target> targets =
        Target.of(
            List.of(
                mode(Mode.OFF, 55_000, PASSED, 30, 10, 90, 10),
                mode(Mode.ON, 60_000, PASSED, 14, 10, 15, 10)));

    assertThat(targets).extracting(Target::status).containsExactly(Status.MET, Status.MET);
    assertThat(targets.get(0).value()).isEqualTo(1.5);
    assertThat(targets.get(1).value()).isCloseTo(55.0 / 60.0, within(1e-9));
    assertThat(targets.get(0).bound()).isEqualTo("<= 1.5");
    assertThat(targets.get(1).bound()).isEqualTo(">= 0.8");
  }

  @Test
  void oneSampleAboveTheBoundMissesTheScanTargetAndASlowSinkTheThroughputTarget() {
    List<Target> targets =
        Target.of(
            List.of(
                mode(Mode.OFF, 55_000, PASSED, 30, 10),
                mode(Mode.ON, 70_000, PASSED, 12, 10, 16, 10, 11, 10)));

    assertThat(targets).extracting(Target::status).containsExactly(Status.MISSED, Status.MISSED);
    assertThat(targets.get(0).value()).isEqualTo(1.6);
    assertThat(targets.get(1).value()).isCloseTo(55.0 / 70.0, within(1e-9));
  }

  @Test
  void withoutMaintenanceOnNeitherTargetIsMeasured() {
    List<Target> targets = Target.of(List.of(mode(Mode.OFF, 55_000, PASSED, 30, 10)));

    assertThat(targets)
        .extracting(Target::status)
        .containsExactly(Status.NOT_MEASURED, Status.NOT_MEASURED);
    assertThat(targets).extracting(Target::value).containsOnlyNulls();
  }

  @Test
  void onAloneMeasuresTheScanRatioButNotTheThroughputRatio() {
    List<Target> targets = Target.of(List.of(mode(Mode.ON, 55_000, PASSED, 12, 10)));

    assertThat(targets).extracting(Target::status).containsExactly(Status.MET, Status.NOT_MEASURED);
  }

  @Test
  void theRunPassesTheCheckOnlyWhenEveryModeDoes() {
    TableCheck duplicate = new TableCheck(9_951, 9_950, 0, 1);
    MaintenanceBenchResult result =
        MaintenanceBenchResult.of(
            Results.SETTINGS,
            List.of(
                mode(Mode.OFF, 55_000, PASSED, 30, 10), mode(Mode.ON, 55_000, duplicate, 12, 10)),
            130);

    assertThat(duplicate.passed()).isFalse();
    assertThat(result.modes().get(1).checkPassed()).isFalse();
    assertThat(result.checkPassed()).isFalse();
    assertThat(result.missed()).as("both targets met").isFalse();
    assertThat(new TableCheck(9_950, 9_950, 1, 0).passed()).as("a wrong key").isFalse();
    assertThat(new TableCheck(9_949, 9_950, 0, 0).passed()).as("a row missing").isFalse();
  }
}
