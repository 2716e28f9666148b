package io.sluice.bench.maintenance;

import com.fasterxml.jackson.annotation.JsonValue;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A target of the benchmark and how the run did against it.
 *
 * @param value the measured figure; null when the run did not measure it
 */
public record Target(String name, String bound, Double value, Status status) {
  /** Target: the scan ratio with maintenance on stays at or below this at every sample. */
  public static final double MAX_SCAN_RATIO = 1.5;

  /** Target: throughput with maintenance on over off at least this. */
  public static final double MIN_THROUGHPUT_RATIO = 0.8;

  /** How the run did. */
  public enum Status {
    MET,
    MISSED,
    NOT_MEASURED;

    @JsonValue
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** What a target is about and the bound it sets. */
  private record Goal(String name, String bound) {
    Target at(double value, boolean met) {
      return new Target(name, bound, value, met ? Status.MET : Status.MISSED);
    }

    Target notMeasured() {
      return new Target(name, bound, null, Status.NOT_MEASURED);
    }
  }

  private static final Goal SCAN_RATIO =
      new Goal("scan ratio with maintenance on, every sample", "<= " + MAX_SCAN_RATIO);
  private static final Goal THROUGHPUT =
      new Goal("throughput maintenance on / off", ">= " + MIN_THROUGHPUT_RATIO);

  /** The targets of a run of {@code modes}; one that needs a mode not run is not measured. */
  public static List<Target> of(List<ModeResult> modes) {
    Optional<ModeResult> on = find(modes, Mode.ON);
    Optional<ModeResult> off = find(modes, Mode.OFF);
    List<Target> targets = new ArrayList<>();
    targets.add(
        on.map(r -> SCAN_RATIO.at(r.maxRatio(), r.maxRatio() <= MAX_SCAN_RATIO))
            .orElse(SCAN_RATIO.notMeasured()));
    if (on.isPresent() && off.isPresent() && off.get().recordsPerSecond() > 0) {
      double ratio = on.get().recordsPerSecond() / off.get().recordsPerSecond();
      targets.add(THROUGHPUT.at(ratio, ratio >= MIN_THROUGHPUT_RATIO));
    } else {
      targets.add(THROUGHPUT.notMeasured());
    }
    return targets;
  }

  private static Optional<ModeResult> find(List<ModeResult> modes, Mode mode) {
    return modes.stream().filter(r -> r.mode() == mode).findFirst();
  }
}
