package io.sluice.bench.sink;

import io.sluice.connect.upsert.event.SourceOp;
import io.sluice.connect.upsert.write.BatchWriter;
import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.apache.avro.LogicalType;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.DateTimeUtil;

/**
 * Debezium envelopes, decoded to Avro records, as rows of an Iceberg table: what the upsert sink's
 * converter and record conversion do, without Connect data in between. c, r and u upsert {@code
 * after}; d deletes the key; the key columns come from the record key (the row's own value where it
 * has the column). Column by column, by name, compiled once per Avro schema.
 *
 * <p>It covers the column types of the benchmark's rows and their like: integers, strings,
 * booleans, floating point, and Debezium's or Avro's timestamps and dates. Any other column type is
 * refused when its schema is first seen, naming the column: this is the benchmark's limit, not a
 * second sink.
 */
final class EnvelopeRows {
  private static final String CONNECT_NAME = "connect.name";

  /** One change: what happened at the source and the rows to write (row null for a delete). */
  record Change(SourceOp op, BatchWriter.Converted rows) {}

  private final Schema schema;
  private final Schema keySchema;
  private final Record rowTemplate;
  private final Record keyTemplate;
  private final Map<org.apache.avro.Schema, Envelope> envelopes = new IdentityHashMap<>();
  private final Map<org.apache.avro.Schema, Columns> rows = new IdentityHashMap<>();
  private final Map<org.apache.avro.Schema, Columns> keys = new IdentityHashMap<>();
  private final Map<org.apache.avro.Schema, Columns> keysAsRows = new IdentityHashMap<>();

  /**
   * @param schema the table's schema; its identifier fields are the key
   */
  EnvelopeRows(Schema schema) {
    this.schema = schema;
    this.keySchema = TypeUtil.select(schema, schema.identifierFieldIds());
    this.rowTemplate = GenericRecord.create(schema);
    this.keyTemplate = GenericRecord.create(keySchema);
  }

  /** The table's key columns, in the schema the sink's key index and writers take. */
  Schema keySchema() {
    return keySchema;
  }

  /**
   * The change {@code envelope} carries, keyed by {@code key}; null for a tombstone (a null
   * envelope).
   *
   * @throws IllegalStateException when the envelope is not a change this table can take
   */
  Change change(
      org.apache.avro.generic.GenericRecord key, org.apache.avro.generic.GenericRecord envelope) {
    if (envelope == null) {
      return null;
    }
    Envelope fields = envelopes.computeIfAbsent(envelope.getSchema(), Envelope::of);
    CharSequence op = (CharSequence) envelope.get(fields.op());
    SourceOp sourceOp = sourceOp(op);
    Record keyRecord =
        keys.computeIfAbsent(key.getSchema(), s -> Columns.all(keySchema, keySchema, s, false))
            .fill(keyTemplate.copy(), key);
    if (sourceOp == SourceOp.DELETE) {
      return new Change(
          sourceOp, new BatchWriter.Converted(null, keyRecord, keyAsRow(key, rowTemplate.copy())));
    }
    org.apache.avro.generic.GenericRecord after =
        (org.apache.avro.generic.GenericRecord) envelope.get(fields.after());
    if (after == null) {
      throw new IllegalStateException("op '" + op + "' without an 'after' row");
    }
    Columns columns =
        rows.computeIfAbsent(after.getSchema(), s -> Columns.all(schema, schema, s, true));
    Record row = columns.fill(rowTemplate.copy(), after);
    if (columns.lacksKeyColumns()) {
      keyAsRow(key, row);
    }
    return new Change(sourceOp, new BatchWriter.Converted(row, keyRecord, null));
  }

  /** Sets the key columns of {@code row} from {@code key}. */
  private Record keyAsRow(org.apache.avro.generic.GenericRecord key, Record row) {
    return keysAsRows
        .computeIfAbsent(key.getSchema(), s -> Columns.all(keySchema, schema, s, false))
        .fill(row, key);
  }

  private static SourceOp sourceOp(CharSequence op) {
    if (op != null && op.length() == 1) {
      switch (op.charAt(0)) {
        case 'c':
          return SourceOp.CREATE;
        case 'r':
          return SourceOp.READ;
        case 'u':
          return SourceOp.UPDATE;
        case 'd':
          return SourceOp.DELETE;
        default:
          break;
      }
    }
    throw new IllegalStateException("Debezium op '" + op + "' is not supported (c, r, u, d)");
  }

  /** Where an envelope schema keeps {@code op} and {@code after}. */
  private record Envelope(int op, int after) {
    static Envelope of(org.apache.avro.Schema envelope) {
      org.apache.avro.Schema.Field op = envelope.getField("op");
      org.apache.avro.Schema.Field after = envelope.getField("after");
      if (op == null || after == null) {
        throw new IllegalStateException(
            "schema " + envelope.getFullName() + " is not a Debezium envelope (no op or after)");
      }
      return new Envelope(op.pos(), after.pos());
    }
  }

