package io.sluice.schema.serde;

import io.sluice.schema.avro.AvroBodyException;
import io.sluice.schema.avro.AvroBodyValidator;
import io.sluice.schema.registry.RegistryException;
import io.sluice.schema.registry.RegistryUnavailableException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import io.sluice.schema.wire.WireFormatException;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Deserializer;

/**
 * Reads Confluent-wire Avro into a {@link GenericRecord} with the writer schema the header names.
 * Bytes left after the record are an error, not ignored; the bytes are checked with {@link
 * AvroBodyValidator} before Avro's reader sees them, so forged lengths cannot exhaust memory.
 *
 * <p>{@link RegistryUnavailableException} is thrown as is (retryable: the bytes may be fine); every
 * permanent failure is a {@link SerializationException} naming the topic and, once known, the
 * schema id. Messages never contain the bytes.
 */
public final class AvroDeserializer implements Deserializer<GenericRecord> {
  private final Map<Integer, AvroBodyValidator> validators = new ConcurrentHashMap<>();
  private SchemaRegistryClient client;

  /**
   * A deserializer that gets its registry from {@code schema.registry.url} in {@link #configure}.
   */
  public AvroDeserializer() {}

  /** A ready deserializer on {@code client}. */
  public AvroDeserializer(SchemaRegistryClient client) {
    this.client = client;
  }

  void useClientIfAbsent(SchemaRegistryClient shared) {
    if (client == null) {
      client = shared;
    }
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    this.client = RegistryClients.resolve(client, new AvroSerdeConfig(configs));
  }

  @Override
  public GenericRecord deserialize(String topic, byte[] data) {
    if (data == null) {
      return null;
    }
    if (client == null) {
      throw new IllegalStateException("AvroDeserializer used before configure()");
    }
    int id;
    try {
      id = WireFormat.schemaId(data);
    } catch (WireFormatException e) {
      throw new SerializationException(
          "topic " + topic + ": not Confluent wire format Avro: " + e.getMessage(), e);
    }
    Schema writer = writerSchema(topic, id);
    if (writer.getType() != Schema.Type.RECORD) {
      throw new SerializationException(
          "topic " + topic + ": schema id " + id + " is a " + writer.getType() + ", not a record");
    }
    try {
      validators
          .computeIfAbsent(id, i -> AvroBodyValidator.of(writer))
          .validate(data, WireFormat.HEADER_SIZE, data.length - WireFormat.HEADER_SIZE);
    } catch (AvroBodyException e) {
      throw new SerializationException(
          "topic "
              + topic
              + (e.kind() == AvroBodyException.Kind.TRAILING_BYTES
                  ? ": trailing bytes after the record written with schema id " + id
                  : ": " + data.length + " bytes do not decode with schema id " + id)
              + " ("
              + data.length
              + " bytes in all): "
              + e.getMessage(),
          e);
    }
    // Validated first, so Avro's reader cannot be made to allocate from a forged length.
    BinaryDecoder decoder =
        DecoderFactory.get()
            .binaryDecoder(
                data, WireFormat.HEADER_SIZE, data.length - WireFormat.HEADER_SIZE, null);
    GenericRecord record;
    try {
      record = new GenericDatumReader<GenericRecord>(writer).read(null, decoder);
    } catch (IOException | RuntimeException e) {
      throw new SerializationException(
          "topic "
              + topic
              + ": "
              + data.length
              + " bytes do not decode with schema id "
              + id
              + ": "
              + e,
          e);
    }
    return record;
  }

  private Schema writerSchema(String topic, int id) {
    try {
      return client.schemaById(id);
    } catch (RegistryUnavailableException e) {
      throw e;
    } catch (RegistryException e) {
      throw new SerializationException(
          "topic " + topic + ": no writer schema for schema id " + id + ": " + e.getMessage(), e);
    }
  }
}
