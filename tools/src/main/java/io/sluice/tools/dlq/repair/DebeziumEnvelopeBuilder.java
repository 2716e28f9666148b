package io.sluice.tools.dlq.repair;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * Builds the Debezium change event ({@code before}, {@code after}, {@code source}, {@code op},
 * {@code ts_ms}) of an intended row, shaped by the registered value schema of the topic. {@code
 * source} says where it came from: connector {@code sluice-repair}, the db and table of the topic
 * name, {@code ts_ms} now; its other fields take their default or a neutral value.
 */
public final class DebeziumEnvelopeBuilder {
  /** The {@code source.connector} of repaired events. */
  public static final String CONNECTOR = "sluice-repair";

  private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

  private final Clock clock;

  public DebeziumEnvelopeBuilder(Clock clock) {
    this.clock = clock;
  }

  /** The schema of {@code before}/{@code after} in a Debezium envelope schema. */
  public static Schema rowSchema(Schema envelope) {
    Schema.Field after =
        envelope.getType() == Schema.Type.RECORD ? envelope.getField("after") : null;
    if (after == null || envelope.getField("op") == null) {
      throw new RepairException(
          "schema "
              + envelope.getFullName()
              + " is not a Debezium envelope (no 'after' and 'op' fields)");
    }
    Schema row = after.schema();
    if (row.getType() == Schema.Type.UNION) {
      row =
          row.getTypes().stream()
              .filter(s -> s.getType() == Schema.Type.RECORD)
              .findFirst()
              .orElse(null);
    }
    if (row == null || row.getType() != Schema.Type.RECORD) {
      throw new RepairException(
          "schema " + envelope.getFullName() + " has no record type for 'after'");
    }
    return row;
  }

  /**
   * The envelope of {@code intended} for {@code topic}.
   *
   * @throws RepairException naming the field when the row does not fit {@code envelope}'s row
   *     schema
   */
  public GenericRecord build(Schema envelope, String topic, IntendedRow intended) {
    Schema rowSchema = rowSchema(envelope);
    CdcTopic names = CdcTopic.parse(topic);
    GenericRecord row = JsonToAvro.record(intended.row(), rowSchema, "");
    long now = clock.millis();
    boolean delete = "d".equals(intended.operation());

    GenericRecord event = new GenericData.Record(envelope);
    for (Schema.Field field : envelope.getFields()) {
      Object value =
          switch (field.name()) {
            case "before" -> delete ? row : null;
            case "after" -> delete ? null : row;
            case "op" ->
                JsonToAvro.value(NODES.textNode(intended.operation()), field.schema(), "op");
            case "ts_ms" -> JsonToAvro.value(NODES.numberNode(now), field.schema(), "ts_ms");
            case "source" -> source(field.schema(), names, now);
            default -> NeutralValues.of(field);
          };
      event.put(field.pos(), value);
    }
    if (!GenericData.get().validate(envelope, event)) {
      throw new RepairException(
          "the repaired event does not validate against schema " + envelope.getFullName());
    }
    return event;
  }

  private static Object source(Schema schema, CdcTopic names, long now) {
    Schema record = schema;
    if (schema.getType() == Schema.Type.UNION) {
      record =
          schema.getTypes().stream()
              .filter(s -> s.getType() == Schema.Type.RECORD)
              .findFirst()
              .orElseThrow(() -> new RepairException("'source' has no record type"));
    }
    if (record.getType() != Schema.Type.RECORD) {
      throw new RepairException("'source' is not a record but " + JsonToAvro.describe(schema));
    }
    var known = new HashMap<String, JsonNode>();
    known.put("connector", NODES.textNode(CONNECTOR));
    known.put("name", NODES.textNode(names.prefix()));
    known.put("db", NODES.textNode(names.db()));
    known.put("table", NODES.textNode(names.table()));
    known.put("ts_ms", NODES.numberNode(now));
    GenericRecord source = new GenericData.Record(record);
    for (Schema.Field field : record.getFields()) {
      JsonNode value = known.get(field.name());
      source.put(
          field.pos(),
          value == null
              ? NeutralValues.of(field)
              : JsonToAvro.value(value, field.schema(), "source." + field.name()));
    }
    return source;
  }

  /** Defaults and neutral values (null, 0, "", false, empty) of fields the repair does not know. */
  static final class NeutralValues {
    private NeutralValues() {}

    static Object of(Schema.Field field) {
      return field.hasDefaultValue()
          ? GenericData.get().getDefaultValue(field)
          : of(field.schema());
    }

    static Object of(Schema schema) {
      return switch (schema.getType()) {
        case NULL -> null;
        case UNION -> JsonToAvro.isNullable(schema) ? null : of(schema.getTypes().get(0));
        case BOOLEAN -> false;
        case INT -> 0;
        case LONG -> 0L;
        case FLOAT -> 0f;
        case DOUBLE -> 0d;
        case STRING -> "";
        case BYTES -> java.nio.ByteBuffer.allocate(0);
        case FIXED -> new GenericData.Fixed(schema, new byte[schema.getFixedSize()]);
        case ENUM -> new GenericData.EnumSymbol(schema, schema.getEnumSymbols().get(0));
        case ARRAY -> new ArrayList<>(List.of());
        case MAP -> new LinkedHashMap<>();
        case RECORD -> {
          GenericRecord record = new GenericData.Record(schema);
          schema.getFields().forEach(f -> record.put(f.pos(), of(f)));
          yield record;
        }
      };
    }
  }
}
