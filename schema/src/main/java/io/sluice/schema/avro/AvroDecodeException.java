package io.sluice.schema.avro;

/**
 * Bytes that do not decode with their writer schema. The message names what was expected, the byte
 * position and the field path; it never contains payload bytes. Thrown on the poison path only, so
 * it carries no stack trace.
 */
public final class AvroDecodeException extends RuntimeException {
  private final String reason;
  private final int position;
  private final boolean truncated;
  private String path = "";
  private boolean located;

  AvroDecodeException(String reason, int position) {
    this(reason, position, false);
  }

  AvroDecodeException(String reason, int position, boolean truncated) {
    super(reason, null, false, false);
    this.reason = reason;
    this.position = position;
    this.truncated = truncated;
  }

  /** What was wrong, e.g. "string length 90 exceeds the 12 remaining bytes". */
  public String reason() {
    return reason;
  }

  /** Offset in the scanned array where the failing item started or ended. */
  public int position() {
    return position;
  }

  /**
   * True when the bytes ran out inside the value (it is cut off); false when they cannot be a value
   * of the schema however many bytes followed.
   */
  public boolean truncated() {
    return truncated;
  }

  /** Dotted field path of the failing item ("after.name"), empty at the top level. */
  public String path() {
    return path;
  }

  /** Prepends the path of the value that contains the failing item ("after" to "id"). */
  AvroDecodeException within(String outer) {
    if (!outer.isEmpty()) {
      path = path.isEmpty() ? outer : outer + "." + path;
    }
    return this;
  }

  /** Sets the path of the failing item, unless an inner part of the scan already did. */
  AvroDecodeException locate(String itemPath) {
    if (!located) {
      located = true;
      within(itemPath);
    }
    return this;
  }

  @Override
  public String getMessage() {
    return reason + " at byte " + position + (path.isEmpty() ? "" : " (field " + path + ")");
  }
}
