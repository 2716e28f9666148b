package io.sluice.schema.avro;

import java.util.Map;

/**
 * Asks the scanner to record the value of one record field into {@code slot} of {@link Captures}.
 * {@code inner} applies the same to the fields of that field's record type (through unions).
 */
public record Capture(int slot, Map<String, Capture> inner) {
  public static Capture slot(int slot) {
    return new Capture(slot, Map.of());
  }
}
