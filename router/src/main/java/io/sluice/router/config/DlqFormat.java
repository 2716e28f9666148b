package io.sluice.router.config;

/** The value written to the DLQ topic for a poison record. */
public enum DlqFormat {
  /** JSON envelope v1 ({@link io.sluice.router.dlq.DlqEnvelope}). */
  ENVELOPE,
  /** The original value bytes, unchanged. */
  RAW
}
