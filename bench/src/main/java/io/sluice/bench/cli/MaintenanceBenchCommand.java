package io.sluice.bench.cli;

import io.sluice.bench.maintenance.KeyIndexRebuild;
import io.sluice.bench.maintenance.MaintenanceBench;
import io.sluice.bench.maintenance.MaintenanceBench.Settings;
import io.sluice.bench.maintenance.MaintenanceBenchResult;
import io.sluice.bench.maintenance.MaintenanceWorkload;
import io.sluice.bench.maintenance.Mode;
import io.sluice.bench.maintenance.ModeResult;
import io.sluice.bench.maintenance.Sample;
import io.sluice.bench.maintenance.SinkSettings;
import io.sluice.bench.maintenance.TableFiles;
import io.sluice.bench.maintenance.Target;
import io.sluice.bench.maintenance.WriteAmplification;
import io.sluice.bench.sink.TableCheck;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code sluice bench maintenance}: the upsert sink's table maintenance, off against on. */
@Command(
    name = "maintenance",
    mixinStandardHelpOptions = true,
    description = {
      "Runs the Sluice upsert sink once per mode (--modes: maintenance off, then on), each on a"
          + " fresh topic, connector and table, on one fresh broker, registry, Connect worker and"
          + " SQLite catalog in a temporary directory, with the same workload: --keys orders"
          + " inserted, then --updates changes to keys drawn uniformly (--seed; "
          + MaintenanceWorkload.DELETE_PERCENT
          + "%% of those to a live key delete it, a deleted key drawn again is re-inserted).",
      "Skew: --hot-keys P makes P%% of the keys hot (spread evenly over the order ids) and sends"
          + " --hot-updates (default "
          + Settings.DEFAULT_HOT_UPDATES_PERCENT
          + ")%% of the updates to them, drawn uniformly among them, the rest uniformly among the"
          + " other keys; seeded like the rest.",
      "Pacing: the records not sent yet are spread over the commit intervals still wanted"
          + " (--commits less the sink's commits so far), so the sink makes at least --commits"
          + " commits of the workload.",
      "Samples: every --sample-every commits and once after the last record became visible, the"
          + " current snapshot is scanned in full with Iceberg's generic reader (deletes applied;"
          + " one untimed scan, then 5 timed ones, or more while they add up to less than 200 ms"
          + " of CPU, at most 51; the cheapest counts) and so are the same rows written compacted"
          + " (a fresh table in the same catalog, one data file, no deletes, dropped again),"
          + " the two scanned in turns. A scan's cost is its CPU time: the reading thread's and"
          + " that of Iceberg's planning and delete-loading pools (on two cores shared with the"
          + " sink, the wall clock also counts the sink's work and its collector's pauses); the"
          + " scan ratio is the table's cost over the copy's. The wall-time ratio is shown beside"
          + " it (column wall, JSON wall_ratio), without a target. Each sample also counts the"
          + " snapshot's data, equality-delete and position-delete files (from its manifests).",
      "Throughput: all records over the time from the first record produced to the commit of"
          + " the snapshot that made the last one visible; visibility: produce-to-visible of every"
          + " record. The producer is paced, so the throughput says whether the sink keeps up"
          + " with the pace; the visibility percentiles (p50, p95, p99, max) show its stalls.",
      "Written: every snapshot of the table, counted once when the poller (every 100 ms) first"
          + " sees it, adds its added-files-size (data and delete files alike: the sink's commits,"
          + " merges and rewrites) and its sluice.commit.mode (merge, position-deletes,"
          + " equality-deletes). Write amplification: those bytes over the changes produced times"
          + " the bytes per row of the last sample's compacted copy (the rows every mode leaves,"
          + " one Parquet file), so 1.0 is every change written once, compacted.",
      "Key index: after the check, the sink's key index of the final table is built anew in this"
          + " JVM (TableKeyIndex.build on the current snapshot, keyed by the identifier fields):"
          + " its keys, heap bytes and bytes per key, the rows it read and the time of a second"
          + " build (rebuild time: classes loaded, files in the page cache), and of the first.",
      "Targets: scan ratio with maintenance on <= "
          + Target.MAX_SCAN_RATIO
          + " at every sample; throughput on / off >= "
          + Target.MIN_THROUGHPUT_RATIO
          + ". A missed target prints MISSED (exit 1 only with --strict).",
      "Check: each mode's table must hold exactly the rows the workload leaves (same keys, same"
          + " event_id, no key twice); exits 1 when it does not."
    })
final class MaintenanceBenchCommand implements Callable<Integer> {
  @Spec CommandSpec spec;

  @Option(
      names = "--keys",
      defaultValue = "10000",
      description = "Orders inserted first (default: ${DEFAULT-VALUE}).")
  long keys;

