package io.sluice.connect.upsert.event;

import io.sluice.connect.upsert.error.RecordRejectedException;
import io.sluice.connect.upsert.error.SinkErrorCode;
import io.sluice.schema.connect.ConnectAvroCodec;
import io.sluice.schema.registry.RegistryException;
import io.sluice.schema.registry.RegistryUnavailableException;
import io.sluice.schema.wire.WireFormat;
import io.sluice.schema.wire.WireFormatException;
import java.util.Collection;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.errors.RetriableException;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The sink's direct path: reads a {@link ChangeEvent} out of a record whose key and value are the
 * Confluent-wire Avro bytes themselves (the connector configured with {@code ByteArrayConverter}),
 * decoding them with the registry's writer schemas and keeping the rows as Avro data ({@link
 * AvroChange}): no Connect data per record.
 *
 * <p>It reads what Debezium envelopes regularly are (c, r, u with {@code after}; d with the key).
 * Anything else (another value shape, an unknown op, a missing or null key field, flat rows) is
 * read as the converter path reads it, by {@link ChangeExtractor} on the Connect data of the same
 * bytes, so the two paths give the same events and the same errors. Bytes that are not
 * Confluent-wire Avro, or name a schema the registry does not have, are the record's own fault
 * ({@link SinkErrorCode#SINK_CONVERSION_FAILED}, quarantined with its bytes); an unreachable
 * registry is a {@link RetriableException}.
 */
public final class WireChangeExtractor {
  private final ChangeExtractor connect;
  private final ConnectAvroCodec codec;
  private final boolean debezium;
  private final List<String> keyFields;
  private final Map<org.apache.avro.Schema, Envelope> envelopes = new IdentityHashMap<>();

  /** By writer schema id: readers of {@link EnvelopeProjection}'s reader schemas. */
  private final Map<Integer, GenericDatumReader<Object>> projected = new HashMap<>();

  private final BiFunction<Integer, org.apache.avro.Schema, GenericDatumReader<Object>>
      projectedReaders = this::projectedReader;

  /** Record keys' Connect schemas by writer schema: Apicurio's cache of them is synchronized. */
  private final Map<org.apache.avro.Schema, Schema> keySchemas = new IdentityHashMap<>();

  /**
   * @param connect how the converter path reads the same records (its format and key fields)
   * @param codec decodes the wire bytes through the registry
   */
  public WireChangeExtractor(
      ChangeExtractor connect, ConnectAvroCodec codec, boolean debezium, List<String> keyFields) {
    this.connect = connect;
    this.codec = codec;
    this.debezium = debezium;
    this.keyFields = List.copyOf(keyFields);
  }

  /** Whether {@code record} is for this path: its value is bytes (a tombstone is no change). */
  public static boolean takes(SinkRecord record) {
    return record.value() instanceof byte[];
  }

  /**
   * Resolves the writer schemas of {@code records} first, so that a registry outage fails the whole
   * batch ({@link RetriableException}: Connect offers it again) before any of it is taken.
   */
  public void resolveSchemas(Collection<SinkRecord> records) {
    for (SinkRecord record : records) {
      if (record.value() instanceof byte[] value && WireFormat.hasHeader(value)) {
        resolve(record, value);
      }
      if (keyFields.isEmpty() && record.key() instanceof byte[] key && WireFormat.hasHeader(key)) {
        resolve(record, key);
      }
    }
  }

  private void resolve(SinkRecord record, byte[] bytes) {
    try {
      codec.writerSchema(WireFormat.schemaId(bytes));
    } catch (RegistryUnavailableException e) {
      throw unavailable(record, bytes, e);
    } catch (RegistryException e) {
      // An unknown id: the record's own fault, found again when it is read.
    }
  }

  /**
   * The change {@code record} carries; empty for a tombstone.
   *
   * @throws RecordRejectedException naming topic, partition and offset when this record is not a
   *     change (bytes that do not decode among them)
   * @throws DataException when no record could pass (as {@link ChangeExtractor#extract})
   * @throws RetriableException when the registry cannot be reached
   */
  public Optional<ChangeEvent> extract(SinkRecord record) {
    if (!record.topic().equals(record.originalTopic())
        || record.value() == null
        || !(record.value() instanceof byte[] bytes)) {
      return connect.extract(record);
    }
    if (!debezium) {
      return connect.extract(asConnect(record, decode(record, bytes, "value")));
    }
    ConnectAvroCodec.Decoded value = decode(record, bytes, "value", projectedReaders);
    if (!(value.value() instanceof GenericRecord envelope)) {
      // Not a record: its own reader schema, so the value is of the writer schema.
      return connect.extract(asConnect(record, value));
    }
    Supplier<ChangeEvent> reference = reference(record, bytes);
    Envelope fields =
        envelopes.computeIfAbsent(
            envelope.getSchema(), reader -> envelope(reader, value.writerSchema()));
    ChangeEvent event = fields == null ? null : read(record, envelope, fields, reference);
    return Optional.of(event != null ? event : reference.get());
  }

  /**
   * The change of {@code record} read through Connect data, decoded again when asked. Held until
   * the commit for every record of the batch, it keeps the bytes and coordinates only: the decoded
   * envelope (before image, source block) or the worker's record (its consumer record, headers and
   * processing context) would about double what a pending record keeps alive for the collector.
   */
  private Supplier<ChangeEvent> reference(SinkRecord record, byte[] bytes) {
    String topic = record.topic();
    int partition = record.kafkaPartition();
    Schema keySchema = record.keySchema();
    Object key = record.key();
    Schema valueSchema = record.valueSchema();
    long offset = record.kafkaOffset();
    Long timestamp = record.timestamp();
    TimestampType timestampType = record.timestampType();
    return () -> {
      SinkRecord again =
          new SinkRecord(
              topic,
              partition,
              keySchema,
              key,
              valueSchema,
              bytes,
              offset,
              timestamp,
              timestampType);
      return connect.extract(asConnect(again, decode(again, bytes, "value"))).orElseThrow();
    };
  }

  /** The change of a regular envelope; null when the reference path must read it. */
  private ChangeEvent read(
      SinkRecord record, GenericRecord envelope, Envelope fields, Supplier<ChangeEvent> reference) {
    SourceOp op = sourceOp(envelope.get(fields.op()));
    if (op == null) {
      return null;
    }
    long time = sourceTime(envelope, fields);
    if (op == SourceOp.DELETE) {
      Object before = fields.before() < 0 ? null : envelope.get(fields.before());
      if (before != null && !(before instanceof GenericRecord)) {
        return null;
      }
      Key key =
          keyFields.isEmpty() || before == null
              ? recordKey(record)
              : projected(record, (GenericRecord) before, fields.beforeSchema(), "before image");
      return key == null ? null : event(record, op, null, null, key, time, reference);
    }
    if (!(envelope.get(fields.after()) instanceof GenericRecord after)) {
      return null;
    }
    Key key =
        keyFields.isEmpty()
            ? recordKey(record)
            : projected(record, after, fields.afterSchema(), "row");
    return key == null
        ? null
        : event(record, op, after, fields.afterSchema(), key, time, reference);
  }

  private static ChangeEvent event(
      SinkRecord record,
      SourceOp op,
      GenericRecord row,
      Schema rowSchema,
      Key key,
      long time,
      Supplier<ChangeEvent> reference) {
    return new ChangeEvent(
        record.topic(),
        record.kafkaPartition(),
        record.kafkaOffset(),
        op,
        null,
        null,
        time,
        new AvroChange(row, rowSchema, key.source(), key.schema(), reference));
  }

  /** The record that holds the key's fields and the key's Connect schema. */
  private record Key(GenericRecord source, Schema schema) {}

  /** The record key as the key; null when it is not a record (the reference path decides). */
  private Key recordKey(SinkRecord record) {
    if (!(record.key() instanceof byte[] bytes)) {
      return null;
    }
    ConnectAvroCodec.Decoded key = decode(record, bytes, "key");
    if (!(key.value() instanceof GenericRecord source)) {
      return null;
    }
    Schema schema = keySchemas.computeIfAbsent(key.writerSchema(), codec::connectSchema);
    if (!keyFields.isEmpty()) {
      return projected(record, source, schema, "record key");
    }
    return schema.type() == Schema.Type.STRUCT ? new Key(source, schema) : null;
  }

  /**
   * The {@code primary.key.fields} of {@code source}; null when one is null there (the reference
   * path rejects the record, naming it).
   */
  private Key projected(SinkRecord record, GenericRecord source, Schema sourceSchema, String what) {
    Schema schema = connect.keySchema(record, sourceSchema, what);
    for (Field field : schema.fields()) {
      if (source.get(field.name()) == null) {
        return null;
      }
    }
    return new Key(source, schema);
  }

  private static SourceOp sourceOp(Object op) {
    if (op instanceof CharSequence text && text.length() == 1) {
      return switch (text.charAt(0)) {
        case 'c' -> SourceOp.CREATE;
        case 'r' -> SourceOp.READ;
        case 'u' -> SourceOp.UPDATE;
        case 'd' -> SourceOp.DELETE;
        default -> null;
      };
    }
    return null;
  }

  /** {@code source.ts_ms}, else the envelope's {@code ts_ms}, as {@link ChangeExtractor} reads. */
  private static long sourceTime(GenericRecord envelope, Envelope fields) {
    if (fields.source() >= 0 && envelope.get(fields.source()) instanceof GenericRecord source) {
      org.apache.avro.Schema.Field ts = source.getSchema().getField("ts_ms");
      if (ts != null && isLong(ts.schema()) && source.get(ts.pos()) instanceof Long time) {
        return time;
      }
    }
    if (fields.ts() >= 0 && envelope.get(fields.ts()) instanceof Long time) {
      return time;
    }
    return ChangeEvent.NO_TIME;
  }

  /** Where a Debezium envelope schema keeps its fields, and its rows' Connect schemas. */
  private record Envelope(
      int op, int before, int after, int source, int ts, Schema beforeSchema, Schema afterSchema) {}

  /**
   * Where the fields are in values of {@code schema} (the reader schema), with the rows' Connect
   * schemas of {@code writerSchema}; null when it is not a regular envelope (the reference path
   * reads it).
   */
  private Envelope envelope(org.apache.avro.Schema schema, org.apache.avro.Schema writerSchema) {
    org.apache.avro.Schema.Field op = schema.getField("op");
    org.apache.avro.Schema.Field after = schema.getField("after");
    if (op == null || after == null) {
      return null;
    }
    Schema connectSchema = codec.connectSchema(writerSchema);
    if (connectSchema.type() != Schema.Type.STRUCT) {
      return null;
    }
    Field connectBefore = connectSchema.field("before");
    Field connectAfter = connectSchema.field("after");
    org.apache.avro.Schema.Field before = schema.getField("before");
    org.apache.avro.Schema.Field source = schema.getField("source");
    org.apache.avro.Schema.Field ts = schema.getField("ts_ms");
    return new Envelope(
        op.pos(),
        before == null ? -1 : before.pos(),
        after.pos(),
        source == null ? -1 : source.pos(),
        ts != null && isLong(ts.schema()) ? ts.pos() : -1,
        connectBefore == null ? null : connectBefore.schema(),
        connectAfter.schema());
  }

  /** A long, or an optional one, without a logical type (Connect's INT64). */
  private static boolean isLong(org.apache.avro.Schema schema) {
    if (schema.getType() == org.apache.avro.Schema.Type.UNION) {
      return schema.getTypes().size() == 2
          && schema.getTypes().stream()
              .anyMatch(t -> t.getType() == org.apache.avro.Schema.Type.NULL)
          && schema.getTypes().stream().anyMatch(WireChangeExtractor::isLong);
    }
    return schema.getType() == org.apache.avro.Schema.Type.LONG && schema.getLogicalType() == null;
  }

  /** The envelope's reader for writer schema {@code id}: {@link EnvelopeProjection}'s. */
  private GenericDatumReader<Object> projectedReader(int id, org.apache.avro.Schema writerSchema) {
    return projected.computeIfAbsent(
        id,
        i ->
            new GenericDatumReader<>(
                writerSchema, EnvelopeProjection.readerSchema(writerSchema, !keyFields.isEmpty())));
  }

  private ConnectAvroCodec.Decoded decode(SinkRecord record, byte[] bytes, String part) {
    return decode(record, bytes, part, null);
  }

  /**
   * @param readers the reader for a writer schema; null for the codec's (the writer schema's own)
   */
  private ConnectAvroCodec.Decoded decode(
      SinkRecord record,
      byte[] bytes,
      String part,
      BiFunction<Integer, org.apache.avro.Schema, GenericDatumReader<Object>> readers) {
    if (!WireFormat.hasHeader(bytes)) {
      throw rejected(
          record,
          "the "
              + part
              + " is not Confluent-wire Avro ("
              + bytes.length
              + " bytes, no magic byte 0 + schema id)",
          null);
    }
    try {
      return readers == null
          ? codec.decodeAvro(record.topic(), bytes)
          : codec.decodeAvro(record.topic(), bytes, readers);
    } catch (RegistryUnavailableException e) {
      throw unavailable(record, bytes, e);
    } catch (RegistryException e) {
      throw rejected(
          record,
          "the registry has no schema id "
              + WireFormat.schemaId(bytes)
              + " of the "
              + part
              + ": "
              + e.getMessage(),
          e);
    } catch (DataException | WireFormatException e) {
      throw rejected(record, "the " + part + " does not decode: " + e.getMessage(), e);
    }
  }

  /** The same record with Connect data, as the converter path sees it. */
  private SinkRecord asConnect(SinkRecord record, ConnectAvroCodec.Decoded value) {
    SchemaAndValue key = SchemaAndValue.NULL;
    if (record.key() instanceof byte[] bytes && WireFormat.hasHeader(bytes)) {
      try {
        key = codec.decode(record.topic(), bytes);
      } catch (RuntimeException e) {
        // A key that does not decode stays unread, as primary.key.fields does not need it.
      }
    }
    SchemaAndValue connectValue = codec.toConnect(value);
    return record.newRecord(
        record.topic(),
        record.kafkaPartition(),
        key.schema(),
        key.value(),
        connectValue.schema(),
        connectValue.value(),
        record.timestamp());
  }

  private static RetriableException unavailable(
      SinkRecord record, byte[] bytes, RuntimeException cause) {
    return new RetriableException(
        "schema registry unavailable while resolving schema id "
            + WireFormat.schemaId(bytes)
            + " of the record at topic "
            + record.topic()
            + " partition "
            + record.kafkaPartition()
            + " offset "
            + record.kafkaOffset(),
        cause);
  }

  private static RecordRejectedException rejected(
      SinkRecord record, String problem, Exception cause) {
    return new RecordRejectedException(
        SinkErrorCode.SINK_CONVERSION_FAILED,
        null,
        null,
        "record at topic "
            + record.topic()
            + " partition "
            + record.kafkaPartition()
            + " offset "
            + record.kafkaOffset()
            + " cannot be read: "
            + problem,
        cause);
  }
}
