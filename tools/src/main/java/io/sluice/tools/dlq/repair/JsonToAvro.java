package io.sluice.tools.dlq.repair;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;

/**
 * JSON values to Avro data of a given schema: the type table of the json-intended-row strategy.
 * Knows Debezium's semantic types (by {@code connect.name}) and Avro's logical types: timestamps
 * from epoch numbers or text (UTC), dates, times, decimals (from numbers or text, with the schema's
 * scale), optional unions. Unknown fields and missing required fields are errors naming the field;
 * no error quotes a value.
 */
public final class JsonToAvro {
  private static final String CONNECT_NAME = "connect.name";
  private static final String TIMESTAMP_TEXT = "'yyyy-MM-dd HH:mm:ss[.SSS]' text (UTC)";

  private JsonToAvro() {}

  /**
   * A record of {@code schema} from a JSON object: every JSON field must be a field of the schema;
   * a missing field takes its default, or null when it is optional, else it is an error.
   *
   * @param path the field path of {@code json} in messages ("" for a top-level row)
   * @throws RepairException naming the field when a value does not fit
   */
  public static GenericRecord record(JsonNode json, Schema schema, String path) {
    if (json == null || !json.isObject()) {
      throw mismatch(path, schema, "a JSON object", json);
    }
    for (Iterator<String> names = json.fieldNames(); names.hasNext(); ) {
      String name = names.next();
      if (schema.getField(name) == null) {
        throw new RepairException(
            "unknown field '"
                + join(path, name)
                + "': schema "
                + schema.getFullName()
                + " has no such field (it has "
                + fieldNames(schema)
                + ")");
      }
    }
    GenericRecord record = new GenericData.Record(schema);
    for (Schema.Field field : schema.getFields()) {
      JsonNode value = json.get(field.name());
      String fieldPath = join(path, field.name());
      if (value != null) {
        record.put(field.pos(), value(value, field.schema(), fieldPath));
      } else if (field.hasDefaultValue()) {
        record.put(field.pos(), GenericData.get().getDefaultValue(field));
      } else if (isNullable(field.schema())) {
        record.put(field.pos(), null);
      } else {
        throw new RepairException(
            "required field '"
                + fieldPath
                + "' ("
                + describe(field.schema())
                + ", no default) is missing from the intended row");
      }
    }
    return record;
  }

  /**
   * The Avro datum of {@code schema} for {@code json}.
   *
   * @throws RepairException naming {@code path} when the value does not fit
   */
  public static Object value(JsonNode json, Schema schema, String path) {
    if (json == null || json.isNull() || json.isMissingNode()) {
      if (isNullable(schema)) {
        return null;
      }
      throw new RepairException(
          "field '" + path + "' is null but its type (" + describe(schema) + ") is not optional");
    }
    return switch (schema.getType()) {
      case UNION -> union(json, schema, path);
      case NULL -> throw mismatch(path, schema, "null", json);
      case BOOLEAN -> bool(json, schema, path);
      case INT -> toInt(json, schema, path);
      case LONG -> toLong(json, schema, path);
      case FLOAT -> (float) decimal(json, schema, path, "a number").doubleValue();
      case DOUBLE -> decimal(json, schema, path, "a number").doubleValue();
      case STRING -> string(json, schema, path);
      case BYTES -> bytes(json, schema, path);
      case FIXED -> fixed(json, schema, path);
      case ENUM -> enumSymbol(json, schema, path);
      case RECORD -> record(json, schema, path);
      case ARRAY -> array(json, schema, path);
      case MAP -> map(json, schema, path);
    };
  }

  /** True when {@code schema} is null or a union with a null branch. */
  public static boolean isNullable(Schema schema) {
    return switch (schema.getType()) {
      case NULL -> true;
      case UNION -> schema.getTypes().stream().anyMatch(s -> s.getType() == Schema.Type.NULL);
      default -> false;
    };
  }

