package io.sluice.connect.upsert.types;

import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_MICRO_TIME;
import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_MICRO_TIMESTAMP;
import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_NANO_TIME;
import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_NANO_TIMESTAMP;

import io.sluice.connect.upsert.error.RecordRejectedException;
import io.sluice.connect.upsert.error.SinkErrorCode;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;

/**
 * Connect rows to Iceberg generic records of one table schema, matching fields by name. Values are
 * widened to the column's type (int to long, float to double, decimal to the column's scale);
 * anything that would lose information fails with a {@link RecordRejectedException} naming the
 * column and its type (never the value): the record's own fault, which the sink may quarantine. A
 * table column of a type this class cannot write is a plain {@link DataException}.
 */
public final class RecordConverter {
  private static final long MILLIS_PER_DAY = 86_400_000L;

  private final org.apache.iceberg.Schema schema;
  private final org.apache.iceberg.Schema keySchema;
  private AvroRowConverter avro;
  private String avroExcludedField;

  public RecordConverter(org.apache.iceberg.Schema tableSchema) {
    this.schema = tableSchema;
    this.keySchema = TypeUtil.select(tableSchema, tableSchema.identifierFieldIds());
  }

  /** The identifier (primary-key) columns: the schema of equality deletes. */
  public org.apache.iceberg.Schema keySchema() {
    return keySchema;
  }

  /**
   * The converter of the same table schema for Avro rows (the sink's direct path); one per
   * converter and excluded field, its compiled columns kept.
   */
  public AvroRowConverter avro(String excludedField) {
    if (avro == null || !java.util.Objects.equals(avroExcludedField, excludedField)) {
      avro = new AvroRowConverter(schema, keySchema, excludedField);
      avroExcludedField = excludedField;
    }
    return avro;
  }

  /**
   * The table row for {@code row}; key columns the row lacks come from {@code key}.
   *
   * @param excludedField a row field that is not a column, or null
   */
  public Record row(Struct row, Struct key, String excludedField) {
    for (Field field : row.schema().fields()) {
      if (!field.name().equals(excludedField) && schema.findField(field.name()) == null) {
        throw rejected(
            field.name(), null, "field " + field.name() + " is not a column of the table");
      }
    }
    GenericRecord record = GenericRecord.create(schema);
    List<Types.NestedField> columns = schema.columns();
    for (int i = 0; i < columns.size(); i++) {
      Types.NestedField column = columns.get(i);
      Field field = row.schema().field(column.name());
      Object value;
      if (field != null) {
        value = convert(column, field.schema(), row.get(field), column.name());
      } else {
        Field keyField = key.schema().field(column.name());
        value =
            keyField == null
                ? null
                : convert(column, keyField.schema(), key.get(keyField), column.name());
      }
      if (value == null && column.isRequired()) {
        SinkErrorCode code =
            schema.identifierFieldIds().contains(column.fieldId())
                ? SinkErrorCode.SINK_NULL_KEY_FIELD
                : SinkErrorCode.SINK_CONVERSION_FAILED;
        throw new RecordRejectedException(
            code,
            column.name(),
            column.type().toString(),
            "required column " + column.name() + " is null in the record");
      }
      record.set(i, value);
    }
    return record;
  }

  /** The key as a record of {@link #keySchema()}, for an equality delete. */
  public Record key(Struct key) {
    return keyRecord(key, keySchema);
  }

  /** The key as a row of the table schema with only the key columns set (to find its partition). */
  public Record keyAsRow(Struct key) {
    return keyRecord(key, schema);
  }

  private Record keyRecord(Struct key, org.apache.iceberg.Schema target) {
    GenericRecord record = GenericRecord.create(target);
    for (Types.NestedField column : keySchema.columns()) {
      Field field = key.schema().field(column.name());
      if (field == null) {
        throw rejected(
            column.name(),
            column.type(),
            "the key has no field " + column.name() + " (a primary-key column)");
      }
      Object value = convert(column, field.schema(), key.get(field), column.name());
      if (value == null) {
        throw new RecordRejectedException(
            SinkErrorCode.SINK_NULL_KEY_FIELD,
            column.name(),
            column.type().toString(),
            "primary-key column " + column.name() + " is null in the key");
      }
      record.setField(column.name(), value);
    }
    return record;
  }

