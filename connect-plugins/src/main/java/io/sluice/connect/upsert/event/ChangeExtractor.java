package io.sluice.connect.upsert.event;

import io.sluice.connect.upsert.config.InputFormat;
import io.sluice.connect.upsert.error.RecordRejectedException;
import io.sluice.connect.upsert.error.SinkErrorCode;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * Reads a {@link ChangeEvent} out of a sink record: a Debezium envelope (c, r, u upsert {@code
 * after}; d deletes the key) or a flat row with an operation field. Tombstones (null values) give
 * nothing. The key comes from {@code primary.key.fields} of the row ({@code before} for a delete)
 * when configured, else from the record key, which must then be a struct.
 */
public final class ChangeExtractor {
  private static final int MAX_CACHED_KEY_SCHEMAS = 256;

  private final InputFormat format;
  private final String opField;
  private final List<String> keyFields;
  private final Map<Schema, Schema> keySchemas = new IdentityHashMap<>();

  /**
   * @param opField the operation field of flat rows
   * @param keyFields primary-key fields read from the row; empty to use the record key
   */
  public ChangeExtractor(InputFormat format, String opField, List<String> keyFields) {
    this.format = format;
    this.opField = opField;
    this.keyFields = List.copyOf(keyFields);
  }

  /** The field of flat rows that is not a column (null for Debezium input). */
  public String excludedField() {
    return format == InputFormat.FLAT ? opField : null;
  }

  /**
   * The change a record carries; empty for a tombstone.
   *
   * @throws RecordRejectedException naming topic, partition and offset when this record is not a
   *     change ({@link SinkErrorCode})
   * @throws DataException when no record could pass (a topic-renaming transform, a key field the
   *     schema lacks, no usable key)
   */
  public Optional<ChangeEvent> extract(SinkRecord record) {
    if (!record.topic().equals(record.originalTopic())) {
      throw fail(
          record,
          "a transform renamed its topic "
              + record.originalTopic()
              + " to "
              + record.topic()
              + "; tables are found by source topic, so topic-renaming transforms are not"
              + " supported (use table.name.format)");
    }
    if (record.value() == null) {
      return Optional.empty();
    }
    if (!(record.value() instanceof Struct value)) {
      throw reject(
          record,
          null,
          "value is a " + record.value().getClass().getSimpleName() + ", not a struct");
    }
    return Optional.of(
        format == InputFormat.DEBEZIUM ? debezium(record, value) : flat(record, value));
  }

  private ChangeEvent debezium(SinkRecord record, Struct envelope) {
    if (envelope.schema().field("op") == null) {
      throw reject(record, "op", "value has no 'op' field: not a Debezium envelope");
    }
    String op = envelope.getString("op");
    SourceOp sourceOp =
        switch (op == null ? "" : op) {
          case "c" -> SourceOp.CREATE;
          case "r" -> SourceOp.READ;
          case "u" -> SourceOp.UPDATE;
          case "d" -> SourceOp.DELETE;
          default ->
              throw reject(
                  record,
                  "op",
                  "Debezium op '"
                      + op
                      + "' is not supported (c, r, u, d; truncate is not applied)");
        };
    long time = sourceTime(envelope);
    if (sourceOp == SourceOp.DELETE) {
      Struct before = struct(record, envelope, "before");
      return event(record, sourceOp, deleteKey(record, before), null, time);
    }
    Struct after = struct(record, envelope, "after");
    if (after == null) {
      throw reject(record, "after", "op '" + op + "' without an 'after' row");
    }
    return event(record, sourceOp, key(record, after), after, time);
  }

  /**
   * When the change happened at the source: {@code source.ts_ms}, else the envelope's {@code ts_ms}
   * (when Debezium processed it), else {@link ChangeEvent#NO_TIME}.
   */
  private static long sourceTime(Struct envelope) {
    Field source = envelope.schema().field("source");
    if (source != null && envelope.get(source) instanceof Struct sourceStruct) {
      long time = int64(sourceStruct, "ts_ms");
      if (time != ChangeEvent.NO_TIME) {
        return time;
      }
    }
    return int64(envelope, "ts_ms");
  }

  private static long int64(Struct struct, String name) {
    Field field = struct.schema().field(name);
    if (field == null || field.schema().type() != Schema.Type.INT64) {
      return ChangeEvent.NO_TIME;
    }
    Object value = struct.get(field);
    return value instanceof Long time ? time : ChangeEvent.NO_TIME;
  }

