package io.sluice.schema.connect;

import io.apicurio.registry.utils.converter.avro.AvroData;
import io.apicurio.registry.utils.converter.avro.AvroDataConfig;
import io.sluice.schema.avro.AvroBodyValidator;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.IdentityHashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaAndValue;
import org.apache.kafka.connect.errors.DataException;

/**
 * Kafka Connect data to Confluent-wire Avro and back, through the registry. The Connect/Avro type
 * table (logical types, {@code connect.name}/{@code connect.parameters}, optional unions, defaults,
 * Debezium semantic types) is Apicurio's port of Confluent's {@code AvroData}; this class adds the
 * registry, the wire header and caching by schema identity (Debezium reuses one schema instance per
 * table version, so the deep {@code equals} of Connect schemas stays off the hot path).
 * Thread-safe.
 */
public final class ConnectAvroCodec {
  private static final int MAX_CACHED_SCHEMAS = 1_000;

  private final SchemaRegistryClient registry;
  private final boolean autoRegister;
  private final AvroData avroData;
  private final Map<String, Map<Schema, Writer>> writers = new java.util.HashMap<>();

  /** By writer schema id: compiled once, not per record (ids come only from the registry). */
  private final Map<Integer, AvroBodyValidator> validators = new ConcurrentHashMap<>();

  /**
   * By writer schema id: a reader resolves its schema once (a new reader per record resolved it on
   * every record, a quarter of the sink's CPU). {@link GenericDatumReader} keeps its resolver per
   * thread, so one reader serves every thread.
   */
  private final Map<Integer, GenericDatumReader<Object>> readers = new ConcurrentHashMap<>();

  private record Writer(
      int id, org.apache.avro.Schema avroSchema, GenericDatumWriter<Object> writer) {}

  public ConnectAvroCodec(SchemaRegistryClient registry) {
    this(registry, true);
  }

  /**
   * @param autoRegister when false, {@link #encode} only looks the schema up in its subject and
   *     fails when it is not registered there
   */
  public ConnectAvroCodec(SchemaRegistryClient registry, boolean autoRegister) {
    this.registry = registry;
    this.autoRegister = autoRegister;
    this.avroData =
        new AvroData(
            new AvroDataConfig(
                Map.of(
                    AvroDataConfig.CONNECT_META_DATA_CONFIG, true,
                    AvroDataConfig.ENHANCED_AVRO_SCHEMA_SUPPORT_CONFIG, true,
                    AvroDataConfig.SCHEMAS_CACHE_SIZE_CONFIG, MAX_CACHED_SCHEMAS)));
  }

  /** The Avro schema Connect's {@code schema} maps to. */
  public org.apache.avro.Schema avroSchema(Schema schema) {
    return avroData.fromConnectSchema(schema);
  }

  /**
   * Encodes {@code value} under {@code subject}, registering the schema when it is new there (or,
   * without auto-registration, looking it up).
   *
   * @throws DataException when the value does not match the schema
   */
  public byte[] encode(String subject, Schema schema, Object value) {
    Writer writer = writer(subject, schema);
    Object avroValue = avroData.fromConnectData(schema, value);
    ByteArrayOutputStream out = new ByteArrayOutputStream(256);
    out.write(WireFormat.MAGIC_BYTE);
    out.write(writer.id() >>> 24);
    out.write(writer.id() >>> 16);
    out.write(writer.id() >>> 8);
    out.write(writer.id());
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(out, null);
    try {
      writer.writer().write(avroValue, encoder);
      encoder.flush();
    } catch (IOException | RuntimeException e) {
      throw new DataException(
          "cannot encode a value of schema " + schema.name() + " for subject " + subject, e);
    }
    return out.toByteArray();
  }

  /**
   * Decodes Confluent-wire Avro into Connect data with the writer schema from the registry.
   *
   * @throws DataException when the bytes are not wire format, do not decode, or leave bytes over
   */
  public SchemaAndValue decode(String topic, byte[] bytes) {
    if (bytes == null) {
      return SchemaAndValue.NULL;
    }
    return toConnect(decodeAvro(topic, bytes));
  }

