package io.sluice.bench.maintenance;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.sluice.bench.maintenance.MaintenanceBench.Settings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What {@code sluice bench maintenance} measured, and its result JSON ({@code result_version}
 * {@value #VERSION}, keys in snake case, in the order of the record components).
 *
 * @param modes one result per mode, in the order run
 * @param targets how the run did against the benchmark's targets
 * @param checkPassed every mode's table held exactly the state the workload leaves
 * @param seconds the whole run's wall-clock time, start-up included
 */
public record MaintenanceBenchResult(
    int resultVersion,
    Settings settings,
    List<ModeResult> modes,
    List<Target> targets,
    boolean checkPassed,
    double seconds) {
  public static final int VERSION = 1;

  private static final ObjectMapper JSON =
      new ObjectMapper()
          .setPropertyNamingStrategy(PropertyNamingStrategies.SNAKE_CASE)
          .enable(SerializationFeature.INDENT_OUTPUT);

  public MaintenanceBenchResult {
    modes = List.copyOf(modes);
    targets = List.copyOf(targets);
  }

  /** The result of {@code modes}, with their targets and check. */
  public static MaintenanceBenchResult of(
      Settings settings, List<ModeResult> modes, double seconds) {
    return new MaintenanceBenchResult(
        VERSION,
        settings,
        modes,
        Target.of(modes),
        modes.stream().allMatch(ModeResult::checkPassed),
        seconds);
  }

  /** Whether a target was measured and missed. */
  public boolean missed() {
    return targets.stream().anyMatch(t -> t.status() == Target.Status.MISSED);
  }

  public String toJson() {
    try {
      return JSON.writeValueAsString(this);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot render the maintenance benchmark's result", e);
    }
  }

  /** Writes the result JSON to {@code file} (its directory is created when missing). */
  public void write(Path file) {
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      Files.writeString(file, toJson() + "\n");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the result " + file, e);
    }
  }

  /** A result read back from its JSON. */
  public static MaintenanceBenchResult fromJson(String json) {
    try {
      return JSON.readValue(json, MaintenanceBenchResult.class);
    } catch (IOException e) {
      throw new UncheckedIOException("not a maintenance benchmark result: " + e.getMessage(), e);
    }
  }
}