  private ChangeEvent flat(SinkRecord record, Struct row) {
    Field field = row.schema().field(opField);
    Object op = field == null ? null : row.get(field);
    String normalized = op == null ? "u" : op.toString().trim().toLowerCase(Locale.ROOT);
    SourceOp sourceOp =
        switch (normalized) {
          case "c", "insert" -> SourceOp.CREATE;
          case "r" -> SourceOp.READ;
          case "u", "update", "upsert" -> SourceOp.UPDATE;
          case "d", "delete" -> SourceOp.DELETE;
          default ->
              throw reject(
                  record, opField, "operation '" + op + "' in field " + opField + " is unknown");
        };
    return sourceOp == SourceOp.DELETE
        ? event(record, sourceOp, deleteKey(record, row), null, ChangeEvent.NO_TIME)
        : event(record, sourceOp, key(record, row), row, ChangeEvent.NO_TIME);
  }

  private Struct key(SinkRecord record, Struct row) {
    if (!keyFields.isEmpty()) {
      return project(record, row, "row");
    }
    return recordKey(record);
  }

  private Struct deleteKey(SinkRecord record, Struct before) {
    if (keyFields.isEmpty()) {
      return recordKey(record);
    }
    if (before != null) {
      return project(record, before, "before image");
    }
    if (record.key() instanceof Struct key) {
      return project(record, key, "record key");
    }
    throw reject(record, "before", "a delete with neither a 'before' image nor a struct key");
  }

  private Struct recordKey(SinkRecord record) {
    if (record.key() instanceof Struct key) {
      return key;
    }
    throw fail(
        record,
        record.key() == null
            ? "record has no key and primary.key.fields is empty: set primary.key.fields"
            : "record key is not a struct and primary.key.fields is empty: set primary.key.fields");
  }

  private Struct project(SinkRecord record, Struct source, String what) {
    Schema keySchema = keySchema(record, source.schema(), what);
    Struct key = new Struct(keySchema);
    for (Field field : keySchema.fields()) {
      Object value = source.get(field.name());
      if (value == null) {
        throw new RecordRejectedException(
            SinkErrorCode.SINK_NULL_KEY_FIELD,
            field.name(),
            null,
            where(record) + "primary-key field " + field.name() + " is null in the " + what);
      }
      key.put(field, value);
    }
    return key;
  }

  /** The key schema of {@code primary.key.fields} in {@code source} (cached by its identity). */
  Schema keySchema(SinkRecord record, Schema source, String what) {
    synchronized (keySchemas) {
      Schema cached = keySchemas.get(source);
      if (cached != null) {
        return cached;
      }
      SchemaBuilder builder = SchemaBuilder.struct();
      for (String name : keyFields) {
        Field field = source.field(name);
        if (field == null) {
          throw fail(record, "primary-key field " + name + " is missing from the " + what);
        }
        builder.field(name, required(field.schema()));
      }
      if (keySchemas.size() >= MAX_CACHED_KEY_SCHEMAS) {
        keySchemas.clear();
      }
      Schema schema = builder.build();
      keySchemas.put(source, schema);
      return schema;
    }
  }

  /** The same type without optionality: key values are never null. */
  private static Schema required(Schema schema) {
    if (!schema.isOptional() || !schema.type().isPrimitive()) {
      return schema;
    }
    SchemaBuilder builder =
        new SchemaBuilder(schema.type()).name(schema.name()).version(schema.version());
    if (schema.parameters() != null) {
      builder.parameters(schema.parameters());
    }
    return builder.build();
  }

  private static Struct struct(SinkRecord record, Struct envelope, String name) {
    Field field = envelope.schema().field(name);
    if (field == null) {
      return null;
    }
    Object value = envelope.get(field);
    if (value != null && !(value instanceof Struct)) {
      throw reject(record, name, "'" + name + "' is not a struct");
    }
    return (Struct) value;
  }

  private static ChangeEvent event(
      SinkRecord record, SourceOp op, Struct key, Struct row, long sourceTimeMs) {
    return new ChangeEvent(
        record.topic(), record.kafkaPartition(), record.kafkaOffset(), op, key, row, sourceTimeMs);
  }

  /** A problem of the record or the configuration that no record can pass: fails the task. */
  private static DataException fail(SinkRecord record, String problem) {
    return new DataException(where(record) + problem);
  }

  /** A problem of this one record ({@link SinkErrorCode#SINK_CONVERSION_FAILED}). */
  private static RecordRejectedException reject(SinkRecord record, String field, String problem) {
    return new RecordRejectedException(
        SinkErrorCode.SINK_CONVERSION_FAILED, field, null, where(record) + problem);
  }

  private static String where(SinkRecord record) {
    return "record at topic "
        + record.topic()
        + " partition "
        + record.kafkaPartition()
        + " offset "
        + record.kafkaOffset()
        + " is not a change: ";
  }
}