  @Option(
      names = "--updates",
      defaultValue = "100000",
      description =
          "Changes after the inserts, to keys drawn uniformly: updates, and "
              + MaintenanceWorkload.DELETE_PERCENT
              + "%% deletes of which most are re-inserted later (default: ${DEFAULT-VALUE}).")
  long updates;

  @Option(
      names = "--hot-keys",
      defaultValue = "0",
      paramLabel = "PERCENT",
      description =
          "Percent of the keys that are hot, e.g. 1; 0 draws the updates' keys uniformly"
              + " (default: ${DEFAULT-VALUE}).")
  double hotKeysPercent;

  @Option(
      names = "--hot-updates",
      defaultValue = "" + Settings.DEFAULT_HOT_UPDATES_PERCENT,
      paramLabel = "PERCENT",
      description =
          "With --hot-keys, percent of the updates that go to a hot key (default:"
              + " ${DEFAULT-VALUE}).")
  int hotUpdatesPercent;

  @Option(
      names = "--commits",
      defaultValue = "50",
      description =
          "At least this many sink commits per mode; the producer is paced to get them"
              + " (default: ${DEFAULT-VALUE}).")
  int commits;

  @Option(
      names = "--commit-interval-ms",
      defaultValue = "1000",
      description = "The sink's commit interval (default: ${DEFAULT-VALUE}).")
  long commitIntervalMs;

  @Option(
      names = "--sample-every",
      defaultValue = "5",
      description = "Sample the table every this many sink commits (default: ${DEFAULT-VALUE}).")
  int sampleEvery;

  @Option(
      names = "--modes",
      defaultValue = "off,on",
      split = ",",
      paramLabel = "MODE",
      description =
          "off, on or both, in the order to run (default: ${DEFAULT-VALUE}). off sets the"
              + " sink's "
              + SinkSettings.MAINTENANCE_ENABLED
              + " false (nothing merged at commit, rewritten or expired; the summary's commit"
              + " modes say how the deletes were written), on sets it true (merges at commit,"
              + " rewrites, snapshot expiry, with the sink's defaults).")
  List<String> modes;

  @Option(
      names = "--seed",
      defaultValue = "42",
      description = "The workload's seed (default: ${DEFAULT-VALUE}).")
  int seed;

  @Option(
      names = "--sink-config",
      paramLabel = "KEY=VALUE",
      description =
          "An upsert sink setting for every mode (repeatable), e.g."
              + " maintenance.rewrite.delete-files=5. Checked against the sink's configuration"
              + " before anything starts; the keys the benchmark sets itself (topics, converters,"
              + " catalog, commit.interval.ms, "
              + SinkSettings.MAINTENANCE_ENABLED
              + ") are refused.")
  Map<String, String> sinkConfig = new LinkedHashMap<>();

  @Option(
      names = "--timeout",
      defaultValue = "600",
      description =
          "Seconds the sink may take, after the last record was produced, to make every record"
              + " visible (default: ${DEFAULT-VALUE}).")
  long timeoutSeconds;

  @Option(names = "--output", paramLabel = "FILE", description = "Write the result as JSON.")
  Path output;

  @Option(
      names = "--strict",
      description = "Exit 1 when a target is missed, too (default: only when the check fails).")
  boolean strict;

