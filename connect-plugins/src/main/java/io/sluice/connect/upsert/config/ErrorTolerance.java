package io.sluice.connect.upsert.config;

import java.util.Locale;

/**
 * {@code errors.sink.tolerance}: Connect's {@code errors.tolerance} values and meaning, for the
 * records the sink itself cannot write.
 */
public enum ErrorTolerance {
  /** A record the table cannot take fails the task. */
  NONE,
  /** It goes to the DLQ and the task goes on. */
  ALL;

  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  public static ErrorTolerance of(String value) {
    return valueOf(value.trim().toUpperCase(Locale.ROOT));
  }
}