  /** The type for messages: Avro type plus semantic or logical name, e.g. "long Timestamp". */
  public static String describe(Schema schema) {
    if (schema.getType() == Schema.Type.UNION) {
      List<String> branches = new ArrayList<>();
      schema.getTypes().forEach(s -> branches.add(describe(s)));
      return "union " + branches;
    }
    String type = schema.getType().getName();
    String semantic = semantic(schema);
    return semantic == null ? type : type + " " + semantic;
  }

  private static Object union(JsonNode json, Schema schema, String path) {
    List<Schema> branches =
        schema.getTypes().stream().filter(s -> s.getType() != Schema.Type.NULL).toList();
    if (branches.size() == 1) {
      return value(json, branches.get(0), path);
    }
    for (Schema branch : branches) {
      try {
        return value(json, branch, path);
      } catch (RepairException e) {
        // try the next branch
      }
    }
    throw mismatch(path, schema, "a value of one of the union's types", json);
  }

  private static Boolean bool(JsonNode json, Schema schema, String path) {
    if (json.isBoolean()) {
      return json.booleanValue();
    }
    if (json.isTextual() && ("true".equals(json.textValue()) || "false".equals(json.textValue()))) {
      return Boolean.valueOf(json.textValue());
    }
    if (json.isIntegralNumber() && (json.intValue() == 0 || json.intValue() == 1)) {
      return json.intValue() == 1; // MySQL BOOLEAN is TINYINT(1)
    }
    throw mismatch(path, schema, "true or false", json);
  }

  private static Integer toInt(JsonNode json, Schema schema, String path) {
    String semantic = String.valueOf(semantic(schema));
    long value;
    if (json.isTextual() && isDate(semantic)) {
      value = required(TemporalText.epochDay(json.textValue()), path, schema, "'yyyy-MM-dd' text");
    } else if (json.isTextual() && isTimeMillis(semantic)) {
      Long nanos = TemporalText.nanoOfDay(json.textValue());
      value = required(nanos, path, schema, "'HH:mm:ss[.SSS]' text") / 1_000_000L;
    } else {
      value = integral(json, schema, path);
    }
    if (value < Integer.MIN_VALUE || value > Integer.MAX_VALUE) {
      throw new RepairException(
          "field '" + path + "' (" + describe(schema) + "): the number does not fit an int");
    }
    return (int) value;
  }

  private static Long toLong(JsonNode json, Schema schema, String path) {
    String semantic = String.valueOf(semantic(schema));
    if (!json.isTextual() || isPlainNumberText(json.textValue())) {
      return integral(json, schema, path);
    }
    String text = json.textValue();
    switch (semantic) {
      case "io.debezium.time.Timestamp",
          "org.apache.kafka.connect.data.Timestamp",
          "timestamp-millis",
          "local-timestamp-millis" -> {
        return instant(text, path, schema).toEpochMilli();
      }
      case "io.debezium.time.MicroTimestamp", "timestamp-micros", "local-timestamp-micros" -> {
        Instant i = instant(text, path, schema);
        return Math.addExact(
            Math.multiplyExact(i.getEpochSecond(), 1_000_000L), i.getNano() / 1000);
      }
      case "io.debezium.time.NanoTimestamp", "timestamp-nanos", "local-timestamp-nanos" -> {
        Instant i = instant(text, path, schema);
        return Math.addExact(Math.multiplyExact(i.getEpochSecond(), 1_000_000_000L), i.getNano());
      }
      case "io.debezium.time.MicroTime", "time-micros" -> {
        return required(TemporalText.nanoOfDay(text), path, schema, "'HH:mm:ss[.SSSSSS]' text")
            / 1000;
      }
      case "io.debezium.time.NanoTime" -> {
        return required(TemporalText.nanoOfDay(text), path, schema, "'HH:mm:ss[.fraction]' text");
      }
      default -> throw mismatch(path, schema, "an integer", json);
    }
  }

