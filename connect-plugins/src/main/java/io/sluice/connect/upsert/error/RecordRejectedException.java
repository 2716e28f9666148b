package io.sluice.connect.upsert.error;

import org.apache.kafka.connect.errors.DataException;

/**
 * One record the sink cannot write, for a reason that is the record's own ({@link SinkErrorCode}).
 * Only this exception is ever quarantined; any other exception fails the task. The message names
 * the column and its Iceberg type, never the value.
 */
public final class RecordRejectedException extends DataException {
  private final SinkErrorCode code;
  private final String column;
  private final String icebergType;

  /**
   * @param column the column or field at fault, null when none is
   * @param icebergType that column's Iceberg type, null when unknown
   */
  public RecordRejectedException(
      SinkErrorCode code, String column, String icebergType, String message) {
    super(message);
    this.code = code;
    this.column = column;
    this.icebergType = icebergType;
  }

  public RecordRejectedException(
      SinkErrorCode code, String column, String icebergType, String message, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.column = column;
    this.icebergType = icebergType;
  }

  public SinkErrorCode code() {
    return code;
  }

  public String column() {
    return column;
  }

  public String icebergType() {
    return icebergType;
  }

  /** The same rejection with {@code context} (e.g. the record's coordinates) before the message. */
  public RecordRejectedException withContext(String context) {
    return new RecordRejectedException(code, column, icebergType, context + getMessage(), this);
  }
}
