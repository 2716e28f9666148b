package io.sluice.schema.wire;

import java.nio.ByteBuffer;

/**
 * The Confluent wire format: one magic byte (0), a 4-byte big-endian schema id, then the Avro
 * binary body.
 */
public final class WireFormat {
  public static final byte MAGIC_BYTE = 0;
  public static final int HEADER_SIZE = 5;

  private WireFormat() {}

  /** True when {@code bytes} is long enough and starts with the magic byte. */
  public static boolean hasHeader(byte[] bytes) {
    return bytes != null && bytes.length >= HEADER_SIZE && bytes[0] == MAGIC_BYTE;
  }

  /**
   * The schema id in the header.
   *
   * @throws WireFormatException when the bytes are shorter than the header or the magic byte is
   *     wrong
   */
  public static int schemaId(byte[] bytes) {
    if (bytes == null || bytes.length < HEADER_SIZE) {
      throw new WireFormatException(
          "expected at least "
              + HEADER_SIZE
              + " bytes (magic byte + schema id), got "
              + (bytes == null ? 0 : bytes.length));
    }
    if (bytes[0] != MAGIC_BYTE) {
      throw new WireFormatException(
          String.format("expected magic byte 0x00, got 0x%02x", bytes[0] & 0xff));
    }
    return ((bytes[1] & 0xff) << 24)
        | ((bytes[2] & 0xff) << 16)
        | ((bytes[3] & 0xff) << 8)
        | (bytes[4] & 0xff);
  }

  /** The header for {@code schemaId} followed by {@code body}. */
  public static byte[] encode(int schemaId, byte[] body) {
    return ByteBuffer.allocate(HEADER_SIZE + body.length)
        .put(MAGIC_BYTE)
        .putInt(schemaId)
        .put(body)
        .array();
  }
}
