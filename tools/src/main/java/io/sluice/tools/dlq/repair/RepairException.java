package io.sluice.tools.dlq.repair;

/**
 * A DLQ record cannot be repaired as asked: its payload does not decode to an intended row, a value
 * does not fit the registered schema, or the schema is missing. The message names the field, the
 * subject and schema id where known, never the payload.
 */
public class RepairException extends RuntimeException {
  public RepairException(String message) {
    super(message);
  }

  public RepairException(String message, Throwable cause) {
    super(message, cause);
  }
}
