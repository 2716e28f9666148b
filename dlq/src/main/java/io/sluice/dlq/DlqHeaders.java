package io.sluice.dlq;

/**
 * Header names on every DLQ record: the ones Kafka Streams 4.2 writes on its own DLQ records
 * (KIP-1034, string values) so tools that read those understand Sluice's, plus the Sluice error
 * code. A record a sink quarantined also carries the {@code __connect.errors.*} headers Kafka
 * Connect's {@code DeadLetterQueueReporter} writes (connect-runtime 4.1, string values), so tools
 * that read Connect's dead-letter records understand it too.
 */
public final class DlqHeaders {
  public static final String ERRORS_TOPIC = "__streams.errors.topic";
  public static final String ERRORS_PARTITION = "__streams.errors.partition";
  public static final String ERRORS_OFFSET = "__streams.errors.offset";
  public static final String ERRORS_EXCEPTION = "__streams.errors.exception";
  public static final String ERRORS_MESSAGE = "__streams.errors.message";
  public static final String ERROR_CODE = "sluice.error.code";

  public static final String CONNECT_TOPIC = "__connect.errors.topic";
  public static final String CONNECT_PARTITION = "__connect.errors.partition";
  public static final String CONNECT_OFFSET = "__connect.errors.offset";
  public static final String CONNECT_CONNECTOR_NAME = "__connect.errors.connector.name";
  public static final String CONNECT_TASK_ID = "__connect.errors.task.id";
  public static final String CONNECT_STAGE = "__connect.errors.stage";
  public static final String CONNECT_CLASS_NAME = "__connect.errors.class.name";
  public static final String CONNECT_EXCEPTION_CLASS_NAME = "__connect.errors.exception.class.name";
  public static final String CONNECT_EXCEPTION_MESSAGE = "__connect.errors.exception.message";

  private DlqHeaders() {}
}
