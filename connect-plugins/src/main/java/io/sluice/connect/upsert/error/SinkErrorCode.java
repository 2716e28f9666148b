package io.sluice.connect.upsert.error;

/**
 * The taxonomy of what the upsert sink cannot write (docs/design.md#sink-quarantine). Each code is
 * a permanent verdict on ONE record: writing it again can only fail the same way, and the other
 * records are unaffected. With {@code errors.sink.tolerance=all} such a record goes to the DLQ and
 * the task goes on; with {@code none} it fails the task.
 *
 * <p>Everything else is not a record's fault and is never quarantined: catalog, storage or Kafka
 * unreachable and commit failures are transient (retried, then the task fails); a table or
 * configuration that cannot work for any record (key mismatch, creation or evolution disabled, a
 * topic-renaming transform, a key field missing from the schema) fails the task at once.
 */
public enum SinkErrorCode {
  /** A primary-key field (or required key column) is null: the row has no identity. */
  SINK_NULL_KEY_FIELD,
  /** A decimal value does not fit its column's precision or scale. */
  SINK_DECIMAL_OUT_OF_RANGE,
  /**
   * The record's schema has a type the table's column cannot evolve to under Iceberg's rules (e.g.
   * long to string).
   */
  SINK_TYPE_UNWRITABLE,
  /**
   * Any other conversion or extraction failure of this one record: not a struct, not a change
   * event, a value its column's type cannot hold.
   */
  SINK_CONVERSION_FAILED
}
