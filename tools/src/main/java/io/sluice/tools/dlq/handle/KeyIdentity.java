package io.sluice.tools.dlq.handle;

import io.sluice.schema.wire.WireFormat;
import java.util.Arrays;
import java.util.Map;

/**
 * What identifies a record's key for the stale-write guard: the decoded primary-key fields (name to
 * text) when the key is Avro, else the key bytes.
 *
 * @param fields the key's fields, null when it was not decoded
 * @param bytes the key bytes (null for no key)
 */
public record KeyIdentity(Map<String, String> fields, byte[] bytes) {

  public KeyIdentity {
    fields = fields == null ? null : Map.copyOf(fields);
  }

  /** True when both name the same key. */
  public boolean sameKeyAs(KeyIdentity other) {
    boolean bothDecoded = fields != null && other.fields != null;
    if (bothDecoded && !sameSchemaId(other)) {
      return fields.equals(other.fields);
    }
    // Not Avro, or the same writer schema: Avro's binary encoding is canonical, bytes decide.
    return Arrays.equals(bytes, other.bytes);
  }

  /** The key for messages: its fields, or its size when it is not Avro. */
  public String describe() {
    if (fields != null) {
      return new java.util.TreeMap<>(fields).toString();
    }
    return bytes == null ? "(no key)" : "(" + bytes.length + " key bytes, not Avro)";
  }

  private boolean sameSchemaId(KeyIdentity other) {
    return WireFormat.hasHeader(bytes)
        && WireFormat.hasHeader(other.bytes)
        && WireFormat.schemaId(bytes) == WireFormat.schemaId(other.bytes);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof KeyIdentity k
        && java.util.Objects.equals(fields, k.fields)
        && Arrays.equals(bytes, k.bytes);
  }

  @Override
  public int hashCode() {
    return 31 * java.util.Objects.hashCode(fields) + Arrays.hashCode(bytes);
  }

  @Override
  public String toString() {
    return describe();
  }
}
