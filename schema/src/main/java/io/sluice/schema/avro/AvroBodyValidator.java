package io.sluice.schema.avro;

import io.sluice.schema.avro.AvroBodyException.Kind;
import org.apache.avro.Schema;

/**
 * Checks that Avro binary is exactly one datum of a writer schema before Avro's {@code
 * GenericDatumReader} reads it: that reader allocates a declared string length or array size first,
 * so a few poison bytes could make it allocate gigabytes. The check is an {@link AvroScanner} pass
 * without captures, with the scanner's bounds (nesting depth, item budget).
 *
 * <p>Once {@link #validate} passes, decoding the same bytes with a {@code GenericDatumReader}
 * allocates at most a small multiple of their size. Immutable and thread-safe: build one per writer
 * schema and reuse it.
 */
public final class AvroBodyValidator {
  private final Schema schema;
  private final ScanPlan root;

  private AvroBodyValidator(Schema schema) {
    this.schema = schema;
    this.root = new ScanCompiler().compile(schema);
  }

  public static AvroBodyValidator of(Schema writer) {
    return new AvroBodyValidator(writer);
  }

  public Schema schema() {
    return schema;
  }

  /**
   * @throws AvroBodyException when {@code data[offset, offset+length)} is not exactly one datum;
   *     its message gives the byte position relative to {@code offset}
   */
  public void validate(byte[] data, int offset, int length) {
    if (offset < 0 || length < 0 || offset + length > data.length) {
      throw new IndexOutOfBoundsException(
          "offset " + offset + " length " + length + " in " + data.length + " bytes");
    }
    int end = offset + length;
    int datumEnd;
    try {
      datumEnd = AvroScanner.scan(root, data, offset, end, Captures.NONE);
    } catch (AvroDecodeException e) {
      throw new AvroBodyException(
          e.truncated() ? Kind.TRUNCATED : Kind.MALFORMED,
          "at byte "
              + (e.position() - offset)
              + (e.path().isEmpty() ? "" : " (field " + e.path() + ")")
              + ": "
              + e.reason(),
          e);
    }
    if (datumEnd != end) {
      throw new AvroBodyException(
          Kind.TRAILING_BYTES,
          (end - datumEnd)
              + " trailing bytes after the "
              + schema.getFullName()
              + " datum, which ends at byte "
              + (datumEnd - offset)
              + " of "
              + length);
    }
  }
}
