package io.sluice.router.validate.avro;

/**
 * Bytes that do not decode with their writer schema. The message names what was expected, the byte
 * position and the field path; it never contains payload bytes. Thrown on the poison path only, so
 * it carries no stack trace.
 */
public final class AvroDecodeException extends RuntimeException {
  private final String reason;
  private final int position;
  private String path = "";

  AvroDecodeException(String reason, int position) {
    super(reason, null, false, false);
    this.reason = reason;
    this.position = position;
  }

  /** What was wrong, e.g. "string length 90 exceeds the 12 remaining bytes". */
  public String reason() {
    return reason;
  }

  /** Offset in the scanned array where the failing item started or ended. */
  public int position() {
    return position;
  }

  /** Dotted field path of the failing item ("after.name"), empty at the top level. */
  public String path() {
    return path;
  }

  AvroDecodeException inside(String segment) {
    path = path.isEmpty() ? segment : segment + "." + path;
    return this;
  }

  @Override
  public String getMessage() {
    return reason + " at byte " + position + (path.isEmpty() ? "" : " (field " + path + ")");
  }
}