  /**
   * Wire bytes decoded to Avro's generic representation, not yet Connect data.
   *
   * @param schemaId the writer schema's registry id
   * @param value a {@code GenericRecord} for a record schema, else Avro's value of the schema
   */
  public record Decoded(int schemaId, org.apache.avro.Schema writerSchema, Object value) {}

  /**
   * Decodes Confluent-wire Avro with the writer schema from the registry, checked against the bytes
   * as {@link #decode} does, into Avro's generic data: for a consumer that reads the values itself
   * (the upsert sink's direct path); {@link #toConnect} gives the Connect data {@link #decode}
   * would.
   *
   * @throws DataException when the bytes are not wire format, do not decode, or leave bytes over
   * @throws io.sluice.schema.registry.RegistryException when the registry cannot give the schema
   */
  public Decoded decodeAvro(String topic, byte[] bytes) {
    return decodeAvro(
        topic,
        bytes,
        (id, writerSchema) ->
            readers.computeIfAbsent(id, i -> new GenericDatumReader<>(writerSchema)));
  }

  /**
   * As {@link #decodeAvro(String, byte[])}, read by the reader {@code readers} gives for the writer
   * schema's id: one with a reader schema that leaves fields out (Avro's schema resolution skips
   * them in the bytes instead of building them) gives a value of that reader schema, which {@link
   * #toConnect} cannot take. The bytes are checked against the writer schema all the same.
   */
  public Decoded decodeAvro(
      String topic,
      byte[] bytes,
      BiFunction<Integer, org.apache.avro.Schema, GenericDatumReader<Object>> readers) {
    int id = WireFormat.schemaId(bytes);
    org.apache.avro.Schema writerSchema = registry.schemaById(id);
    BinaryDecoder decoder =
        DecoderFactory.get()
            .binaryDecoder(
                bytes, WireFormat.HEADER_SIZE, bytes.length - WireFormat.HEADER_SIZE, null);
    Object value;
    try {
      // Avro's reader trusts declared lengths; check them against the bytes first.
      validators
          .computeIfAbsent(id, i -> AvroBodyValidator.of(writerSchema))
          .validate(bytes, WireFormat.HEADER_SIZE, bytes.length - WireFormat.HEADER_SIZE);
      value = readers.apply(id, writerSchema).read(null, decoder);
      if (!decoder.isEnd()) {
        throw new DataException(
            "bytes left over after decoding with schema id " + id + " on topic " + topic);
      }
    } catch (IOException | RuntimeException e) {
      if (e instanceof DataException de) {
        throw de;
      }
      throw new DataException(
          "cannot decode Avro with schema id "
              + id
              + " on topic "
              + topic
              + ": "
              + e.getClass().getSimpleName(),
          e);
    }
    return new Decoded(id, writerSchema, value);
  }

  /**
   * The writer schema of registry id {@code id} (cached by the registry client).
   *
   * @throws io.sluice.schema.registry.RegistryException when the registry cannot give it
   */
  public org.apache.avro.Schema writerSchema(int id) {
    return registry.schemaById(id);
  }

  /** The Connect data {@code decoded} is, as {@link #decode} gives it. */
  public SchemaAndValue toConnect(Decoded decoded) {
    return avroData.toConnectData(decoded.writerSchema(), decoded.value(), null);
  }

  /**
   * The Connect schema of Avro {@code schema}, as {@link #decode} gives it (cached by Apicurio).
   */
  public Schema connectSchema(org.apache.avro.Schema schema) {
    return avroData.toConnectSchema(schema);
  }

  private Writer writer(String subject, Schema schema) {
    synchronized (writers) {
      Map<Schema, Writer> bySchema = writers.computeIfAbsent(subject, s -> new IdentityHashMap<>());
      Writer writer = bySchema.get(schema);
      if (writer != null) {
        return writer;
      }
      if (bySchema.size() >= MAX_CACHED_SCHEMAS) {
        bySchema.clear();
      }
      org.apache.avro.Schema avroSchema = avroData.fromConnectSchema(schema);
      int id =
          autoRegister
              ? registry.register(subject, avroSchema)
              : registry.lookup(subject, avroSchema).id();
      writer = new Writer(id, avroSchema, new GenericDatumWriter<>(avroSchema));
      bySchema.put(schema, writer);
      return writer;
    }
  }
}
