package io.sluice.schema.serde;

import io.sluice.schema.Subjects;
import io.sluice.schema.registry.RegistryException;
import io.sluice.schema.registry.RegistryUnavailableException;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.Map;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.errors.SerializationException;
import org.apache.kafka.common.serialization.Serializer;

/**
 * Writes a {@link GenericRecord} in the Confluent wire format: magic byte, the schema id under
 * {@code <topic>-key} / {@code <topic>-value}, then Avro binary. With {@code
 * auto.register.schemas=false} the schema must already be registered under the subject.
 *
 * <p>{@link RegistryUnavailableException} is thrown as is (retryable); every permanent failure is a
 * {@link SerializationException} naming the topic and subject.
 */
public final class AvroSerializer implements Serializer<GenericRecord> {
  private SchemaRegistryClient client;
  private boolean autoRegister = true;
  private boolean isKey;

  /** A serializer that gets its registry from {@code schema.registry.url} in {@link #configure}. */
  public AvroSerializer() {}

  /** A serializer on {@code client}; {@link #configure} may still set the other keys. */
  public AvroSerializer(SchemaRegistryClient client) {
    this.client = client;
  }

  /** A ready serializer on {@code client}; no {@link #configure} needed. */
  public AvroSerializer(SchemaRegistryClient client, boolean autoRegister, boolean isKey) {
    this.client = client;
    this.autoRegister = autoRegister;
    this.isKey = isKey;
  }

  void useClientIfAbsent(SchemaRegistryClient shared) {
    if (client == null) {
      client = shared;
    }
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    AvroSerdeConfig config = new AvroSerdeConfig(configs);
    this.client = RegistryClients.resolve(client, config);
    this.autoRegister = config.autoRegisterSchemas();
    this.isKey = isKey;
  }

  @Override
  public byte[] serialize(String topic, GenericRecord record) {
    if (record == null) {
      return null;
    }
    if (client == null) {
      throw new IllegalStateException("AvroSerializer used before configure()");
    }
    String subject = Subjects.of(topic, isKey);
    Schema schema = record.getSchema();
    int id = schemaId(topic, subject, schema);
    try {
      ByteArrayOutputStream body = new ByteArrayOutputStream();
      BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(body, null);
      new GenericDatumWriter<GenericRecord>(schema).write(record, encoder);
      encoder.flush();
      return WireFormat.encode(id, body.toByteArray());
    } catch (IOException | AvroRuntimeException | ClassCastException | NullPointerException e) {
      throw new SerializationException(
          "cannot write a "
              + schema.getFullName()
              + " record for topic "
              + topic
              + " (schema id "
              + id
              + "): "
              + e.getMessage(),
          e);
    }
  }

  private int schemaId(String topic, String subject, Schema schema) {
    try {
      return autoRegister ? client.register(subject, schema) : client.lookup(subject, schema).id();
    } catch (RegistryUnavailableException e) {
      throw e;
    } catch (RegistryException e) {
      throw new SerializationException(
          "no schema id for topic "
              + topic
              + " under subject "
              + subject
              + (autoRegister ? " (registering)" : " (looking up; auto.register.schemas=false)")
              + ": "
              + e.getMessage(),
          e);
    }
  }
}
