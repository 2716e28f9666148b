package io.sluice.tools.monitor;

import io.sluice.tools.dlq.record.DlqEntry;

/**
 * What a DLQ record is counted under: the stage that quarantined it ({@value #ROUTER} or {@value
 * #SINK}, the {@code stage} label) and its error code (the {@code error_code} label). A record that
 * cannot be read has stage {@value #UNKNOWN} and code {@value #UNREADABLE_CODE}.
 */
public record QuarantineCause(String stage, String errorCode) {
  public static final String ROUTER = "router";
  public static final String SINK = "sink";
  public static final String UNKNOWN = "unknown";
  public static final String UNREADABLE_CODE = "UNREADABLE";

  /** The cause of records that are neither an envelope v1 nor a raw or Connect DLQ record. */
  public static final QuarantineCause UNREADABLE = new QuarantineCause(UNKNOWN, UNREADABLE_CODE);

  /**
   * The cause of a readable entry: {@code sink} for the upsert sink's envelopes and Connect's DLQ
   * records, else {@code router}; a raw record without a code header counts as {@code UNKNOWN}.
   */
  public static QuarantineCause of(DlqEntry entry) {
    String code = entry.envelope().errorCode();
    return new QuarantineCause(
        entry.envelope().quarantinedBySink() ? SINK : ROUTER, code == null ? "UNKNOWN" : code);
  }
}
