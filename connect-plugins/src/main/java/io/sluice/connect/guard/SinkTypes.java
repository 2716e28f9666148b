package io.sluice.connect.guard;

import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.Time;
import org.apache.kafka.connect.data.Timestamp;

/**
 * The Iceberg type the Apache Iceberg sink (1.12, {@code SchemaUtils.SchemaGenerator}) gives a
 * Connect schema when it creates a table or adds a column: Connect's own logical types only
 * (Debezium's {@code io.debezium.time.*} stay int or long), every decimal {@code decimal(38,
 * scale)}, a string named {@code uuid} a uuid. Its columns have these types, so records are judged
 * by them, not by the upsert sink's richer mapping.
 */
final class SinkTypes {
  /** What the Apache sink makes of every Connect decimal. */
  static final int DECIMAL_PRECISION = 38;

  /** Avro's decimal precision as Connect converters carry it (absent: unbounded, 38 here). */
  static final String DECIMAL_PRECISION_PARAMETER = "connect.decimal.precision";

  private SinkTypes() {}

  /** The column type the Apache sink would create for {@code schema} (nested ids are dummies). */
  static Type of(Schema schema) {
    return of(schema, new int[] {0});
  }

  private static Type of(Schema schema, int[] ids) {
    String name = schema.name();
    return switch (schema.type()) {
      case BOOLEAN -> Types.BooleanType.get();
      case BYTES ->
          Decimal.LOGICAL_NAME.equals(name)
              ? Types.DecimalType.of(DECIMAL_PRECISION, scale(schema))
              : Types.BinaryType.get();
      case INT8, INT16 -> Types.IntegerType.get();
      case INT32 ->
          Date.LOGICAL_NAME.equals(name)
              ? Types.DateType.get()
              : Time.LOGICAL_NAME.equals(name) ? Types.TimeType.get() : Types.IntegerType.get();
      case INT64 ->
          Timestamp.LOGICAL_NAME.equals(name)
              ? Types.TimestampType.withZone()
              : Types.LongType.get();
      case FLOAT32 -> Types.FloatType.get();
      case FLOAT64 -> Types.DoubleType.get();
      case STRING -> "uuid".equals(name) ? Types.UUIDType.get() : Types.StringType.get();
      case ARRAY -> {
        Type element = of(schema.valueSchema(), ids);
        yield schema.valueSchema().isOptional()
            ? Types.ListType.ofOptional(++ids[0], element)
            : Types.ListType.ofRequired(++ids[0], element);
      }
      case MAP -> {
        Type key = of(schema.keySchema(), ids);
        Type value = of(schema.valueSchema(), ids);
        yield schema.valueSchema().isOptional()
            ? Types.MapType.ofOptional(++ids[0], ++ids[0], key, value)
            : Types.MapType.ofRequired(++ids[0], ++ids[0], key, value);
      }
      case STRUCT -> {
        List<Types.NestedField> fields = new ArrayList<>();
        for (Field field : schema.fields()) {
          Type type = of(field.schema(), ids);
          fields.add(
              field.schema().isOptional()
                  ? Types.NestedField.optional(++ids[0], field.name(), type)
                  : Types.NestedField.required(++ids[0], field.name(), type));
        }
        yield Types.StructType.of(fields);
      }
    };
  }

  /**
   * How a message names the type of {@code schema}: its Apache sink type, a decimal with the
   * precision it declares.
   */
  static String describe(Schema schema) {
    if (schema.type() == Schema.Type.BYTES && Decimal.LOGICAL_NAME.equals(schema.name())) {
      return Types.DecimalType.of(declaredPrecision(schema), scale(schema)).toString();
    }
    return of(schema).toString();
  }

  /**
   * The precision a Connect decimal declares (its Avro precision), {@value #DECIMAL_PRECISION} when
   * it declares none: the most digits its values can have.
   */
  static int declaredPrecision(Schema decimal) {
    String precision =
        decimal.parameters() == null ? null : decimal.parameters().get(DECIMAL_PRECISION_PARAMETER);
    return precision == null ? DECIMAL_PRECISION : Integer.parseInt(precision);
  }

  private static int scale(Schema decimal) {
    return Integer.parseInt(decimal.parameters().get(Decimal.SCALE_FIELD));
  }
}
