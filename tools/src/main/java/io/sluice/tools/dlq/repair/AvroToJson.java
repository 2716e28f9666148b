package io.sluice.tools.dlq.repair;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericFixed;
import org.apache.avro.generic.GenericRecord;

/**
 * An Avro datum as the JSON {@link JsonToAvro} reads back: records as objects, decimals as exact
 * numbers, other bytes as base64 text, temporals as the numbers they are encoded as. Together the
 * two convert a record from one schema to another field by field.
 */
final class AvroToJson {
  private static final JsonNodeFactory NODES = JsonNodeFactory.withExactBigDecimals(true);

  private AvroToJson() {}

  /**
   * The JSON of {@code datum}, written with {@code schema}.
   *
   * @param path the field path in messages ("" at the top)
   * @throws RepairException naming the field when a value has no JSON form (NaN, infinity)
   */
  static JsonNode of(Object datum, Schema schema, String path) {
    if (datum == null) {
      return NODES.nullNode();
    }
    return switch (schema.getType()) {
      case UNION ->
          of(datum, schema.getTypes().get(GenericData.get().resolveUnion(schema, datum)), path);
      case NULL -> NODES.nullNode();
      case RECORD -> record((GenericRecord) datum, path);
      case BOOLEAN -> NODES.booleanNode((Boolean) datum);
      case INT -> NODES.numberNode((Integer) datum);
      case LONG -> NODES.numberNode((Long) datum);
      case FLOAT -> finite(((Float) datum).doubleValue(), path);
      case DOUBLE -> finite((Double) datum, path);
      case STRING, ENUM -> NODES.textNode(datum.toString());
      case BYTES -> bytes(copy((ByteBuffer) datum), schema);
      case FIXED -> bytes(((GenericFixed) datum).bytes(), schema);
      case ARRAY -> array((List<?>) datum, schema.getElementType(), path);
      case MAP -> map((Map<?, ?>) datum, schema.getValueType(), path);
    };
  }

  private static ObjectNode record(GenericRecord record, String path) {
    ObjectNode object = NODES.objectNode();
    for (Schema.Field field : record.getSchema().getFields()) {
      String fieldPath = path.isEmpty() ? field.name() : path + "." + field.name();
      object.set(field.name(), of(record.get(field.pos()), field.schema(), fieldPath));
    }
    return object;
  }

  private static JsonNode finite(double value, String path) {
    if (Double.isNaN(value) || Double.isInfinite(value)) {
      throw new RepairException(
          "field '" + path + "' holds NaN or an infinity, which the conversion cannot carry");
    }
    return NODES.numberNode(value);
  }

  private static JsonNode bytes(byte[] bytes, Schema schema) {
    Integer scale = JsonToAvro.decimalScale(schema);
    if (scale != null) {
      BigInteger unscaled = bytes.length == 0 ? BigInteger.ZERO : new BigInteger(bytes);
      return NODES.numberNode(new BigDecimal(unscaled, scale));
    }
    return NODES.textNode(Base64.getEncoder().encodeToString(bytes));
  }

  private static ArrayNode array(List<?> items, Schema element, String path) {
    ArrayNode array = NODES.arrayNode(items.size());
    for (int i = 0; i < items.size(); i++) {
      array.add(of(items.get(i), element, path + "[" + i + "]"));
    }
    return array;
  }

  private static ObjectNode map(Map<?, ?> entries, Schema value, String path) {
    ObjectNode object = NODES.objectNode();
    entries.forEach(
        (k, v) -> object.set(k.toString(), of(v, value, path + "[" + k.toString() + "]")));
    return object;
  }

  private static byte[] copy(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }
}
