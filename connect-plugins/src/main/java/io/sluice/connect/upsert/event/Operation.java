package io.sluice.connect.upsert.event;

/** What a change does to its key's row. */
public enum Operation {
  /** Delete the key's row (if any), then write the new row. */
  UPSERT,
  /** Delete the key's row. */
  DELETE
}
