package io.sluice.scenarios;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.tools.dlq.repair.AvroWire;
import io.sluice.tools.dlq.repair.DebeziumEnvelopeBuilder;
import io.sluice.tools.dlq.repair.IntendedRow;
import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;

/**
 * A change event ({@code op c}) of one row as a scenario produces it to the main topic: the
 * Debezium envelope of the row encoded with a registered value schema, keyed by the row's primary
 * key encoded with the registered key schema, as capture keys it, so it lands in the key's
 * partition. The envelope is built by the tools' {@link DebeziumEnvelopeBuilder}.
 *
 * @param valueSchemaId the id of the value schema the event is written with
 * @param keySchemaId the id of the key schema
 */
public record ChangeEvent(byte[] key, byte[] value, int valueSchemaId, int keySchemaId) {
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * The insert of {@code columns} (column name to the value {@code json-intended-row} reads) in
   * {@code topic}.
   *
   * @throws ScenarioFailure when the row does not fit the schemas
   */
  public static ChangeEvent insert(
      String topic,
      RegisteredSchema valueSchema,
      RegisteredSchema keySchema,
      Map<String, Object> columns,
      Clock clock) {
    IntendedRow intended;
    try {
      intended =
          IntendedRow.parse(
              JSON.writeValueAsBytes(Map.of("intended_after", columns, "intended_operation", "c")));
    } catch (IOException e) {
      throw new ScenarioFailure("cannot write the row as JSON", e);
    }
    Schema schema = keySchema.schema();
    GenericData.Record key = new GenericData.Record(schema);
    for (Schema.Field field : schema.getFields()) {
      if (!columns.containsKey(field.name())) {
        throw new ScenarioFailure(
            "key schema id " + keySchema.id() + " has a field " + field.name() + " the row lacks");
      }
      key.put(field.name(), columns.get(field.name()));
    }
    Object event = new DebeziumEnvelopeBuilder(clock).build(valueSchema.schema(), topic, intended);
    return new ChangeEvent(
        AvroWire.encode(keySchema.id(), schema, key),
        AvroWire.encode(valueSchema.id(), valueSchema.schema(), event),
        valueSchema.id(),
        keySchema.id());
  }
}
