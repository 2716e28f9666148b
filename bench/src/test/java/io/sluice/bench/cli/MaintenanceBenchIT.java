package io.sluice.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.bench.maintenance.MaintenanceBenchResult;
import io.sluice.bench.maintenance.ModeResult;
import io.sluice.bench.maintenance.Sample;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code sluice bench maintenance} with tiny figures on real embedded components (broker, registry,
 * Connect worker, SQLite catalog): the command's output, its JSON and the check, maintenance off
 * and on.
 */
class MaintenanceBenchIT {
  @TempDir Path dir;

  @Test
  void aTinyRunSamplesTheTablePassesTheCheckAndWritesItsResult() throws Exception {
    Path output = dir.resolve("maintenance.json");
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new BenchCommand());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));

    int exitCode =
        cli.execute(
            "maintenance",
            "--keys=200",
            "--updates=2000",
            "--commits=6",
            "--commit-interval-ms=500",
            "--sample-every=2",
            "--modes=off,on",
            "--output=" + output);

    assertThat(exitCode).as("stderr: %s", err).isZero();
    assertThat(err.toString())
        .as("progress lines")
        .contains("bench maintenance: mode commits   time s      rows")
        .contains("bench maintenance: off ");
    assertThat(out.toString())
        .contains("workload: 200 keys inserted, then 2,000 updates (seed 42)")
        .contains("maintenance off:")
        .contains("wrong keys 0, duplicate keys 0: passed")
        .contains("maintenance on:")
        .contains("target scan ratio with maintenance on, every sample <= 1.5: ")
        .contains("check: passed")
        .contains("result: " + output.toAbsolutePath());

    MaintenanceBenchResult result = MaintenanceBenchResult.fromJson(Files.readString(output));
    assertThat(result.checkPassed()).isTrue();
    ModeResult off = result.modes().get(0);
    assertThat(off.records()).isEqualTo(2_200);
    assertThat(off.workload().records()).isEqualTo(2_200);
    assertThat(off.sinkCommits()).as("paced for at least 6 commits").isBetween(6, 9);
    assertThat(off.otherSnapshots()).isZero();
    assertThat(off.recordsPerSecond()).isPositive();
    assertThat(off.visibility().count()).isEqualTo(2_200);
    assertThat(off.check().rows()).isEqualTo(off.check().expectedRows()).isPositive();
    List<Sample> samples = off.samples();
    assertThat(samples).hasSizeGreaterThanOrEqualTo(3);
    assertThat(samples).extracting(Sample::commits).isSorted();
    Sample last = samples.get(samples.size() - 1);
    assertThat(last.rows()).isEqualTo(off.check().rows());
    assertThat(last.files().dataFiles()).isBetween(1L, (long) off.sinkCommits());
    // By position when the sink has the table's key index, else equality deletes: either stays.
    assertThat(last.files().deleteFiles()).as("nothing maintained").isPositive();
    assertThat(last.ratio()).isEqualTo(last.scanMs() / last.compactedScanMs()).isPositive();
    assertThat(off.maxRatio())
        .isGreaterThanOrEqualTo(off.lastRatio())
        .isEqualTo(samples.stream().mapToDouble(Sample::ratio).max().orElseThrow());

    assertThat(off.commitModes().values().stream().mapToLong(Long::longValue).sum())
        .as("every sink commit has a mode")
        .isEqualTo(off.sinkCommits());
    assertThat(off.writeAmplification().writtenBytes()).isPositive();
    assertThat(off.writeAmplification().ratio()).isPositive();
    assertThat(off.writeAmplification().unseenSnapshots()).isZero();
    assertThat(off.keyIndex().keys()).isEqualTo(off.check().rows());
    assertThat(off.keyIndex().rowsRead()).isEqualTo(off.check().rows());
    assertThat(off.keyIndex().bytes()).isPositive();
    assertThat(off.keyIndex().buildMs()).isPositive();
    assertThat(off.visibility().p95Ms())
        .isBetween(off.visibility().p50Ms(), off.visibility().p99Ms());

    ModeResult on = result.modes().get(1);
    assertThat(on.check().rows()).isEqualTo(on.check().expectedRows()).isPositive();
    Sample onLast = on.samples().get(on.samples().size() - 1);
    assertThat(onLast.files().dataFiles())
        .as("every batch of this small table merged at commit")
        .isEqualTo(1);
    assertThat(onLast.files().equalityDeleteFiles()).isZero();

    JsonNode json = new ObjectMapper().readTree(output.toFile());
    List<String> keys = new ArrayList<>();
    json.path("modes").get(0).fieldNames().forEachRemaining(keys::add);
    assertThat(keys)
        .containsExactly(
            "mode",
            "workload",
            "records",
            "elapsed_ms",
            "records_per_second",
            "sink_commits",
            "other_snapshots",
            "visibility",
            "samples",
            "sampling_seconds",
            "max_ratio",
            "last_ratio",
            "final_files",
            "check",
            "check_passed",
            "seconds",
            "commit_modes",
            "write_amplification",
            "key_index");
  }
}