  private static Object convert(
      Types.NestedField column, Schema schema, Object value, String path) {
    return value == null ? null : convert(column.type(), schema, value, path);
  }

  /**
   * {@code value} of Connect {@code schema} as Iceberg's generic representation of {@code type}.
   */
  static Object convert(Type type, Schema schema, Object value, String path) {
    if (value == null) {
      return null;
    }
    try {
      return switch (type.typeId()) {
        case BOOLEAN -> (Boolean) value;
        case INTEGER -> toInt(value, path);
        case LONG -> ((Number) value).longValue();
        case FLOAT -> toFloat(value, path);
        case DOUBLE -> ((Number) value).doubleValue();
        case DECIMAL -> toDecimal((Types.DecimalType) type, (BigDecimal) value, path);
        case STRING -> (String) value;
        case BINARY -> value instanceof byte[] b ? ByteBuffer.wrap(b) : (ByteBuffer) value;
        case FIXED -> value instanceof ByteBuffer b ? toBytes(b) : (byte[]) value;
        case DATE -> toDate(value);
        case TIME -> toTime(schema, value);
        case TIMESTAMP -> toTimestamp((Types.TimestampType) type, schema, value, path);
        case STRUCT -> toStruct(type.asStructType(), (Struct) value, path);
        case LIST -> toList(type.asListType(), schema, (List<?>) value, path);
        case MAP -> toMap(type.asMapType(), schema, (Map<?, ?>) value, path);
        default -> throw new DataException("column " + path + " has unsupported type " + type);
      };
    } catch (ClassCastException e) {
      throw new RecordRejectedException(
          SinkErrorCode.SINK_CONVERSION_FAILED,
          path,
          type.toString(),
          "column "
              + path
              + " is "
              + type
              + " but the record holds a "
              + value.getClass().getSimpleName()
              + " ("
              + schemaName(schema)
              + ")",
          e);
    }
  }

  private static Integer toInt(Object value, String path) {
    if (value instanceof Long l) {
      if (l != l.intValue()) {
        throw rejected(
            path,
            Types.IntegerType.get(),
            "column " + path + " is int but the record's long is not");
      }
      return l.intValue();
    }
    return ((Number) value).intValue();
  }

  private static Float toFloat(Object value, String path) {
    if (value instanceof Double d) {
      throw rejected(
          path,
          Types.FloatType.get(),
          "column " + path + " is float but the record holds a double");
    }
    return ((Number) value).floatValue();
  }

  private static BigDecimal toDecimal(Types.DecimalType type, BigDecimal value, String path) {
    BigDecimal scaled;
    try {
      scaled = value.setScale(type.scale(), RoundingMode.UNNECESSARY);
    } catch (ArithmeticException e) {
      throw new RecordRejectedException(
          SinkErrorCode.SINK_DECIMAL_OUT_OF_RANGE,
          path,
          type.toString(),
          "column "
              + path
              + " is "
              + type
              + ": a value of scale "
              + value.scale()
              + " does not fit",
          e);
    }
    if (scaled.precision() > type.precision()) {
      throw new RecordRejectedException(
          SinkErrorCode.SINK_DECIMAL_OUT_OF_RANGE,
          path,
          type.toString(),
          "column "
              + path
              + " is "
              + type
              + ": a value of precision "
              + scaled.precision()
              + " does not fit");
    }
    return scaled;
  }

  private static LocalDate toDate(Object value) {
    if (value instanceof java.util.Date date) {
      return LocalDate.ofEpochDay(Math.floorDiv(date.getTime(), MILLIS_PER_DAY));
    }
    return LocalDate.ofEpochDay(((Number) value).longValue());
  }

  private static LocalTime toTime(Schema schema, Object value) {
    if (value instanceof java.util.Date date) {
      return LocalTime.ofNanoOfDay(Math.floorMod(date.getTime(), MILLIS_PER_DAY) * 1_000_000L);
    }
    long n = ((Number) value).longValue();
    String name = schema.name() == null ? "" : schema.name();
    return switch (name) {
      case DEBEZIUM_MICRO_TIME -> LocalTime.ofNanoOfDay(n * 1_000L);
      case DEBEZIUM_NANO_TIME -> LocalTime.ofNanoOfDay(n);
      default -> LocalTime.ofNanoOfDay(n * 1_000_000L);
    };
  }

