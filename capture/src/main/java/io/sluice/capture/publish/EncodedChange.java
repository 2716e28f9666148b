package io.sluice.capture.publish;

/** A change event's key and value in Confluent wire format; value null for a tombstone. */
public record EncodedChange(byte[] key, byte[] value) {}