  private static Instant instant(String text, String path, Schema schema) {
    Instant instant = TemporalText.instant(text);
    if (instant == null) {
      throw new RepairException(
          "field '"
              + path
              + "' ("
              + describe(schema)
              + "): expected epoch units or "
              + TIMESTAMP_TEXT
              + ", got text that is not such a timestamp");
    }
    return instant;
  }

  private static long integral(JsonNode json, Schema schema, String path) {
    BigDecimal number = decimal(json, schema, path, "an integer");
    try {
      return number.longValueExact();
    } catch (ArithmeticException e) {
      throw new RepairException(
          "field '"
              + path
              + "' ("
              + describe(schema)
              + "): expected an integer, got a number with a fraction or out of range");
    }
  }

  private static BigDecimal decimal(JsonNode json, Schema schema, String path, String expected) {
    if (json.isNumber()) {
      return json.decimalValue();
    }
    if (json.isTextual() && isPlainNumberText(json.textValue())) {
      return new BigDecimal(json.textValue().trim());
    }
    throw mismatch(
        path, schema, expected + (isTemporal(schema) ? " or " + TIMESTAMP_TEXT : ""), json);
  }

  private static String string(JsonNode json, Schema schema, String path) {
    if (json.isTextual()) {
      return json.textValue();
    }
    if (json.isNumber() || json.isBoolean()) {
      return json.asText();
    }
    if ("io.debezium.data.Json".equals(semantic(schema))) {
      return json.toString();
    }
    throw mismatch(path, schema, "text", json);
  }

  private static ByteBuffer bytes(JsonNode json, Schema schema, String path) {
    Integer scale = decimalScale(schema);
    if (scale != null) {
      return ByteBuffer.wrap(unscaled(json, schema, path, scale).toByteArray());
    }
    return ByteBuffer.wrap(base64(json, schema, path));
  }

  private static GenericData.Fixed fixed(JsonNode json, Schema schema, String path) {
    Integer scale = decimalScale(schema);
    byte[] bytes;
    if (scale != null) {
      byte[] minimal = unscaled(json, schema, path, scale).toByteArray();
      if (minimal.length > schema.getFixedSize()) {
        throw new RepairException(
            "field '" + path + "' (" + describe(schema) + "): the decimal is too large");
      }
      bytes = new byte[schema.getFixedSize()];
      byte fill = (byte) (minimal[0] < 0 ? 0xff : 0);
      java.util.Arrays.fill(bytes, 0, bytes.length - minimal.length, fill);
      System.arraycopy(minimal, 0, bytes, bytes.length - minimal.length, minimal.length);
    } else {
      bytes = base64(json, schema, path);
      if (bytes.length != schema.getFixedSize()) {
        throw new RepairException(
            "field '"
                + path
                + "' ("
                + describe(schema)
                + "): expected "
                + schema.getFixedSize()
                + " bytes, got "
                + bytes.length);
      }
    }
    return new GenericData.Fixed(schema, bytes);
  }

  private static BigInteger unscaled(JsonNode json, Schema schema, String path, int scale) {
    BigDecimal value = decimal(json, schema, path, "a decimal number");
    try {
      BigDecimal scaled = value.setScale(scale, RoundingMode.UNNECESSARY);
      LogicalType logical = schema.getLogicalType();
      if (logical instanceof LogicalTypes.Decimal d && scaled.precision() > d.getPrecision()) {
        throw new RepairException(
            "field '"
                + path
                + "' ("
                + describe(schema)
                + "): the decimal has more than "
                + d.getPrecision()
                + " digits");
      }
      return scaled.unscaledValue();
    } catch (ArithmeticException e) {
      throw new RepairException(
          "field '"
              + path
              + "' ("
              + describe(schema)
              + "): the decimal has more than "
              + scale
              + " digits after the point");
    }
  }

  private static byte[] base64(JsonNode json, Schema schema, String path) {
    if (json.isTextual()) {
      try {
        return Base64.getDecoder().decode(json.textValue());
      } catch (IllegalArgumentException e) {
        // fall through to the error
      }
    }
    throw mismatch(path, schema, "base64 text", json);
  }

