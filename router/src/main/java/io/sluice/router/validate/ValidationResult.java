package io.sluice.router.validate;

/**
 * The verdict on one record: {@link #VALID}, {@link #TOMBSTONE} (null value) or a {@link Poison}
 * that names the failing stage.
 */
public sealed interface ValidationResult permits ValidationResult.Accepted, Poison {
  /** Every stage passed. */
  ValidationResult VALID = Accepted.VALID;

  /** The value is null: a Kafka tombstone. */
  ValidationResult TOMBSTONE = Accepted.TOMBSTONE;

  /** A record that goes to the clean topic. */
  enum Accepted implements ValidationResult {
    VALID,
    TOMBSTONE
  }
}