  /**
   * Some columns of a target schema, read from the fields of one Avro record schema: per column its
   * position in the target record, the Avro field's position and the conversion.
   */
  private record Columns(
      String[] names,
      boolean[] required,
      int[] targets,
      int[] sources,
      Function<Object, Object>[] conversions,
      boolean lacksKeyColumns) {

    /**
     * The columns of {@code columnsOf} (a projection of {@code target}) read from {@code source}.
     *
     * @param rowOfTable whether {@code source} is a whole row: every field must be a column, and a
     *     key column it lacks is taken from the key instead (any other column it lacks is null)
     */
    @SuppressWarnings("unchecked")
    static Columns all(
        Schema columnsOf, Schema target, org.apache.avro.Schema source, boolean rowOfTable) {
      List<Types.NestedField> columns = columnsOf.columns();
      int n = columns.size();
      String[] names = new String[n];
      boolean[] required = new boolean[n];
      int[] targets = new int[n];
      int[] sources = new int[n];
      Function<Object, Object>[] conversions = new Function[n];
      boolean lacksKey = false;
      List<Types.NestedField> targetColumns = target.columns();
      for (int i = 0; i < n; i++) {
        Types.NestedField column = columns.get(i);
        names[i] = column.name();
        targets[i] = targetColumns.indexOf(target.findField(column.fieldId()));
        org.apache.avro.Schema.Field field = source.getField(column.name());
        boolean key = target.identifierFieldIds().contains(column.fieldId());
        if (field == null) {
          if (!rowOfTable || (column.isRequired() && !key)) {
            throw new IllegalStateException(
                "Avro schema " + source.getFullName() + " has no field " + column.name());
          }
          lacksKey |= key;
          sources[i] = -1;
        } else {
          sources[i] = field.pos();
          conversions[i] = conversion(column, field.schema());
        }
        required[i] = column.isRequired() && field != null;
      }
      if (rowOfTable) {
        for (org.apache.avro.Schema.Field field : source.getFields()) {
          if (columnsOf.findField(field.name()) == null) {
            throw new IllegalStateException(
                "field " + field.name() + " is not a column of the table");
          }
        }
      }
      return new Columns(names, required, targets, sources, conversions, lacksKey);
    }

    /** Sets the columns of {@code into} from {@code record}. */
    Record fill(Record into, org.apache.avro.generic.GenericRecord record) {
      for (int i = 0; i < sources.length; i++) {
        if (sources[i] < 0) {
          continue;
        }
        Object raw = record.get(sources[i]);
        if (raw == null) {
          if (required[i]) {
            throw new IllegalStateException(
                "required column " + names[i] + " is null in the record");
          }
          into.set(targets[i], null);
        } else {
          into.set(targets[i], conversions[i].apply(raw));
        }
      }
      return into;
    }
  }

  /** How a value of Avro schema {@code avro} becomes one of {@code column}'s Iceberg type. */
  private static Function<Object, Object> conversion(
      Types.NestedField column, org.apache.avro.Schema avro) {
    org.apache.avro.Schema value = nonNull(avro);
    Type type = column.type();
    String connectName = value.getProp(CONNECT_NAME);
    LogicalType logical = value.getLogicalType();
    String logicalName = logical == null ? null : logical.getName();
    Function<Object, Object> conversion =
        switch (type.typeId()) {
          case LONG -> v -> ((Number) v).longValue();
          case INTEGER -> v -> ((Number) v).intValue();
          case DOUBLE -> v -> ((Number) v).doubleValue();
          case FLOAT -> v -> ((Number) v).floatValue();
          case BOOLEAN -> v -> v;
          case STRING -> Object::toString;
          case DATE ->
              value.getType() == org.apache.avro.Schema.Type.INT
                  ? v -> LocalDate.ofEpochDay((Integer) v)
                  : null;
          case TIMESTAMP -> timestamp((Types.TimestampType) type, value, connectName, logicalName);
          default -> null;
        };
    if (conversion == null) {
      throw new UnsupportedOperationException(
          "the limit cannot read column "
              + column.name()
              + " of type "
              + type
              + " from Avro "
              + value
              + ": it takes integers, strings, booleans, floating point, dates and timestamps");
    }
    return conversion;
  }

  private static Function<Object, Object> timestamp(
      Types.TimestampType type, org.apache.avro.Schema value, String connectName, String logical) {
    if (type.shouldAdjustToUTC()) {
      return value.getType() == org.apache.avro.Schema.Type.STRING
          ? v -> OffsetDateTime.parse(v.toString())
          : null;
    }
    if (value.getType() != org.apache.avro.Schema.Type.LONG) {
      return null;
    }
    String unit = connectName != null ? connectName : logical == null ? "" : logical;
    return switch (unit) {
      case "io.debezium.time.Timestamp",
          "org.apache.kafka.connect.data.Timestamp",
          "timestamp-millis",
          "local-timestamp-millis" ->
          v -> DateTimeUtil.timestampFromMicros((Long) v * 1000);
      case "io.debezium.time.MicroTimestamp", "timestamp-micros", "local-timestamp-micros" ->
          v -> DateTimeUtil.timestampFromMicros((Long) v);
      case "io.debezium.time.NanoTimestamp" ->
          v -> DateTimeUtil.timestampFromMicros(Math.floorDiv((Long) v, 1000L));
      default -> null;
    };
  }

  private static org.apache.avro.Schema nonNull(org.apache.avro.Schema schema) {
    if (schema.getType() != org.apache.avro.Schema.Type.UNION) {
      return schema;
    }
    List<org.apache.avro.Schema> types =
        schema.getTypes().stream()
            .filter(t -> t.getType() != org.apache.avro.Schema.Type.NULL)
            .toList();
    if (types.size() != 1) {
      throw new UnsupportedOperationException("union " + schema + " is not an optional value");
    }
    return types.get(0);
  }
}
