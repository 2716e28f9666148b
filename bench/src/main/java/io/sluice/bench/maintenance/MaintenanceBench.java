package io.sluice.bench.maintenance;

import io.sluice.bench.sink.SinkStack;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The upsert sink's table maintenance, off against on: for each mode a fresh topic, connector and
 * table on one fresh broker, registry, Connect worker and SQLite catalog in a temporary directory,
 * the same workload ({@link MaintenanceWorkload}) paced over at least {@code commits} sink commits
 * ({@link CommitPacing}), the table sampled every {@code sampleEvery} commits ({@link ScanSampler})
 * and checked at the end against the state the workload leaves.
 */
public final class MaintenanceBench {
  /**
   * What to run.
   *
   * @param keys the orders inserted first
   * @param updates the changes after them (updates, with a few deletes and re-inserts)
   * @param commits at least this many sink commits per mode
   * @param commitIntervalMs the sink's commit interval
   * @param sampleEvery sample the table every this many commits
   * @param modes the modes, in the order they run
   * @param seed the workload's seed
   * @param sinkConfig more upsert sink settings, for every mode
   * @param timeoutSeconds how long the sink may take, after the last record was produced, to make
   *     every record visible
   * @param hotKeysPercent 0: the updates go to keys drawn uniformly; else the share of the keys, in
   *     percent, that {@code hotUpdatesPercent}% of the updates go to ({@link HotKeys})
   * @param hotUpdatesPercent with {@code hotKeysPercent}, the share of the updates to a hot key
   */
  public record Settings(
      long keys,
      long updates,
      int commits,
      long commitIntervalMs,
      int sampleEvery,
      List<Mode> modes,
      int seed,
      Map<String, String> sinkConfig,
      long timeoutSeconds,
      double hotKeysPercent,
      int hotUpdatesPercent) {
    /**
     * The share of the updates that go to a hot key unless {@code --hot-updates} says otherwise.
     */
    public static final int DEFAULT_HOT_UPDATES_PERCENT = 90;

    public Settings {
      modes = List.copyOf(modes);
      sinkConfig = Map.copyOf(sinkConfig);
      if (keys < 1) {
        throw new IllegalArgumentException("--keys must be at least 1, got " + keys);
      }
      if (updates < 0) {
        throw new IllegalArgumentException("--updates must be >= 0, got " + updates);
      }
      if (commits < 1 || keys + updates < commits) {
        throw new IllegalArgumentException(
            "--commits must be between 1 and --keys + --updates ("
                + (keys + updates)
                + "), got "
                + commits);
      }
      if (commitIntervalMs < 100) {
        throw new IllegalArgumentException(
            "--commit-interval-ms must be at least 100, got " + commitIntervalMs);
      }
      if (sampleEvery < 1) {
        throw new IllegalArgumentException("--sample-every must be at least 1, got " + sampleEvery);
      }
      if (modes.isEmpty() || new HashSet<>(modes).size() != modes.size()) {
        throw new IllegalArgumentException(
            "--modes must name off, on or both, each once, got " + modes);
      }
      if (timeoutSeconds < 1) {
        throw new IllegalArgumentException("--timeout must be at least 1, got " + timeoutSeconds);
      }
      if (!(hotKeysPercent >= 0 && hotKeysPercent < 100)) {
        throw new IllegalArgumentException(
            "--hot-keys must be a percent of the keys, at least 0 (uniform) and less than 100, got "
                + hotKeysPercent);
      }
      if (hotUpdatesPercent < 0 || hotUpdatesPercent > 100) {
        throw new IllegalArgumentException(
            "--hot-updates must be a percent of the updates, 0 to 100, got " + hotUpdatesPercent);
      }
    }

    /** Whether the updates are skewed to hot keys. */
    public boolean skewed() {
      return hotKeysPercent > 0;
    }
  }

  private final Settings settings;
  private final Consumer<String> progress;

  public MaintenanceBench(Settings settings, Consumer<String> progress) {
    this.settings = settings;
    this.progress = progress;
  }

  /**
   * Runs every mode.
   *
   * @throws IllegalArgumentException before anything starts, when the sink would refuse a mode's
   *     configuration
   */
  public MaintenanceBenchResult run() {
    SinkSettings sink = new SinkSettings(settings.sinkConfig());
    sink.check(settings.modes(), settings.commitIntervalMs());
    long started = System.nanoTime();
    try (SinkStack stack =
        SinkStack.start("sluice-bench-maintenance", settings.commitIntervalMs(), progress)) {
      List<ModeResult> results = new ArrayList<>();
      for (Mode mode : settings.modes()) {
        results.add(new ModeRun(stack, settings, sink, mode, progress).run());
      }
      return MaintenanceBenchResult.of(settings, results, (System.nanoTime() - started) / 1e9);
    }
  }
}
