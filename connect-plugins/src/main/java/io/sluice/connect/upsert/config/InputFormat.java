package io.sluice.connect.upsert.config;

import java.util.Locale;

/** What the sink's record values look like. */
public enum InputFormat {
  /** Debezium change envelopes: {@code before}, {@code after}, {@code op}. */
  DEBEZIUM,
  /** Flat rows; an optional operation field says which rows are deletes. */
  FLAT;

  public String configValue() {
    return name().toLowerCase(Locale.ROOT);
  }

  static InputFormat of(String value) {
    return valueOf(value.toUpperCase(Locale.ROOT));
  }
}
