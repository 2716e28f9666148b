package io.sluice.connect.upsert.event;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.connect.upsert.config.InputFormat;
import io.sluice.connect.upsert.error.RecordRejectedException;
import io.sluice.connect.upsert.types.AvroRowConverter;
import io.sluice.connect.upsert.types.IcebergSchemas;
import io.sluice.connect.upsert.types.RecordConverter;
import io.sluice.connect.upsert.write.BatchWriter;
import io.sluice.schema.connect.ConnectAvroCodec;
import io.sluice.schema.testing.InMemorySchemaRegistryClient;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.function.Supplier;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Date;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.data.Timestamp;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.Test;

/**
 * The direct path ({@link WireChangeExtractor} and {@link AvroRowConverter} on Confluent-wire
 * bytes) against the converter path (the same bytes decoded to Connect data, {@link
 * ChangeExtractor} and {@link RecordConverter}): over random envelopes of many column types, nulls,
 * values a column cannot take and irregular envelopes, both give the same events and rows, or the
 * same error. And the direct conversion covers the rows CDC mostly has.
 */
class DirectPathEquivalenceTest {
  private static final String TOPIC = "broker.cdc_lab.orders.clean";
  private static final int ROUNDS = 3_000;

  private static final Schema KEY = SchemaBuilder.struct().field("id", Schema.INT64_SCHEMA).build();

  /** Columns the direct conversion covers. */
  private static final Schema COVERED =
      SchemaBuilder.struct()
          .optional()
          .field("id", Schema.INT64_SCHEMA)
          .field("tiny", Schema.OPTIONAL_INT8_SCHEMA)
          .field("small", Schema.OPTIONAL_INT16_SCHEMA)
          .field("qty", Schema.OPTIONAL_INT32_SCHEMA)
          .field("total", Schema.OPTIONAL_FLOAT64_SCHEMA)
          .field("ratio", Schema.OPTIONAL_FLOAT32_SCHEMA)
          .field("paid", Schema.OPTIONAL_BOOLEAN_SCHEMA)
          .field("status", Schema.STRING_SCHEMA)
          .field("note", Schema.OPTIONAL_STRING_SCHEMA)
          .field("day", named(SchemaBuilder.int32(), "io.debezium.time.Date"))
          .field("created", named(SchemaBuilder.int64(), "io.debezium.time.MicroTimestamp"))
          .field("shipped", named(SchemaBuilder.int64(), "io.debezium.time.Timestamp"))
          .field("nanos", named(SchemaBuilder.int64(), "io.debezium.time.NanoTimestamp"))
          .field("zoned", named(SchemaBuilder.string(), "io.debezium.time.ZonedTimestamp"))
          .field("enum", named(SchemaBuilder.string(), "io.debezium.data.Enum"))
          .field("connect_day", Date.builder().optional().build())
          .field("connect_ts", Timestamp.builder().optional().build())
          .build();

  /** The same plus columns it leaves to the Connect path. */
  private static final Schema MIXED =
      SchemaBuilder.struct()
          .optional()
          .field("id", Schema.INT64_SCHEMA)
          .field("status", Schema.OPTIONAL_STRING_SCHEMA)
          .field("price", Decimal.builder(2).optional().build())
          .field("tags", SchemaBuilder.array(Schema.STRING_SCHEMA).optional().build())
          .field(
              "address",
              SchemaBuilder.struct()
                  .optional()
                  .field("city", Schema.OPTIONAL_STRING_SCHEMA)
                  .build())
          .field("blob", Schema.OPTIONAL_BYTES_SCHEMA)
          .build();

  private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
  private final ConnectAvroCodec codec = new ConnectAvroCodec(registry);
  private final Random random = new Random(20261207);

  private static Schema named(SchemaBuilder builder, String name) {
    return builder.name(name).version(1).optional().build();
  }

