package io.sluice.dlq;

/** The value written to the DLQ topic for a poison record. */
public enum DlqFormat {
  /** JSON envelope v1 ({@link DlqEnvelope}). */
  ENVELOPE,
  /** The original value bytes, unchanged. */
  RAW
}
