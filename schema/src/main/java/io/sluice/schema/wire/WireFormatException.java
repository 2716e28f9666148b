package io.sluice.schema.wire;

/** Bytes that are not in the Confluent wire format (too short, or a magic byte other than 0). */
public class WireFormatException extends RuntimeException {
  public WireFormatException(String message) {
    super(message);
  }
}