  private static Object toTimestamp(
      Types.TimestampType type, Schema schema, Object value, String path) {
    return toTimestamp(type, schema.name(), value, path);
  }

  /**
   * A timestamp column's value from a string (ISO, with offset), a {@code java.util.Date}, or a
   * number in the unit {@code schemaName} gives (Debezium's micro and nano timestamps; else ms).
   */
  static Object toTimestamp(
      Types.TimestampType type, String schemaName, Object value, String path) {
    Instant instant;
    if (value instanceof String text) {
      OffsetDateTime parsed;
      try {
        parsed = OffsetDateTime.parse(text);
      } catch (DateTimeParseException e) {
        throw new RecordRejectedException(
            SinkErrorCode.SINK_CONVERSION_FAILED,
            path,
            type.toString(),
            "column " + path + " is " + type + ": the string is not an ISO timestamp",
            e);
      }
      if (type.shouldAdjustToUTC()) {
        return parsed;
      }
      instant = parsed.toInstant();
    } else if (value instanceof java.util.Date date) {
      instant = date.toInstant();
    } else {
      long n = ((Number) value).longValue();
      String name = schemaName == null ? "" : schemaName;
      instant =
          switch (name) {
            case DEBEZIUM_MICRO_TIMESTAMP ->
                Instant.ofEpochSecond(
                    Math.floorDiv(n, 1_000_000L), Math.floorMod(n, 1_000_000L) * 1_000L);
            case DEBEZIUM_NANO_TIMESTAMP ->
                Instant.ofEpochSecond(
                    Math.floorDiv(n, 1_000_000_000L), Math.floorMod(n, 1_000_000_000L));
            default -> Instant.ofEpochMilli(n);
          };
    }
    // From the epoch second: ofInstant(instant, UTC) asks the offset for its rules, which Java 17
    // builds anew on every call.
    LocalDateTime utc =
        LocalDateTime.ofEpochSecond(instant.getEpochSecond(), instant.getNano(), ZoneOffset.UTC);
    return type.shouldAdjustToUTC() ? OffsetDateTime.of(utc, ZoneOffset.UTC) : utc;
  }

  private static Record toStruct(Types.StructType type, Struct value, String path) {
    GenericRecord record = GenericRecord.create(type);
    for (Field field : value.schema().fields()) {
      if (type.field(field.name()) == null) {
        throw rejected(
            path + "." + field.name(),
            null,
            "field " + path + "." + field.name() + " is not a column");
      }
    }
    for (Types.NestedField column : type.fields()) {
      Field field = value.schema().field(column.name());
      String child = path + "." + column.name();
      Object converted =
          field == null ? null : convert(column.type(), field.schema(), value.get(field), child);
      checkNull(column, converted, child);
      record.setField(column.name(), converted);
    }
    return record;
  }

  private static List<Object> toList(
      Types.ListType type, Schema schema, List<?> value, String path) {
    List<Object> out = new ArrayList<>(value.size());
    for (Object element : value) {
      out.add(convert(type.elementType(), schema.valueSchema(), element, path + ".element"));
    }
    return out;
  }

  private static Map<Object, Object> toMap(
      Types.MapType type, Schema schema, Map<?, ?> value, String path) {
    Map<Object, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> entry : value.entrySet()) {
      out.put(
          convert(type.keyType(), schema.keySchema(), entry.getKey(), path + ".key"),
          convert(type.valueType(), schema.valueSchema(), entry.getValue(), path + ".value"));
    }
    return out;
  }

  private static void checkNull(Types.NestedField column, Object value, String path) {
    if (value == null && column.isRequired()) {
      throw rejected(path, column.type(), "required column " + path + " is null in the record");
    }
  }

  private static RecordRejectedException rejected(String column, Type type, String message) {
    return new RecordRejectedException(
        SinkErrorCode.SINK_CONVERSION_FAILED,
        column,
        type == null ? null : type.toString(),
        message);
  }

  private static byte[] toBytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  private static String schemaName(Schema schema) {
    return schema.name() != null ? schema.name() : schema.type().getName();
  }
}
