package io.sluice.router;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.dlq.DlqEnvelope;
import io.sluice.router.config.RouterConfig;
import io.sluice.router.metrics.RouterMetrics;
import io.sluice.router.testing.FakeRetryClock;
import io.sluice.router.topics.OutputTopics;
import io.sluice.router.validate.ErrorCode;
import io.sluice.router.validate.RecordValidator;
import io.sluice.router.validate.ValidationRules;
import io.sluice.schema.testing.InMemorySchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The schema-lineage stage through the topology: a subject's versions registered one after another
 * (the registry's compatibility plays no part), one record of each, and where each record goes.
 */
class SchemaLineageTopologyTest {
  private static final String TOPIC = "broker.cdc_lab.items";
  private static final String ID = "{\"name\":\"id\",\"type\":\"int\"}";
  private static final String AMOUNT = "{\"name\":\"amount\",\"type\":\"long\"}";
  private static final String NOTE =
      "{\"name\":\"note\",\"type\":[\"null\",\"string\"],\"default\":null}";

  private final InMemorySchemaRegistryClient registry = new InMemorySchemaRegistryClient();
  private final int keyId = registry.register(TOPIC + "-key", key(ID));
  private TopologyTestDriver driver;
  private TestInputTopic<byte[], byte[]> input;
  private TestOutputTopic<byte[], byte[]> clean;
  private TestOutputTopic<byte[], byte[]> dlq;

  private void start(boolean lineageChecked) {
    Map<String, Object> props = new HashMap<>();
    props.put(RouterConfig.BOOTSTRAP_SERVERS_CONFIG, "unused:9092");
    props.put(RouterConfig.SCHEMA_REGISTRY_URL_CONFIG, "http://unused:8081");
    props.put(RouterConfig.SCHEMA_LINEAGE_CHECK_CONFIG, lineageChecked);
    RouterConfig config = new RouterConfig(props);
    StreamsBuilder builder = new StreamsBuilder();
    RouterTopology.build(
        builder,
        config,
        new RecordValidator(registry, ValidationRules.from(config)),
        topic -> OutputTopics.Partitions.SAME_AS_INPUT,
        RouterMetrics.inMemory(),
        new FakeRetryClock(),
        Clock.systemUTC());
    driver = new TopologyTestDriver(builder.build(), RouterTopology.streamsConfig(config));
    input = driver.createInputTopic(TOPIC, new ByteArraySerializer(), new ByteArraySerializer());
    clean =
        driver.createOutputTopic(
            TOPIC + ".clean", new ByteArrayDeserializer(), new ByteArrayDeserializer());
    dlq =
        driver.createOutputTopic(
            TOPIC + ".dlq", new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  @AfterEach
  void close() {
    if (driver != null) {
      driver.close();
    }
  }

  /** Row versions, oldest first; the last one's record is judged, the others pass before it. */
  static Stream<Arguments> allowed() {
    String nested =
        "{\"name\":\"addr\",\"type\":{\"type\":\"record\",\"name\":\"Addr\",\"fields\":[";
    return Stream.of(
        Arguments.of("optional field added", List.of(row(ID, AMOUNT), row(ID, AMOUNT, NOTE))),
        Arguments.of("optional field dropped", List.of(row(ID, AMOUNT, NOTE), row(ID, AMOUNT))),
        Arguments.of(
            "int -> long", List.of(row(ID, field("qty", "int")), row(ID, field("qty", "long")))),
        Arguments.of(
            "float -> double",
            List.of(row(ID, field("price", "float")), row(ID, field("price", "double")))),
        Arguments.of(
            "decimal precision widened",
            List.of(row(ID, decimal("total", 10, 2)), row(ID, decimal("total", 12, 2)))),
        Arguments.of(
            "field made optional",
            List.of(row(ID, AMOUNT), row(ID, field("amount", "[\"null\",\"long\"]")))),
        // The column stays optional: every value of the required field fits it.
        Arguments.of(
            "optional field made required",
            List.of(row(ID, field("amount", "[\"null\",\"long\"]")), row(ID, AMOUNT))),
        // A NOT NULL DEFAULT column: the sinks add it as an optional column.
        Arguments.of(
            "required field with a default added",
            List.of(row(ID), row(ID, "{\"name\":\"amount\",\"type\":\"long\",\"default\":0}"))),
        // The column stays long: an int is widened on write.
        Arguments.of(
            "long -> int after long", List.of(row(ID, AMOUNT), row(ID, field("amount", "int")))),
        Arguments.of(
            "optional field added to a nested record",
            List.of(
                row(ID, nested + "{\"name\":\"city\",\"type\":\"string\"}]}}"),
                row(
                    ID,
                    nested
                        + "{\"name\":\"city\",\"type\":\"string\"},"
                        + NOTE.replace("note", "zip")
                        + "]}}"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("allowed")
  void aVersionTheLakeCanFollowPassesToClean(String evolution, List<Schema> rows) {
    start(true);
    for (Schema row : rows) {
      input.pipeInput(keyOf(1), recordOf(row));
    }

    assertThat(dlq.readRecordsToList()).as(evolution).isEmpty();
    assertThat(clean.readRecordsToList()).hasSize(rows.size());
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        Arguments.of(
            "long -> string",
            List.of(row(ID, AMOUNT), row(ID, field("amount", "string"))),
            "field after.amount changes long -> string, which Iceberg cannot evolve"),
        Arguments.of(
            "int -> double",
            List.of(row(ID, field("qty", "int")), row(ID, field("qty", "double"))),
            "field after.qty changes int -> double"),
        Arguments.of(
            "required field added",
            List.of(row(ID), row(ID, AMOUNT)),
            "field after.amount is added as required long (absent -> long)"),
        Arguments.of(
            "required field dropped",
            List.of(row(ID, AMOUNT), row(ID)),
            "field after.amount is dropped while required (long -> absent)"),
        Arguments.of(
            "decimal scale changed",
            List.of(row(ID, decimal("total", 10, 2)), row(ID, decimal("total", 10, 3))),
            "field after.total changes decimal(10,2) -> decimal(10,3)"),
        Arguments.of(
            "logical type changed",
            List.of(
                row(ID, AMOUNT),
                row(
                    ID,
                    field("amount", "{\"type\":\"long\",\"logicalType\":\"timestamp-millis\"}"))),
            "field after.amount changes long -> long (timestamp-millis)"),
        Arguments.of(
            "nested field retyped",
            List.of(
                row(
                    ID,
                    "{\"name\":\"addr\",\"type\":{\"type\":\"record\",\"name\":\"Addr\",\"fields\":[{\"name\":\"city\",\"type\":\"string\"}]}}"),
                row(
                    ID,
                    "{\"name\":\"addr\",\"type\":{\"type\":\"record\",\"name\":\"Addr\",\"fields\":[{\"name\":\"city\",\"type\":\"int\"}]}}")),
            "field after.addr.city changes string -> int"),
        // The table kept the string column that version 2 dropped.
        Arguments.of(
            "dropped field added back with another type",
            List.of(row(ID, NOTE), row(ID), row(ID, field("note", "[\"null\",\"long\"]"))),
            "field after.note changes string -> long"));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void aVersionTheLakeCannotFollowGoesToTheDlqNamingFieldAndTypes(
      String evolution, List<Schema> rows, String detail) {
    start(true);
    int[] ids = new int[rows.size()];
    for (int i = 0; i < rows.size(); i++) {
      ids[i] = registry.register(TOPIC + "-value", envelope(rows.get(i)));
    }
    for (Schema row : rows) {
      input.pipeInput(keyOf(1), recordOf(row));
    }

    assertThat(clean.readRecordsToList()).hasSize(rows.size() - 1);
    List<TestRecord<byte[], byte[]>> poison = dlq.readRecordsToList();
    assertThat(poison).as(evolution).hasSize(1);
    DlqEnvelope envelope = DlqEnvelope.fromJson(poison.get(0).value());
    int judged = ids[ids.length - 1];
    assertThat(envelope.errorCode()).isEqualTo(ErrorCode.SCHEMA_INCOMPATIBLE.name());
    assertThat(envelope.errorType())
        .isEqualTo("io.sluice.router.validate.SchemaIncompatibleException");
    assertThat(envelope.schemaId()).isEqualTo(judged);
    assertThat(envelope.errorMessage())
        .startsWith(
            "value schema " + judged + " of topic " + TOPIC + " cannot follow schema " + ids[0])
        .contains(" on the clean topic: " + detail);
  }

  @Test
  void messageNamesTheLatestAcceptedSchemaThatCarriedTheField() {
    start(true);
    Schema v1 = row(ID, AMOUNT);
    Schema v2 = row(ID, AMOUNT, NOTE);
    Schema v3 = row(ID, field("amount", "string"), NOTE);
    registry.register(TOPIC + "-value", envelope(v1));
    int v2Id = registry.register(TOPIC + "-value", envelope(v2));
    int v3Id = registry.register(TOPIC + "-value", envelope(v3));
    input.pipeInput(keyOf(1), recordOf(v3));

    assertThat(DlqEnvelope.fromJson(dlq.readValue()).errorMessage())
        .isEqualTo(
            "value schema "
                + v3Id
                + " of topic "
                + TOPIC
                + " cannot follow schema "
                + v2Id
                + " on the clean topic: field after.amount changes long -> string, which Iceberg"
                + " cannot evolve");
  }

  @Test
  void earlierVersionsStillPassAfterARefusedOne() {
    start(true);
    Schema v1 = row(ID, AMOUNT);
    Schema v2 = row(ID, field("amount", "string"));
    Schema v3 = row(ID, AMOUNT, NOTE);
    for (Schema row : List.of(v1, v2, v3)) {
      registry.register(TOPIC + "-value", envelope(row));
    }
    for (Schema row : List.of(v2, v1, v3, v2)) {
      input.pipeInput(keyOf(1), recordOf(row));
    }

    assertThat(clean.readRecordsToList()).hasSize(2);
    assertThat(dlq.readRecordsToList()).hasSize(2);
  }

  @Test
  void aKnownSchemaIdCostsNoRegistryCall() {
    start(true);
    byte[] key = keyOf(1);
    byte[] value = recordOf(row(ID, AMOUNT));
    input.pipeInput(key, value);
    int calls = registry.calls();
    input.pipeInput(key, value);
    input.pipeInput(key, value);

    assertThat(registry.calls()).isEqualTo(calls);
    assertThat(clean.readRecordsToList()).hasSize(3);
  }

  @Test
  void registryOutageDuringTheWalkIsRetriedNotQuarantined() {
    start(true);
    byte[] key = keyOf(1);
    input.pipeInput(key, recordOf(row(ID, AMOUNT)));
    byte[] v2 = recordOf(row(ID, AMOUNT, NOTE));
    int calls = registry.calls();
    registry.failNext(4); // the new id's lookups and its lineage walk wait for the registry
    input.pipeInput(key, v2);

    assertThat(registry.calls()).isGreaterThan(calls + 4);

    assertThat(dlq.isEmpty()).isTrue();
    assertThat(clean.readRecordsToList()).hasSize(2);
  }

  @Test
  void withTheCheckOffAnyVersionOfTheSubjectPasses() {
    start(false);
    Schema v1 = row(ID, AMOUNT);
    Schema v2 = row(ID, field("amount", "string"));
    input.pipeInput(keyOf(1), recordOf(v1));
    input.pipeInput(keyOf(1), recordOf(v2));

    assertThat(dlq.isEmpty()).isTrue();
    assertThat(clean.readRecordsToList()).hasSize(2);
  }

  @Test
  void aKeyTypeChangeGoesToTheDlqAsKeySchemaIncompatible() {
    start(true);
    Schema row = row(ID, AMOUNT);
    byte[] value = recordOf(row);
    input.pipeInput(keyOf(1), value);
    Schema retyped = key("{\"name\":\"id\",\"type\":\"string\"}");
    int retypedId = registry.register(TOPIC + "-key", retyped);
    GenericRecord key = new GenericData.Record(retyped);
    key.put("id", "1");
    input.pipeInput(WireFormat.encode(retypedId, body(key)), value);

    assertThat(clean.readRecordsToList()).hasSize(1);
    DlqEnvelope envelope = DlqEnvelope.fromJson(dlq.readValue());
    assertThat(envelope.errorCode()).isEqualTo(ErrorCode.KEY_SCHEMA_INCOMPATIBLE.name());
    assertThat(envelope.keySchemaId()).isEqualTo(retypedId);
    assertThat(envelope.errorMessage())
        .isEqualTo(
            "key schema "
                + retypedId
                + " of topic "
                + TOPIC
                + " cannot follow key schema "
                + keyId
                + " on the clean topic: field id changes int -> string, which Iceberg cannot"
                + " evolve");
  }

  @Test
  void aKeyFieldAddedGoesToTheDlqAsKeySchemaIncompatible() {
    start(true);
    Schema row = row(ID, field("region", "string"));
    input.pipeInput(keyOf(1), recordOf(row));
    Schema wider = key(ID, "{\"name\":\"region\",\"type\":\"string\"}");
    int widerId = registry.register(TOPIC + "-key", wider);
    GenericRecord key = new GenericData.Record(wider);
    key.put("id", 1);
    key.put("region", "1");
    input.pipeInput(WireFormat.encode(widerId, body(key)), recordOf(row));

    assertThat(DlqEnvelope.fromJson(dlq.readValue()).errorMessage())
        .endsWith(
            "field region is added (absent -> string), which changes the identifier that upserts"
                + " match rows by");
  }

  private static String field(String name, String type) {
    String json = type.startsWith("[") || type.startsWith("{") ? type : "\"" + type + "\"";
    return "{\"name\":\"" + name + "\",\"type\":" + json + "}";
  }

  private static String decimal(String name, int precision, int scale) {
    return field(
        name,
        "{\"type\":\"bytes\",\"logicalType\":\"decimal\",\"precision\":"
            + precision
            + ",\"scale\":"
            + scale
            + "}");
  }

  private static Schema row(String... fields) {
    return new Schema.Parser()
        .parse(
            "{\"type\":\"record\",\"name\":\"Value\",\"namespace\":\"broker.cdc_lab.items\","
                + "\"fields\":["
                + String.join(",", fields)
                + "]}");
  }

  private static Schema key(String... fields) {
    return new Schema.Parser()
        .parse(
            "{\"type\":\"record\",\"name\":\"Key\",\"namespace\":\"broker.cdc_lab.items\","
                + "\"fields\":["
                + String.join(",", fields)
                + "]}");
  }

  /** A minimal Debezium envelope around {@code row}. */
  private static Schema envelope(Schema row) {
    return new Schema.Parser()
        .parse(
            "{\"type\":\"record\",\"name\":\"Envelope\",\"namespace\":\"broker.cdc_lab.items\","
                + "\"fields\":["
                + "{\"name\":\"before\",\"type\":[\"null\","
                + row
                + "],\"default\":null},"
                + "{\"name\":\"after\",\"type\":[\"null\",\"Value\"],\"default\":null},"
                + "{\"name\":\"op\",\"type\":\"string\"},"
                + "{\"name\":\"ts_ms\",\"type\":[\"null\",\"long\"],\"default\":null}]}");
  }

  private byte[] keyOf(int id) {
    GenericRecord key = new GenericData.Record(registry.schemaById(keyId));
    key.put("id", id);
    return WireFormat.encode(keyId, body(key));
  }

  /** A create event of row 1 with writer schema {@code row} (registered when it is new). */
  private byte[] recordOf(Schema row) {
    Schema schema = envelope(row);
    int id = registry.register(TOPIC + "-value", schema);
    GenericRecord after =
        new GenericData.Record(schema.getField("before").schema().getTypes().get(1));
    for (Schema.Field field : after.getSchema().getFields()) {
      after.put(field.name(), sample(field.schema()));
    }
    after.put("id", 1);
    GenericRecord envelope = new GenericData.Record(schema);
    envelope.put("after", after);
    envelope.put("op", "c");
    return WireFormat.encode(id, body(envelope));
  }

  private static Object sample(Schema schema) {
    if (schema.getLogicalType() instanceof LogicalTypes.Decimal decimal) {
      return ByteBuffer.wrap(
          BigDecimal.ONE.setScale(decimal.getScale()).unscaledValue().toByteArray());
    }
    return switch (schema.getType()) {
      case INT -> 1;
      case LONG -> 1L;
      case FLOAT -> 1f;
      case DOUBLE -> 1d;
      case STRING -> "1";
      case UNION -> null;
      case RECORD -> {
        GenericRecord record = new GenericData.Record(schema);
        schema.getFields().forEach(f -> record.put(f.name(), sample(f.schema())));
        yield record;
      }
      default -> throw new IllegalArgumentException("no sample for " + schema);
    };
  }

  private static byte[] body(GenericRecord record) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
    try {
      new GenericDatumWriter<GenericRecord>(record.getSchema()).write(record, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toByteArray();
  }
}
