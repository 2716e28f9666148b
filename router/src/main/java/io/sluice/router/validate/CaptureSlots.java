package io.sluice.router.validate;

import io.sluice.schema.avro.Captures;

/**
 * Capture slots for a record's value and key, reused record after record so that validating a
 * record allocates none. Not thread-safe: one per thread or per {@link TopicValidator}.
 */
final class CaptureSlots {
  private Captures row = new Captures(0);
  private Captures key = new Captures(0);

  /** At least {@code count} empty slots over {@code value}. */
  Captures row(byte[] value, int count) {
    if (row.slots() < count) {
      row = new Captures(count);
    }
    return row.reset(value);
  }

  /** At least {@code count} empty slots over {@code key}. */
  Captures key(byte[] key, int count) {
    if (this.key.slots() < count) {
      this.key = new Captures(count);
    }
    return this.key.reset(key);
  }
}
