package io.sluice.bench.maintenance;

import io.sluice.bench.sink.SinkBenchResult.Freshness;
import io.sluice.bench.sink.SinkBenchResult.Throughput;
import io.sluice.bench.sink.SnapshotTally;
import io.sluice.bench.sink.TableCheck;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one mode's run measured.
 *
 * @param records every change produced (inserts, updates, deletes)
 * @param elapsedMs from the first record produced to the commit of the snapshot that made the last
 *     one visible
 * @param recordsPerSecond {@code records} over {@code elapsedMs}: the sink's throughput
 * @param sinkCommits snapshots that made more records visible
 * @param otherSnapshots snapshots that made none visible (maintenance)
 * @param visibility produce-to-visible of every record
 * @param samples along the run, in order; the last one after the last record became visible
 * @param samplingSeconds how long the samples took while the sink ran (the last one left out): time
 *     the sampler competed with the sink for the machine
 * @param maxRatio the highest scan ratio of the samples
 * @param lastRatio the last sample's scan ratio
 * @param finalFiles the files of the last sample's snapshot: what the run left
 * @param check the table against the state the workload leaves
 * @param seconds the mode's wall-clock time, connector start to check
 * @param commitModes the sink's commits by the mode in their snapshot summary ({@code
 *     sluice.commit.mode}: merge, position-deletes, equality-deletes)
 * @param writeAmplification bytes the sink and its maintenance wrote per byte of changed rows
 * @param keyIndex the sink's key index of the final table, built anew after the run
 */
public record ModeResult(
    Mode mode,
    MaintenanceWorkload.Counts workload,
    long records,
    long elapsedMs,
    double recordsPerSecond,
    int sinkCommits,
    int otherSnapshots,
    Freshness visibility,
    List<Sample> samples,
    double samplingSeconds,
    double maxRatio,
    double lastRatio,
    TableFiles finalFiles,
    TableCheck check,
    boolean checkPassed,
    double seconds,
    Map<String, Long> commitModes,
    WriteAmplification writeAmplification,
    KeyIndexRebuild keyIndex) {
  public ModeResult {
    samples = List.copyOf(samples);
    commitModes = Collections.unmodifiableMap(new TreeMap<>(commitModes));
  }

  /** The result, with the figures derived from the measurements. */
  public static ModeResult of(
      Mode mode,
      MaintenanceWorkload.Counts workload,
      Throughput throughput,
      int otherSnapshots,
      Freshness visibility,
      List<Sample> samples,
      double samplingSeconds,
      TableCheck check,
      double seconds,
      SnapshotTally.Totals written,
      KeyIndexRebuild keyIndex) {
    Sample last = samples.isEmpty() ? null : samples.get(samples.size() - 1);
    return new ModeResult(
        mode,
        workload,
        throughput.records(),
        throughput.elapsedMs(),
        throughput.recordsPerSecond(),
        throughput.snapshots(),
        otherSnapshots,
        visibility,
        samples,
        samplingSeconds,
        samples.stream().mapToDouble(Sample::ratio).max().orElse(0),
        last == null ? 0 : last.ratio(),
        last == null ? TableFiles.NONE : last.files(),
        check,
        check.passed(),
        seconds,
        written.commitModes(),
        WriteAmplification.of(
            written,
            workload.records(),
            last == null ? 0 : last.compactedBytes(),
            last == null ? 0 : last.rows()),
        keyIndex);
  }
}
