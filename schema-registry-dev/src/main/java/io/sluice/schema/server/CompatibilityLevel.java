package io.sluice.schema.server;

import java.util.Locale;

/** The compatibility levels of the Confluent Schema Registry. */
enum CompatibilityLevel {
  NONE(false, false, false),
  BACKWARD(true, false, false),
  BACKWARD_TRANSITIVE(true, false, true),
  FORWARD(false, true, false),
  FORWARD_TRANSITIVE(false, true, true),
  FULL(true, true, false),
  FULL_TRANSITIVE(true, true, true);

  /** The new schema must read data written with the old ones. */
  final boolean backward;

  /** The old schemas must read data written with the new one. */
  final boolean forward;

  /** Checked against every earlier version, not only the latest. */
  final boolean transitive;

  CompatibilityLevel(boolean backward, boolean forward, boolean transitive) {
    this.backward = backward;
    this.forward = forward;
    this.transitive = transitive;
  }

  /** The level named {@code text} (case-insensitive), or null when there is none. */
  static CompatibilityLevel parse(String text) {
    if (text == null) {
      return null;
    }
    try {
      return valueOf(text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