  @Override
  public Integer call() {
    Settings settings;
    try {
      settings =
          new Settings(
              keys,
              updates,
              commits,
              commitIntervalMs,
              sampleEvery,
              modes.stream().map(Mode::of).toList(),
              seed,
              sinkConfig,
              timeoutSeconds,
              hotKeysPercent,
              hotUpdatesPercent);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    PrintWriter err = spec.commandLine().getErr();
    MaintenanceBench bench =
        new MaintenanceBench(
            settings,
            line -> {
              err.println("bench maintenance: " + line);
              err.flush();
            });
    MaintenanceBenchResult result;
    try {
      result = bench.run();
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), e.getMessage());
    }
    print(spec.commandLine().getOut(), result);
    if (output != null) {
      result.write(output);
      spec.commandLine().getOut().println("result: " + output.toAbsolutePath());
      spec.commandLine().getOut().flush();
    }
    return !result.checkPassed() || (strict && result.missed()) ? 1 : 0;
  }

  static void print(PrintWriter out, MaintenanceBenchResult r) {
    Settings s = r.settings();
    out.printf(
        "workload: %,d keys inserted, then %,d updates (seed %d), 3 partitions, commit interval"
            + " %d ms, at least %d commits, sampled every %d%n",
        s.keys(), s.updates(), s.seed(), s.commitIntervalMs(), s.commits(), s.sampleEvery());
    if (s.skewed()) {
      out.printf(
          "skew: %d%% of the updates to the hot %s%% of the keys%n",
          s.hotUpdatesPercent(), percent(s.hotKeysPercent()));
    }
    if (!s.sinkConfig().isEmpty()) {
      out.printf("sink config: %s%n", s.sinkConfig());
    }
    for (ModeResult m : r.modes()) {
      MaintenanceWorkload.Counts w = m.workload();
      TableFiles f = m.finalFiles();
      TableCheck c = m.check();
      out.printf(
          "maintenance %-3s  %,8.0f records/s (%,d records: c %,d, u %,d, d %,d, in %.1f s),"
              + " %d commits, %d other snapshots%n",
          m.mode().label() + ":",
          m.recordsPerSecond(),
          m.records(),
          w.creates(),
          w.updated(),
          w.deletes(),
          m.elapsedMs() / 1000.0,
          m.sinkCommits(),
          m.otherSnapshots());
      if (w.hotKeys() > 0) {
        out.printf(
            "  hot keys: %,d, taking %,d of the %,d updates (%.1f%%)%n",
            w.hotKeys(),
            w.hotUpdates(),
            w.updates(),
            w.updates() == 0 ? 0 : 100.0 * w.hotUpdates() / w.updates());
      }
      out.printf(
          "  visible after p50 %,d ms, p95 %,d ms, p99 %,d ms, max %,d ms%n",
          m.visibility().p50Ms(),
          m.visibility().p95Ms(),
          m.visibility().p99Ms(),
          m.visibility().maxMs());
      out.printf(
          "  scan ratio (CPU) over %d samples (%.1f s of sampling while the sink ran): max %.2f,"
              + " last %.2f (wall clock: max %.2f); files left: %d data (%,d rows),"
              + " %d equality-delete (%,d deletes), %d position-delete (%,d deletes)%n",
          m.samples().size(),
          m.samplingSeconds(),
          m.maxRatio(),
          m.lastRatio(),
          m.samples().stream().mapToDouble(Sample::wallRatio).max().orElse(0),
          f.dataFiles(),
          f.dataRecords(),
          f.equalityDeleteFiles(),
          f.equalityDeletes(),
          f.positionDeleteFiles(),
          f.positionDeletes());
      WriteAmplification a = m.writeAmplification();
      out.printf(
          "  written: %,d bytes in %d snapshots, %.2fx the changed rows (%,d changes x %.1f bytes"
              + " a row compacted)%s%n",
          a.writtenBytes(),
          a.snapshots(),
          a.ratio(),
          a.changedRecords(),
          a.bytesPerRow(),
          a.lowerBound()
              ? String.format(
                  "; a lower bound: %d snapshots without added-files-size, %d expired unseen",
                  a.unsizedSnapshots(), a.unseenSnapshots())
              : "");
      out.printf("  commit modes: %s%n", commitModes(m.commitModes()));
      KeyIndexRebuild k = m.keyIndex();
      out.printf(
          "  key index of the final table, rebuilt after the run: %,d keys in %,d bytes (%.1f bytes"
              + " a key), %,d rows read in %,.0f ms (first build %,.0f ms)%n",
          k.keys(), k.bytes(), k.bytesPerKey(), k.rowsRead(), k.buildMs(), k.firstBuildMs());
      out.printf(
          "  check: %,d rows (expected %,d), wrong keys %d, duplicate keys %d: %s; mode took"
              + " %.0f s%n",
          c.rows(),
          c.expectedRows(),
          c.wrongKeys(),
          c.duplicateKeys(),
          c.passed() ? "passed" : "FAILED",
          m.seconds());
    }
    for (Target t : r.targets()) {
      out.printf(
          "target %s %s: %s%n",
          t.name(),
          t.bound(),
          switch (t.status()) {
            case MET -> String.format("%.3f, met", t.value());
            case MISSED -> String.format("%.3f, MISSED", t.value());
            case NOT_MEASURED -> "not measured (a mode it compares did not run)";
          });
    }
    out.printf("check: %s; run took %.0f s%n", r.checkPassed() ? "passed" : "FAILED", r.seconds());
    out.flush();
  }

  /** {@code merge 40, position-deletes 11}, or none. */
  private static String commitModes(Map<String, Long> modes) {
    if (modes.isEmpty()) {
      return "none recorded";
    }
    StringBuilder line = new StringBuilder();
    modes.forEach(
        (mode, n) -> line.append(line.isEmpty() ? "" : ", ").append(mode).append(' ').append(n));
    return line.toString();
  }

  /** 1 as "1", 0.5 as "0.5". */
  private static String percent(double value) {
    return value == Math.rint(value) ? String.valueOf((long) value) : String.valueOf(value);
  }
}
