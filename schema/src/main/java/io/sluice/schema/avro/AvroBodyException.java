package io.sluice.schema.avro;

/** Avro binary that does not fit its writer schema; the message gives the byte position. */
public class AvroBodyException extends RuntimeException {
  /** What is wrong with the bytes. */
  public enum Kind {
    /** The schema needs more bytes than there are. */
    TRUNCATED,
    /** The record ends before the bytes do. */
    TRAILING_BYTES,
    /**
     * Bytes that cannot be a datum of the schema: a bad length, index or varint, or a bound hit.
     */
    MALFORMED
  }

  private final Kind kind;

  public AvroBodyException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public AvroBodyException(Kind kind, String message, Throwable cause) {
    super(message, cause);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