  private static Schema envelope(Schema row) {
    Schema source =
        SchemaBuilder.struct()
            .name("io.debezium.connector.mysql.Source")
            .field("db", Schema.STRING_SCHEMA)
            .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
            .build();
    return SchemaBuilder.struct()
        .name("cdc_lab.orders.Envelope")
        .field("before", row)
        .field("after", row)
        .field("source", source)
        .field("op", Schema.STRING_SCHEMA)
        .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
        .build();
  }

  @Test
  void coveredColumnsGiveTheConverterPathsRowsAndErrors() {
    compare(COVERED, List.of(), table(COVERED));
    compare(COVERED, List.of("id"), table(COVERED));
  }

  @Test
  void uncoveredColumnsGoTheConverterPathWithTheSameResult() {
    compare(MIXED, List.of(), table(MIXED));
    compare(MIXED, List.of("id"), table(MIXED));
  }

  @Test
  void narrowerAndExtraTableColumnsGiveTheSameRowsAndErrors() {
    // The table's qty is an int; the source's became a long (values may not fit). The table also
    // has a column the source dropped; the second table lacks one the source has ("status").
    Schema source =
        SchemaBuilder.struct()
            .optional()
            .field("id", Schema.INT64_SCHEMA)
            .field("qty", Schema.OPTIONAL_INT64_SCHEMA)
            .field("status", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    org.apache.iceberg.Schema table =
        new org.apache.iceberg.Schema(
            List.of(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "qty", Types.IntegerType.get()),
                Types.NestedField.optional(3, "status", Types.StringType.get()),
                Types.NestedField.optional(4, "dropped", Types.StringType.get())),
            java.util.Set.of(1));
    compare(source, List.of(), table);
    org.apache.iceberg.Schema narrower =
        new org.apache.iceberg.Schema(
            List.of(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "qty", Types.LongType.get())),
            java.util.Set.of(1));
    compare(source, List.of("id"), narrower);
    org.apache.iceberg.Schema requiredDropped =
        new org.apache.iceberg.Schema(
            List.of(
                Types.NestedField.required(1, "id", Types.LongType.get()),
                Types.NestedField.optional(2, "qty", Types.LongType.get()),
                Types.NestedField.optional(3, "status", Types.StringType.get()),
                Types.NestedField.required(4, "region", Types.StringType.get())),
            java.util.Set.of(1));
    compare(source, List.of(), requiredDropped);
  }

  @Test
  void theDirectConversionCoversCdcRows() {
    ChangeExtractor connect = new ChangeExtractor(InputFormat.DEBEZIUM, "__op", List.of());
    WireChangeExtractor wire = new WireChangeExtractor(connect, codec, true, List.of());
    RecordConverter converter = new RecordConverter(table(COVERED));
    AvroRowConverter rows = converter.avro(null);
    int direct = 0;
    for (int i = 0; i < 200; i++) {
      Struct after = row(COVERED, false);
      ChangeEvent event = wire.extract(wireRecord(i, key(after), change("u", null, after))).get();
      assertThat(event.avro()).as("read without Connect data").isNotNull();
      if (rows.row(event.avro().row(), event.avro().keySource()) != null
          && rows.key(event.avro().keySource()) != null) {
        direct++;
      }
    }
    assertThat(direct).as("rows the direct conversion took").isEqualTo(200);
  }

  @Test
  void bytesThatAreNotWireAvroAreTheRecordsFault() {
    ChangeExtractor connect = new ChangeExtractor(InputFormat.DEBEZIUM, "__op", List.of());
    WireChangeExtractor wire = new WireChangeExtractor(connect, codec, true, List.of());
    SinkRecord json =
        new SinkRecord(
            TOPIC,
            2,
            Schema.OPTIONAL_BYTES_SCHEMA,
            null,
            Schema.OPTIONAL_BYTES_SCHEMA,
            "{\"op\":\"c\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8),
            41);
    SinkRecord unknownId =
        new SinkRecord(
            TOPIC,
            2,
            Schema.OPTIONAL_BYTES_SCHEMA,
            null,
            Schema.OPTIONAL_BYTES_SCHEMA,
            new byte[] {0, 0, 0, 0x7f, 0x7f, 2, 4},
            42);

    assertThat(outcome(() -> wire.extract(json)))
        .startsWith("rejected SINK_CONVERSION_FAILED")
        .contains("topic " + TOPIC + " partition 2 offset 41")
        .contains("not Confluent-wire Avro");
    assertThat(outcome(() -> wire.extract(unknownId)))
        .startsWith("rejected SINK_CONVERSION_FAILED")
        .contains("offset 42")
        .contains("schema id 32639");
  }

  @Test
  void aRegistryOutageIsRetriableAndTheRecordIsReadOnceItIsBack() {
    ChangeExtractor connect = new ChangeExtractor(InputFormat.DEBEZIUM, "__op", List.of());
    WireChangeExtractor wire = new WireChangeExtractor(connect, codec, true, List.of());
    Struct after = row(COVERED, false);
    SinkRecord record = wireRecord(7, key(after), change("c", null, after));
    registry.failNext(1);

    assertThatThrownBy(() -> wire.resolveSchemas(List.of(record)))
        .isInstanceOf(org.apache.kafka.connect.errors.RetriableException.class)
        .hasMessageContaining("offset 7");
    assertThat(wire.extract(record).orElseThrow().avro()).isNotNull();
  }

  private void compare(Schema rowSchema, List<String> keyFields, org.apache.iceberg.Schema table) {
    ChangeExtractor connect = new ChangeExtractor(InputFormat.DEBEZIUM, "__op", keyFields);
    WireChangeExtractor wire = new WireChangeExtractor(connect, codec, true, keyFields);
    RecordConverter directConverter = new RecordConverter(table);
    RecordConverter connectConverter = new RecordConverter(table);
    List<String> differences = new ArrayList<>();
    int rejected = 0;
    for (int i = 0; i < ROUNDS; i++) {
      Struct before = random.nextInt(4) == 0 ? null : row(rowSchema, true);
      Struct after = row(rowSchema, true);
      String op = List.of("c", "r", "u", "d", "x").get(random.nextInt(5));
      Struct value = change(op, before, "d".equals(op) ? null : after, rowSchema);
      Struct key = random.nextInt(20) == 0 ? null : key(before != null ? before : after);
      SinkRecord bytes = wireRecord(i, key, value);
      SinkRecord data = connectRecord(bytes);
      String viaWire = outcome(() -> convert(wire.extract(bytes), directConverter));
      String viaConnect = outcome(() -> convert(connect.extract(data), connectConverter));
      rejected += viaConnect.startsWith("rejected") ? 1 : 0;
      if (!viaWire.equals(viaConnect)) {
        differences.add(
            "round " + i + ":\n  direct:    " + viaWire + "\n  converter: " + viaConnect);
      }
    }
    assertThat(differences).as("rounds where the paths differ").isEmpty();
    assertThat(rejected).as("rounds rejected (the generator makes bad values too)").isPositive();
  }

  private static String convert(Optional<ChangeEvent> extracted, RecordConverter converter) {
    ChangeEvent event = extracted.orElseThrow();
    BatchWriter.Converted rows = BatchWriter.convert(converter, event, null);
    return event.sourceOp()
        + " at "
        + event.sourceTimeMs()
        + " row "
        + rows.row()
        + " key "
        + rows.key()
        + " keyAsRow "
        + rows.keyAsRow()
        + " key schema "
        + event.keySchema().fields().stream().map(Field::name).toList();
  }

  private static String outcome(Supplier<Object> run) {
    try {
      return String.valueOf(run.get());
    } catch (RecordRejectedException e) {
      return "rejected " + e.code() + ": " + e.getMessage();
    } catch (RuntimeException e) {
      return "failed " + e.getClass().getSimpleName() + ": " + e.getMessage();
    }
  }

  private org.apache.iceberg.Schema table(Schema row) {
    return IcebergSchemas.tableSchema(row, KEY, null);
  }

  private SinkRecord wireRecord(long offset, Struct key, Struct value) {
    byte[] keyBytes = key == null ? null : codec.encode(TOPIC + "-key", key.schema(), key);
    byte[] valueBytes = codec.encode(TOPIC + "-value", value.schema(), value);
    return new SinkRecord(
        TOPIC,
        0,
        Schema.OPTIONAL_BYTES_SCHEMA,
        keyBytes,
        Schema.OPTIONAL_BYTES_SCHEMA,
        valueBytes,
        offset);
  }

  private SinkRecord connectRecord(SinkRecord bytes) {
    var key =
        bytes.key() == null
            ? org.apache.kafka.connect.data.SchemaAndValue.NULL
            : codec.decode(TOPIC, (byte[]) bytes.key());
    var value = codec.decode(TOPIC, (byte[]) bytes.value());
    return new SinkRecord(
        TOPIC, 0, key.schema(), key.value(), value.schema(), value.value(), bytes.kafkaOffset());
  }

  private static Struct key(Struct row) {
    return new Struct(KEY).put("id", row.get("id"));
  }

  private Struct change(String op, Struct before, Struct after) {
    return change(op, before, after, COVERED);
  }

  private Struct change(String op, Struct before, Struct after, Schema rowSchema) {
    Schema envelope = envelopes.computeIfAbsent(rowSchema, DirectPathEquivalenceTest::envelope);
    Struct source = new Struct(envelope.field("source").schema()).put("db", "cdc_lab");
    if (random.nextBoolean()) {
      source.put("ts_ms", 1_700_000_000_000L + random.nextInt(1000));
    }
    Struct value =
        new Struct(envelope)
            .put("before", before)
            .put("after", after)
            .put("source", source)
            .put("op", op);
    if (random.nextBoolean()) {
      value.put("ts_ms", 1_800_000_000_000L);
    }
    return value;
  }

  private final Map<Schema, Schema> envelopes = new java.util.IdentityHashMap<>();

  /** A random row of {@code schema}; with {@code bad}, sometimes values a table cannot take. */
  private Struct row(Schema schema, boolean bad) {
    Struct row = new Struct(schema);
    for (Field field : schema.fields()) {
      boolean nullable = field.schema().isOptional();
      if (nullable && random.nextInt(8) == 0) {
        continue;
      }
      row.put(field, value(field.name(), field.schema(), bad));
    }
    return row;
  }

  private Object value(String name, Schema schema, boolean bad) {
    if ("id".equals(name)) {
      return (long) random.nextInt(1000);
    }
    String logical = schema.name();
    if (Date.LOGICAL_NAME.equals(logical)) {
      return new java.util.Date(random.nextInt(30_000) * 86_400_000L);
    }
    if (Timestamp.LOGICAL_NAME.equals(logical)) {
      return new java.util.Date(1_700_000_000_000L + random.nextInt());
    }
    if (Decimal.LOGICAL_NAME.equals(logical)) {
      return BigDecimal.valueOf(random.nextInt(100_000), 2);
    }
    if ("io.debezium.time.ZonedTimestamp".equals(logical)) {
      return bad && random.nextInt(10) == 0 ? "yesterday" : "2026-12-07T10:15:30.123456Z";
    }
    return switch (schema.type()) {
      case INT8 -> (byte) random.nextInt(128);
      case INT16 -> (short) random.nextInt(30_000);
      case INT32 -> random.nextInt();
      case INT64 ->
          bad && random.nextInt(10) == 0
              ? Long.MAX_VALUE - random.nextInt(10)
              : 1_700_000_000_000_000L + random.nextInt();
      case FLOAT32 -> random.nextFloat();
      case FLOAT64 -> random.nextDouble() * 1000;
      case BOOLEAN -> random.nextBoolean();
      case STRING -> List.of("NEW", "PAID", "SHIPPED", "é€").get(random.nextInt(4));
      case BYTES -> new byte[] {(byte) random.nextInt(), 2, 3};
      case ARRAY -> List.of("a", "b");
      case STRUCT -> new Struct(schema).put("city", "Lyon");
      default -> throw new IllegalStateException(schema.type().toString());
    };
  }
}
