package io.sluice.connect.upsert.types;

import static io.sluice.connect.upsert.types.SemanticTypes.CONNECT_DATE;
import static io.sluice.connect.upsert.types.SemanticTypes.CONNECT_DECIMAL;
import static io.sluice.connect.upsert.types.SemanticTypes.CONNECT_TIME;
import static io.sluice.connect.upsert.types.SemanticTypes.CONNECT_TIMESTAMP;

import java.time.LocalDate;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * Avro rows, as the sink's direct path decodes them from Confluent-wire bytes, straight into
 * Iceberg records of one table schema: what decoding to Connect data and {@link RecordConverter}
 * give, without Connect data in between. Column by column, by name, compiled once per Avro schema.
 *
 * <p>It covers the columns CDC rows mostly have: booleans, integers, floating point, strings, and
 * Debezium's and Connect's dates and timestamps. For anything else (decimals, nested and repeated
 * columns, bytes, times, a field that is not a column), and for any value it cannot take (a null in
 * a required column, a long out of an int's range), it answers null: the caller then converts the
 * Connect data instead, which gives the same rows and the same errors as the converter path. {@code
 * AvroRowConverterTest} holds the two paths equal over random rows.
 */
public final class AvroRowConverter {
  private static final String CONNECT_NAME = "connect.name";

  /** The names by which AvroData makes other Connect values than Avro's (Date, BigDecimal). */
  private static final Set<String> CONNECT_LOGICAL_TYPES =
      Set.of(CONNECT_DATE, CONNECT_TIME, CONNECT_TIMESTAMP, CONNECT_DECIMAL);

  private final org.apache.iceberg.Schema schema;
  private final org.apache.iceberg.Schema keySchema;
  private final Record rowTemplate;
  private final Record keyTemplate;
  private final String excludedField;
  private final Map<org.apache.avro.Schema, Columns> rows = new IdentityHashMap<>();
  private final Map<org.apache.avro.Schema, Map<org.apache.avro.Schema, Columns>> lackedFromKeys =
      new IdentityHashMap<>();
  private final Map<org.apache.avro.Schema, Columns> keys = new IdentityHashMap<>();
  private final Map<org.apache.avro.Schema, Columns> keysAsRows = new IdentityHashMap<>();

  /**
   * @param excludedField a row field that is not a column (a flat row's operation), or null
   */
  AvroRowConverter(
      org.apache.iceberg.Schema schema, org.apache.iceberg.Schema keySchema, String excludedField) {
    this.schema = schema;
    this.keySchema = keySchema;
    this.rowTemplate = org.apache.iceberg.data.GenericRecord.create(schema);
    this.keyTemplate = org.apache.iceberg.data.GenericRecord.create(keySchema);
    this.excludedField = excludedField;
  }

  /**
   * The table row of {@code row}; key columns it lacks come from {@code keySource}.
   *
   * @return null when this class does not cover the row (convert the Connect data instead)
   */
  public Record row(GenericRecord row, GenericRecord keySource) {
    Columns columns =
        rows.computeIfAbsent(
            row.getSchema(), s -> Columns.of(schema, schema, s, Mode.ROW, excludedField));
    if (columns == Columns.UNCOVERED) {
      return null;
    }
    Record record = rowTemplate.copy();
    if (!columns.fill(record, row)) {
      return null;
    }
    if (columns.lacked() != null && keySource != row) {
      // A column the row lacks comes from the key when the key has it (RecordConverter.row).
      Columns fromKey =
          lackedFromKeys
              .computeIfAbsent(row.getSchema(), s -> new IdentityHashMap<>())
              .computeIfAbsent(
                  keySource.getSchema(),
                  s -> Columns.of(columns.lacked(), schema, s, Mode.WHERE_PRESENT, null));
      if (fromKey == Columns.UNCOVERED || !fromKey.fill(record, keySource)) {
        return null;
      }
    }
    return Columns.requiredSet(schema, record) ? record : null;
  }

  /**
   * The key of {@code keySource} as a record of the key schema (equality deletes, the key index).
   *
   * @return null when this class does not cover it
   */
  public Record key(GenericRecord keySource) {
    Columns columns =
        keys.computeIfAbsent(
            keySource.getSchema(), s -> Columns.of(keySchema, keySchema, s, Mode.KEY, null));
    if (columns == Columns.UNCOVERED) {
      return null;
    }
    Record record = keyTemplate.copy();
    return columns.fill(record, keySource) && columns.allSet(record) ? record : null;
  }

  /**
   * The key as a row of the table schema with only the key columns set (a delete's partition).
   *
   * @return null when this class does not cover it
   */
  public Record keyAsRow(GenericRecord keySource) {
    Columns columns =
        keysAsRows.computeIfAbsent(
            keySource.getSchema(), s -> Columns.of(keySchema, schema, s, Mode.KEY, null));
    if (columns == Columns.UNCOVERED) {
      return null;
    }
    Record record = rowTemplate.copy();
    return columns.fill(record, keySource) && columns.allSet(record) ? record : null;
  }

  /** One column's value from Avro's representation; throws when it cannot take the value. */
  @FunctionalInterface
  private interface Conversion {
    Object apply(Object avroValue);
  }

  /** What an Avro record must hold of the columns it is read for. */
  private enum Mode {
    /** A whole row: each field is a column (or the excluded field); a column may be absent. */
    ROW,
    /** A key: every column is there. */
    KEY,
    /** Those columns that are there; other fields are not looked at. */
    WHERE_PRESENT
  }

  /**
   * Some columns of a target schema read from the fields of one Avro record schema: per column its
   * position in the target record, the Avro field's position (-1: not in the record) and the
   * conversion.
   *
   * @param lacked the columns absent from the record (null when none), {@link Mode#ROW} only
   */
  private record Columns(
      int[] targets, int[] sources, Conversion[] conversions, org.apache.iceberg.Schema lacked) {
    static final Columns UNCOVERED = new Columns(new int[0], new int[0], new Conversion[0], null);

    /**
     * The columns of {@code columnsOf} (a projection of {@code target}) from {@code source}; {@link
     * #UNCOVERED} when one is of a type or form not covered here.
     */
    static Columns of(
        org.apache.iceberg.Schema columnsOf,
        org.apache.iceberg.Schema target,
        org.apache.avro.Schema source,
        Mode mode,
        String excludedField) {
      if (source.getType() != org.apache.avro.Schema.Type.RECORD) {
        return UNCOVERED;
      }
      List<Types.NestedField> columns = columnsOf.columns();
      List<Types.NestedField> targetColumns = target.columns();
      int n = columns.size();
      int[] targets = new int[n];
      int[] sources = new int[n];
      Conversion[] conversions = new Conversion[n];
      Set<Integer> lacked = new HashSet<>();
      for (int i = 0; i < n; i++) {
        Types.NestedField column = columns.get(i);
        targets[i] = targetColumns.indexOf(target.findField(column.fieldId()));
        org.apache.avro.Schema.Field field = source.getField(column.name());
        if (field == null) {
          if (mode == Mode.KEY) {
            return UNCOVERED;
          }
          lacked.add(column.fieldId());
          sources[i] = -1;
          continue;
        }
        Conversion conversion = conversion(column, field.schema());
        if (conversion == null) {
          return UNCOVERED;
        }
        sources[i] = field.pos();
        conversions[i] = conversion;
      }
      if (mode == Mode.ROW) {
        for (org.apache.avro.Schema.Field field : source.getFields()) {
          if (!field.name().equals(excludedField) && columnsOf.findField(field.name()) == null) {
            // The converter path rejects the record, naming the field: it decides.
            return UNCOVERED;
          }
        }
      }
      return new Columns(
          targets,
          sources,
          conversions,
          mode == Mode.ROW && !lacked.isEmpty() ? TypeUtil.select(columnsOf, lacked) : null);
    }

    /** Sets the columns of {@code into}; false when a value cannot be taken. */
    boolean fill(Record into, GenericRecord record) {
      try {
        for (int i = 0; i < sources.length; i++) {
          if (sources[i] >= 0) {
            Object raw = record.get(sources[i]);
            into.set(targets[i], raw == null ? null : conversions[i].apply(raw));
          }
        }
        return true;
      } catch (RuntimeException e) {
        return false;
      }
    }

    /** Whether every column read here has a value in {@code record} (a key is never null). */
    boolean allSet(Record record) {
      for (int target : targets) {
        if (record.get(target) == null) {
          return false;
        }
      }
      return true;
    }

    /** Whether every required column of {@code schema} has a value in {@code record}. */
    static boolean requiredSet(org.apache.iceberg.Schema schema, Record record) {
      List<Types.NestedField> all = schema.columns();
      for (int i = 0; i < all.size(); i++) {
        if (all.get(i).isRequired() && record.get(i) == null) {
          return false;
        }
      }
      return true;
    }
  }

  /**
   * How a column takes values of the Avro {@code field} schema, as {@link RecordConverter} takes
   * the Connect values Apicurio's {@code AvroData} makes of them; null when not covered here.
   */
  private static Conversion conversion(Types.NestedField column, org.apache.avro.Schema field) {
    org.apache.avro.Schema schema = nonNull(field);
    if (schema == null) {
      return null;
    }
    String name = schema.getProp(CONNECT_NAME);
    // AvroData gives Avro's own value (a String for a Utf8) but for Connect's logical types.
    boolean keepsValue =
        schema.getLogicalType() == null && (name == null || !CONNECT_LOGICAL_TYPES.contains(name));
    org.apache.avro.Schema.Type type = schema.getType();
    String path = column.name();
    switch (column.type().typeId()) {
      case BOOLEAN:
        return type == org.apache.avro.Schema.Type.BOOLEAN && keepsValue ? v -> (Boolean) v : null;
      case INTEGER:
        return type == org.apache.avro.Schema.Type.INT && keepsValue ? v -> (Integer) v : null;
      case LONG:
        if (!keepsValue) {
          return null;
        }
        return switch (type) {
          case INT -> v -> (long) (Integer) v;
          case LONG -> v -> (Long) v;
          default -> null;
        };
      case FLOAT:
        if (!keepsValue) {
          return null;
        }
        return switch (type) {
          case FLOAT -> v -> (Float) v;
          case INT -> v -> (float) (Integer) v;
          case LONG -> v -> (float) (Long) v;
          default -> null;
        };
      case DOUBLE:
        if (!keepsValue) {
          return null;
        }
        return switch (type) {
          case DOUBLE -> v -> (Double) v;
          case FLOAT -> v -> (double) (Float) v;
          case INT -> v -> (double) (Integer) v;
          case LONG -> v -> (double) (Long) v;
          default -> null;
        };
      case STRING:
        return type == org.apache.avro.Schema.Type.STRING && keepsValue ? Object::toString : null;
      case DATE:
        if (type == org.apache.avro.Schema.Type.INT && (keepsValue || CONNECT_DATE.equals(name))) {
          return v -> LocalDate.ofEpochDay((Integer) v);
        }
        return null;
      case TIMESTAMP:
        Types.TimestampType timestamp = (Types.TimestampType) column.type();
        if (type == org.apache.avro.Schema.Type.LONG
            && (keepsValue || CONNECT_TIMESTAMP.equals(name))) {
          return v -> RecordConverter.toTimestamp(timestamp, name, v, path);
        }
        if (type == org.apache.avro.Schema.Type.STRING && keepsValue) {
          return v -> RecordConverter.toTimestamp(timestamp, name, v.toString(), path);
        }
        return null;
      default:
        return null;
    }
  }

  /** The schema of a field's values: the branch of an optional union; null for other unions. */
  private static org.apache.avro.Schema nonNull(org.apache.avro.Schema schema) {
    if (schema.getType() != org.apache.avro.Schema.Type.UNION) {
      return schema;
    }
    List<org.apache.avro.Schema> types = schema.getTypes();
    if (types.size() != 2) {
      return null;
    }
    if (types.get(0).getType() == org.apache.avro.Schema.Type.NULL) {
      return types.get(1).getType() == org.apache.avro.Schema.Type.UNION ? null : types.get(1);
    }
    return types.get(1).getType() == org.apache.avro.Schema.Type.NULL ? types.get(0) : null;
  }
}
