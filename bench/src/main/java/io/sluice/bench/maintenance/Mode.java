package io.sluice.bench.maintenance;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonValue;
import java.util.Locale;

/** Whether the upsert sink maintains its table during a run. */
public enum Mode {
  OFF,
  ON;

  /** {@code off} or {@code on}, as on the command line and in the result JSON. */
  @JsonValue
  public String label() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The mode named {@code label}.
   *
   * @throws IllegalArgumentException naming the value when it is neither {@code off} nor {@code on}
   */
  @JsonCreator
  public static Mode of(String label) {
    for (Mode mode : values()) {
      if (mode.label().equals(label.trim().toLowerCase(Locale.ROOT))) {
        return mode;
      }
    }
    throw new IllegalArgumentException("mode must be off or on, got '" + label + "'");
  }
}
