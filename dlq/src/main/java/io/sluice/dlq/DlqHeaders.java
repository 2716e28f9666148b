package io.sluice.dlq;

/**
 * Header names on every DLQ record: the ones Kafka Streams 4.2 writes on its own DLQ records
 * (KIP-1034, string values) so tools that read those understand Sluice's, plus the Sluice error
 * code.
 */
public final class DlqHeaders {
  public static final String ERRORS_TOPIC = "__streams.errors.topic";
  public static final String ERRORS_PARTITION = "__streams.errors.partition";
  public static final String ERRORS_OFFSET = "__streams.errors.offset";
  public static final String ERRORS_EXCEPTION = "__streams.errors.exception";
  public static final String ERRORS_MESSAGE = "__streams.errors.message";
  public static final String ERROR_CODE = "sluice.error.code";

  private DlqHeaders() {}
}