  private static GenericData.EnumSymbol enumSymbol(JsonNode json, Schema schema, String path) {
    if (json.isTextual() && schema.hasEnumSymbol(json.textValue())) {
      return new GenericData.EnumSymbol(schema, json.textValue());
    }
    throw mismatch(path, schema, "one of the symbols " + schema.getEnumSymbols(), json);
  }

  private static List<Object> array(JsonNode json, Schema schema, String path) {
    if (!json.isArray()) {
      throw mismatch(path, schema, "a JSON array", json);
    }
    List<Object> items = new ArrayList<>(json.size());
    for (int i = 0; i < json.size(); i++) {
      items.add(value(json.get(i), schema.getElementType(), path + "[" + i + "]"));
    }
    return items;
  }

  private static Map<String, Object> map(JsonNode json, Schema schema, String path) {
    if (!json.isObject()) {
      throw mismatch(path, schema, "a JSON object", json);
    }
    Map<String, Object> map = new LinkedHashMap<>();
    json.fields()
        .forEachRemaining(
            e ->
                map.put(
                    e.getKey(),
                    value(e.getValue(), schema.getValueType(), path + "[" + e.getKey() + "]")));
    return map;
  }

  private static long required(Long value, String path, Schema schema, String expected) {
    if (value == null) {
      throw new RepairException(
          "field '"
              + path
              + "' ("
              + describe(schema)
              + "): expected a number or "
              + expected
              + ", got text that is not one");
    }
    return value;
  }

  private static RepairException mismatch(
      String path, Schema schema, String expected, JsonNode json) {
    String got =
        json == null ? "nothing" : "a JSON " + json.getNodeType().name().toLowerCase(Locale.ROOT);
    return new RepairException(
        "field '"
            + (path.isEmpty() ? "<row>" : path)
            + "' ("
            + describe(schema)
            + "): expected "
            + expected
            + ", got "
            + got);
  }

  /** Debezium's connect.name, else the Avro logical type name, else null. */
  private static String semantic(Schema schema) {
    String connectName = schema.getProp(CONNECT_NAME);
    if (connectName != null && connectName.startsWith("io.debezium.")
        || connectName != null && connectName.startsWith("org.apache.kafka.connect.data.")) {
      return connectName;
    }
    LogicalType logical = schema.getLogicalType();
    return logical == null ? null : logical.getName();
  }

  /** The scale of a decimal schema (Avro logical or Connect's), null when it is no decimal. */
  static Integer decimalScale(Schema schema) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal d) {
      return d.getScale();
    }
    if ("org.apache.kafka.connect.data.Decimal".equals(schema.getProp(CONNECT_NAME))) {
      Object parameters = schema.getObjectProp("connect.parameters");
      if (parameters instanceof Map<?, ?> map && map.get("scale") != null) {
        return Integer.valueOf(map.get("scale").toString());
      }
      return 0;
    }
    return null;
  }

  private static boolean isDate(String semantic) {
    return semantic.equals("io.debezium.time.Date")
        || semantic.equals("org.apache.kafka.connect.data.Date")
        || semantic.equals("date");
  }

  private static boolean isTimeMillis(String semantic) {
    return semantic.equals("io.debezium.time.Time")
        || semantic.equals("org.apache.kafka.connect.data.Time")
        || semantic.equals("time-millis");
  }

  private static boolean isTemporal(Schema schema) {
    String semantic = semantic(schema);
    return semantic != null && (semantic.contains("time") || semantic.contains("Time"));
  }

  private static boolean isPlainNumberText(String text) {
    return text != null && text.trim().matches("[-+]?\\d+(\\.\\d+)?([eE][-+]?\\d+)?");
  }

  private static String fieldNames(Schema schema) {
    return schema.getFields().stream().map(Schema.Field::name).toList().toString();
  }

  private static String join(String path, String name) {
    return path.isEmpty() ? name : path + "." + name;
  }
}
