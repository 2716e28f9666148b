package io.sluice.tools.dlq.handle;

import io.sluice.schema.registry.SchemaNotFoundException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.repair.AvroWire;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;

/**
 * Decodes record keys to {@link KeyIdentity}: Confluent-wire Avro records by their writer schema
 * from the registry, anything else (or a key whose schema is unknown) by its bytes. A registry that
 * cannot be reached is an error, not a fallback: comparing bytes of keys written with different
 * schemas would miss a newer event.
 */
public final class KeyDecoder {
  private final SchemaRegistryClient registry;

  /**
   * @param registry null to compare key bytes only
   */
  public KeyDecoder(SchemaRegistryClient registry) {
    this.registry = registry;
  }

  /** The identity of {@code key}. */
  public KeyIdentity identify(byte[] key) {
    if (registry == null || !WireFormat.hasHeader(key)) {
      return new KeyIdentity(null, key);
    }
    Schema writer;
    try {
      writer = registry.schemaById(WireFormat.schemaId(key));
    } catch (SchemaNotFoundException e) {
      return new KeyIdentity(null, key);
    }
    try {
      return identify(AvroWire.decode(key, writer), key);
    } catch (IOException | AvroRuntimeException | ArrayIndexOutOfBoundsException e) {
      return new KeyIdentity(null, key);
    }
  }

  /** The identity of an Avro key record and its wire bytes. */
  public static KeyIdentity identify(Object decoded, byte[] wire) {
    if (!(decoded instanceof GenericRecord record)) {
      return new KeyIdentity(null, wire);
    }
    Map<String, String> fields = new HashMap<>();
    for (Schema.Field field : record.getSchema().getFields()) {
      fields.put(field.name(), text(record.get(field.pos())));
    }
    return new KeyIdentity(fields, wire);
  }

  private static String text(Object value) {
    if (value instanceof ByteBuffer buffer) {
      ByteBuffer copy = buffer.duplicate();
      byte[] bytes = new byte[copy.remaining()];
      copy.get(bytes);
      return HexFormat.of().formatHex(bytes);
    }
    return String.valueOf(value);
  }
}
