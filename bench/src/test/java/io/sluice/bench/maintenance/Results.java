package io.sluice.bench.maintenance;

import io.sluice.bench.maintenance.MaintenanceBench.Settings;
import io.sluice.bench.sink.SinkBenchResult.Freshness;
import io.sluice.bench.sink.SinkBenchResult.Throughput;
import io.sluice.bench.sink.SnapshotTally;
import io.sluice.bench.sink.TableCheck;
import java.util.List;
import java.util.Map;

/** Fixed results for the tests of the result, its targets and its printing. */
final class Results {
  static final Settings SETTINGS =
      new Settings(
          10_000,
          100_000,
          50,
          1_000,
          5,
          List.of(Mode.OFF, Mode.ON),
          42,
          Map.of("maintenance.rewrite.delete-files", "4"),
          600,
          1,
          90);
  static final MaintenanceWorkload.Counts COUNTS =
      new MaintenanceWorkload.Counts(10_000, 100_000, 10_600, 98_800, 600, 100, 90_100);
  static final TableCheck PASSED = new TableCheck(9_950, 9_950, 0, 0);

  private Results() {}

  /** A mode whose samples have these scan times (current, compacted), in order. */
  static ModeResult mode(Mode mode, long elapsedMs, TableCheck check, double... scanMs) {
    List<Sample> samples =
        java.util.stream.IntStream.range(0, scanMs.length / 2)
            .mapToObj(
                i ->
                    Sample.of(
                        5 * (i + 1),
                        5_000L * (i + 1),
                        1_000 + i,
                        9_950,
                        new TableFiles(5 * (i + 1), 20_000, 5 * (i + 1), 10_000, 0, 0),
                        scanMs[2 * i],
                        scanMs[2 * i + 1],
                        1_194_000,
                        2 * scanMs[2 * i],
                        scanMs[2 * i + 1]))
            .toList();
    return ModeResult.of(
        mode,
        COUNTS,
        new Throughput(110_000, elapsedMs, 51),
        mode == Mode.ON ? 10 : 0,
        new Freshness(110_000, 700, 1_100, 1_400, 2_100),
        samples,
        12.25,
        check,
        62.5,
        mode == Mode.ON
            ? new SnapshotTally.Totals(61, 39_600_000, 0, 0, Map.of("merge", 51L))
            : new SnapshotTally.Totals(
                51, 26_400_000, 0, 1, Map.of("equality-deletes", 50L, "merge", 1L)),
        KeyIndexRebuild.of(9_950, 398_000, 9_950, 125.5, 310.0));
  }
}
