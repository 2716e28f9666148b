package io.sluice.scenarios.poison;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.tools.dlq.repair.AvroWire;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * The record the poison-dlq scenario injects: the intended row as JSON (not Avro: the router must
 * quarantine it) keyed by the row's primary key encoded with the topic's registered key schema, as
 * capture would key it, so the poison lands in the key's partition.
 *
 * @param keySchemaId id of the {@code <topic>-key} schema the key is encoded with
 */
record PoisonRecord(byte[] key, byte[] value, int keySchemaId) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Builds the poison of {@code payload} for {@code topic}.
   *
   * @param row the intended row's columns (the key schema's fields are taken from it)
   */
  static PoisonRecord of(
      SchemaRegistryClient registry,
      String topic,
      Map<String, Object> row,
      Map<String, Object> payload) {
    RegisteredSchema keySchema = registry.latest(topic + "-key");
    Schema schema = keySchema.schema();
    GenericData.Record key = new GenericData.Record(schema);
    for (Schema.Field field : schema.getFields()) {
      if (!row.containsKey(field.name())) {
        throw new ScenarioFailure(
            "key schema "
                + keySchema.subject()
                + " v"
                + keySchema.version()
                + " has a field "
                + field.name()
                + " the intended row lacks");
      }
      key.put(field.name(), row.get(field.name()));
    }
    try {
      return new PoisonRecord(
          AvroWire.encode(keySchema.id(), schema, key),
          JSON.writeValueAsBytes(payload),
          keySchema.id());
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write the intended row as JSON", e);
    }
  }
}
