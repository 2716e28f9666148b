package io.sluice.schema.serde;

import io.sluice.schema.registry.SchemaRegistryClient;
import java.util.Map;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.serialization.Deserializer;
import org.apache.kafka.common.serialization.Serde;
import org.apache.kafka.common.serialization.Serializer;

/** {@link AvroSerializer} and {@link AvroDeserializer} as one Kafka {@link Serde}. */
public final class AvroSerde implements Serde<GenericRecord> {
  private final AvroSerializer serializer;
  private final AvroDeserializer deserializer;
  private final SchemaRegistryClient client;

  /** A serde that gets its registry from {@code schema.registry.url} in {@link #configure}. */
  public AvroSerde() {
    this.serializer = new AvroSerializer();
    this.deserializer = new AvroDeserializer();
    this.client = null;
  }

  /** A serde on {@code client}; {@link #configure} may still set the other keys. */
  public AvroSerde(SchemaRegistryClient client) {
    this.serializer = new AvroSerializer(client);
    this.deserializer = new AvroDeserializer(client);
    this.client = client;
  }

  /** A ready serde on {@code client}; no {@link #configure} needed. */
  public AvroSerde(SchemaRegistryClient client, boolean autoRegister, boolean isKey) {
    this.serializer = new AvroSerializer(client, autoRegister, isKey);
    this.deserializer = new AvroDeserializer(client);
    this.client = client;
  }

  @Override
  public void configure(Map<String, ?> configs, boolean isKey) {
    // One client (and so one cache) for both directions.
    SchemaRegistryClient shared = RegistryClients.resolve(client, new AvroSerdeConfig(configs));
    serializer.useClientIfAbsent(shared);
    deserializer.useClientIfAbsent(shared);
    serializer.configure(configs, isKey);
    deserializer.configure(configs, isKey);
  }

  @Override
  public Serializer<GenericRecord> serializer() {
    return serializer;
  }

  @Override
  public Deserializer<GenericRecord> deserializer() {
    return deserializer;
  }
}
