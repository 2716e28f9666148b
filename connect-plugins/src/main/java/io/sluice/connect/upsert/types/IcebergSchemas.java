package io.sluice.connect.upsert.types;

import static io.sluice.connect.upsert.types.SemanticTypes.CONNECT_DATE;
import static io.sluice.connect.upsert.types.SemanticTypes.CONNECT_DECIMAL;
import static io.sluice.connect.upsert.types.SemanticTypes.CONNECT_TIME;
import static io.sluice.connect.upsert.types.SemanticTypes.CONNECT_TIMESTAMP;
import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_DATE;
import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_MICRO_TIME;
import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_MICRO_TIMESTAMP;
import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_NANO_TIME;
import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_NANO_TIMESTAMP;
import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_TIME;
import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_TIMESTAMP;
import static io.sluice.connect.upsert.types.SemanticTypes.DEBEZIUM_ZONED_TIMESTAMP;
import static io.sluice.connect.upsert.types.SemanticTypes.DECIMAL_PRECISION;
import static io.sluice.connect.upsert.types.SemanticTypes.DECIMAL_SCALE;
import static io.sluice.connect.upsert.types.SemanticTypes.MAX_DECIMAL_PRECISION;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.errors.DataException;

/**
 * Connect schemas to Iceberg schemas. Debezium's temporal types and Connect's logical types become
 * Iceberg date / time / timestamp / timestamptz / decimal columns (a {@code DATETIME(3)} column,
 * epoch milliseconds on the wire, is a timestamp, not a long). The primary-key columns are required
 * and are the identifier fields; every other column is optional, so a later record may leave it
 * out.
 */
public final class IcebergSchemas {
  private IcebergSchemas() {}

  /**
   * The table schema of rows shaped like {@code row}, keyed by {@code key}'s fields: the key
   * columns lead, in the key's field order, then the row's other columns in row order.
   *
   * <p>Key first because Iceberg keeps identifier fields as a set of field ids: a table's create
   * assigns fresh ids in column order and re-collects the identifier ids into a hash set, so the
   * table's {@code identifier-field-ids} come out ordered by id. Only leading key columns (ids
   * 1..k) keep the key's order, which is the order of a composite key's equality deletes and of
   * every reader that lists the key.
   *
   * @param excludedField a row field that is not a column (flat operation field), or null
   * @throws DataException when a key field has a type Iceberg cannot use as an identifier
   */
  public static org.apache.iceberg.Schema tableSchema(
      Schema row, Schema key, String excludedField) {
    AtomicInteger ids = new AtomicInteger(0);
    List<Types.NestedField> columns = new ArrayList<>();
    // Ordered: Iceberg keeps the ids in the order they are given until the table is created.
    Set<Integer> identifiers = new LinkedHashSet<>();
    Set<String> keyNames = new HashSet<>();
    for (Field keyField : key.fields()) {
      // The row's field when it has one: its type is the column's (the key's is the same column).
      Field field = row.field(keyField.name());
      Types.NestedField column = column(field == null ? keyField : field, true, ids);
      checkIdentifierType(column);
      columns.add(column);
      identifiers.add(column.fieldId());
      keyNames.add(keyField.name());
    }
    for (Field field : row.fields()) {
      if (!field.name().equals(excludedField) && !keyNames.contains(field.name())) {
        columns.add(column(field, false, ids));
      }
    }
    return new org.apache.iceberg.Schema(columns, identifiers);
  }

  /** The Iceberg type of a Connect schema; nested field ids come from {@code ids}. */
  public static Type type(Schema schema, AtomicInteger ids) {
    String name = schema.name();
    if (name != null) {
      Type semantic = semanticType(schema, name);
      if (semantic != null) {
        return semantic;
      }
    }
    return switch (schema.type()) {
      case INT8, INT16, INT32 -> Types.IntegerType.get();
      case INT64 -> Types.LongType.get();
      case FLOAT32 -> Types.FloatType.get();
      case FLOAT64 -> Types.DoubleType.get();
      case BOOLEAN -> Types.BooleanType.get();
      case STRING -> Types.StringType.get();
      case BYTES -> Types.BinaryType.get();
      case ARRAY -> {
        int elementId = ids.incrementAndGet();
        Type element = type(schema.valueSchema(), ids);
        yield schema.valueSchema().isOptional()
            ? Types.ListType.ofOptional(elementId, element)
            : Types.ListType.ofRequired(elementId, element);
      }
      case MAP -> {
        int keyId = ids.incrementAndGet();
        int valueId = ids.incrementAndGet();
        Type keyType = type(schema.keySchema(), ids);
        Type valueType = type(schema.valueSchema(), ids);
        yield schema.valueSchema().isOptional()
            ? Types.MapType.ofOptional(keyId, valueId, keyType, valueType)
            : Types.MapType.ofRequired(keyId, valueId, keyType, valueType);
      }
      case STRUCT -> {
        List<Types.NestedField> fields = new ArrayList<>();
        for (Field field : schema.fields()) {
          fields.add(column(field, false, ids));
        }
        yield Types.StructType.of(fields);
      }
    };
  }

  private static Type semanticType(Schema schema, String name) {
    return switch (name) {
      case CONNECT_DECIMAL -> decimal(schema);
      case CONNECT_DATE, DEBEZIUM_DATE -> Types.DateType.get();
      case CONNECT_TIME, DEBEZIUM_TIME, DEBEZIUM_MICRO_TIME, DEBEZIUM_NANO_TIME ->
          Types.TimeType.get();
      case CONNECT_TIMESTAMP,
          DEBEZIUM_TIMESTAMP,
          DEBEZIUM_MICRO_TIMESTAMP,
          DEBEZIUM_NANO_TIMESTAMP ->
          Types.TimestampType.withoutZone();
      case DEBEZIUM_ZONED_TIMESTAMP -> Types.TimestampType.withZone();
      default -> null;
    };
  }

  private static Type decimal(Schema schema) {
    Map<String, String> params = schema.parameters();
    if (params == null || params.get(DECIMAL_SCALE) == null) {
      throw new DataException("Decimal schema without a scale parameter");
    }
    int scale = Integer.parseInt(params.get(DECIMAL_SCALE));
    String precision = params.get(DECIMAL_PRECISION);
    int p = precision == null ? MAX_DECIMAL_PRECISION : Integer.parseInt(precision);
    if (p > MAX_DECIMAL_PRECISION) {
      throw new DataException(
          "decimal precision " + p + " exceeds Iceberg's maximum " + MAX_DECIMAL_PRECISION);
    }
    return Types.DecimalType.of(Math.max(p, scale), scale);
  }

  private static Types.NestedField column(Field field, boolean required, AtomicInteger ids) {
    int id = ids.incrementAndGet();
    Type type = type(field.schema(), ids);
    return required
        ? Types.NestedField.required(id, field.name(), type)
        : Types.NestedField.optional(id, field.name(), type);
  }

  private static void checkIdentifierType(Types.NestedField column) {
    Type type = column.type();
    if (!type.isPrimitiveType()
        || type.typeId() == Type.TypeID.FLOAT
        || type.typeId() == Type.TypeID.DOUBLE) {
      throw new DataException(
          "primary-key column "
              + column.name()
              + " has type "
              + type
              + ", which cannot be an Iceberg identifier field (needs a non-floating primitive)");
    }
  }
}
