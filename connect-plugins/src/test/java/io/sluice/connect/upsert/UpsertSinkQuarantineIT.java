package io.sluice.connect.upsert;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.connect.testing.ChangeProducer;
import io.sluice.connect.testing.ConnectStack;
import io.sluice.connect.testing.Envelopes;
import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.quarantine.DlqOffsets;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.DlqHeaders;
import io.sluice.dlq.Sha256;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.schema.Subjects;
import io.sluice.schema.connect.ConnectAvroCodec;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import io.sluice.tools.dlq.DlqCommand;
import io.sluice.tools.dlq.kafka.Coordinates;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.math.BigDecimal;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.data.Decimal;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Quarantine inside the upsert sink on a real distributed Connect worker and broker: for each
 * SINK_* class one record goes to the DLQ as an envelope v1 record with Sluice's and Connect's
 * headers, the task stays RUNNING and every other record reaches Iceberg; a crash between the DLQ
 * write and the Iceberg commit leaves exactly one DLQ record. Once the table is fixed by hand,
 * {@code sluice dlq replay} (the tools' command, run in-process) re-delivers a quarantined record
 * through the clean topic: it lands once, and the stale-write guard refuses one a newer event
 * followed; a retyped event, re-encoded with the table's version ({@code repair --strategy
 * avro-reencode}), and a null-key row given its key in an exported envelope ({@code repair
 * --from-file}) land too.
 */
class UpsertSinkQuarantineIT {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir static Path dir;
  private static ConnectStack stack;
  private static EmbeddedKafka kafka;
  private static DevSchemaRegistry registry;
  private static ConnectRestClient rest;
  private static Lake lake;
  private static ChangeProducer producer;

  @BeforeAll
  static void startStack() throws Exception {
    stack = ConnectStack.start(dir, "sluice-quarantine-it");
    kafka = stack.kafka;
    registry = stack.registry;
    rest = stack.rest;
    lake = stack.lake;
    producer = stack.producer;
  }

  @AfterAll
  static void stopStack() throws Exception {
    if (stack != null) {
      stack.close();
    }
  }

  /** Orders rows with a decimal(10, 2) amount. */
  private static final Schema AMOUNT_ROW =
      SchemaBuilder.struct()
          .name("broker.cdc_lab.orders.Value")
          .optional()
          .field("id", Schema.INT32_SCHEMA)
          .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
          .field(
              "amount",
              Decimal.builder(2).parameter("connect.decimal.precision", "10").optional().build())
          .build();

  @Test
  void decimalBeyondTheColumnsPrecisionIsQuarantinedAndTheRestWritten() throws Exception {
    Schema amountRow = AMOUNT_ROW;
    Schema envelope = Envelopes.envelope(amountRow);
    Lane lane = lane("it_q_decimal");
    producer.send(lane.topic, key(1), change(envelope, "c", null, amount(amountRow, 1, "19.90")));
    RecordMetadata poison =
        producer.send(
            lane.topic, key(2), change(envelope, "c", null, amount(amountRow, 2, "123456789.01")));
    producer.send(lane.topic, key(3), change(envelope, "c", null, amount(amountRow, 3, "5.00")));
    lane.start(Map.of());

    lane.awaitState("1=a1", "3=a3");
    DlqEnvelope quarantined = lane.onlyDlqRecordFor(poison, "SINK_DECIMAL_OUT_OF_RANGE");
    assertThat(quarantined.errorMessage())
        .contains("column amount is decimal(10, 2)")
        .contains("precision 11")
        .doesNotContain("123456789");
    lane.assertRunning();
  }

  @Test
  void nullKeyFieldIsQuarantinedAndTheRestWritten() throws Exception {
    Schema nullableId =
        SchemaBuilder.struct()
            .name("broker.cdc_lab.orders.Value")
            .optional()
            .field("id", Schema.OPTIONAL_INT32_SCHEMA)
            .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
            .build();
    Schema envelope = Envelopes.envelope(nullableId);
    Lane lane = lane("it_q_nullkey");
    producer.send(lane.topic, key(1), change(envelope, "c", null, nullable(nullableId, 1)));
    RecordMetadata poison =
        producer.send(lane.topic, key(2), change(envelope, "c", null, nullable(nullableId, null)));
    producer.send(lane.topic, key(3), change(envelope, "c", null, nullable(nullableId, 3)));
    lane.start(Map.of("primary.key.fields", "id"));

    lane.awaitState("1=a1", "3=a3");
    DlqEnvelope quarantined = lane.onlyDlqRecordFor(poison, "SINK_NULL_KEY_FIELD");
    assertThat(quarantined.errorMessage()).contains("primary-key field id is null");
    lane.assertRunning();

    // The fix for this class: the operator supplies the row's key in an exported envelope.
    ObjectNode exported = (ObjectNode) JSON.readTree(lane.dlqRecords().get(0).value());
    byte[] intended =
        "{\"intended_after\":{\"id\":2,\"customer\":\"a2\"},\"intended_operation\":\"c\"}"
            .getBytes(StandardCharsets.UTF_8);
    exported.put("original_value_base64", Base64.getEncoder().encodeToString(intended));
    exported.put("original_value_sha256", Sha256.hex(intended));
    Path file = dir.resolve("it_q_nullkey-fixed.json");
    Files.writeString(file, exported.toString());
    Run repair =
        lane.dlq("repair", "--from-file", file.toString(), "--strategy", "json-intended-row");
    assertThat(repair.exit()).as("repair: %s", repair).isZero();
    lane.awaitState("1=a1", "2=a2", "3=a3");
    assertThat(lane.dlqRecords()).as("nothing quarantined after the fix").hasSize(1);
    lane.assertRunning();
  }

  @Test
  void typeTheTableCannotEvolveToIsQuarantinedAndTheRestWritten() throws Exception {
    Lane lane = lane("it_q_type");
    setCompatibilityNone(Subjects.value(lane.topic));
    producer.send(lane.topic, key(1), change("c", null, row(1, "a1")));
    lane.start(Map.of());
    lane.awaitState("1=a1");
    Schema retyped =
        SchemaBuilder.struct()
            .name("broker.cdc_lab.orders.Value")
            .optional()
            .field("id", Schema.INT32_SCHEMA)
            .field("customer", Schema.OPTIONAL_BOOLEAN_SCHEMA)
            .build();
    RecordMetadata poison =
        producer.send(
            lane.topic,
            key(2),
            change(
                Envelopes.envelope(retyped),
                "c",
                null,
                new Struct(retyped).put("id", 2).put("customer", true)));
    producer.send(lane.topic, key(3), change("c", null, row(3, "a3")));

    lane.awaitState("1=a1", "3=a3");
    DlqEnvelope quarantined = lane.onlyDlqRecordFor(poison, "SINK_TYPE_UNWRITABLE");
    assertThat(quarantined.errorMessage())
        .contains("column customer is string in the table but boolean in the record");
    lane.assertRunning();

    // The fix for this class: the same event, re-encoded with the version the table follows.
    String id = lane.dlqIdOf(poison, "SINK_TYPE_UNWRITABLE");
    Run repair = lane.dlq("repair", id, "--strategy", "avro-reencode", "--target-version", "1");
    assertThat(repair.exit()).as("repair: %s", repair).isZero();
    assertThat(repair.out()).contains("1 repaired, 0 already done");
    lane.awaitState("1=a1", "2=true", "3=a3");
    LedgerEntry entry = lane.ledgerEntries().get(Ledger.keyOf(lane.dlqAt(id)));
    assertThat(entry).as("ledger entry of %s", id).isNotNull();
    assertThat(entry.strategy()).isEqualTo("avro-reencode");
    assertThat(lane.dlq("list").out()).contains(id).contains("repaired ");
    assertThat(lane.dlqRecords()).as("the repaired event is not quarantined again").hasSize(1);
    lane.assertRunning();
  }

  @Test
  void directPathQuarantinesBytesThatAreNotWireAvroAndWritesTheRest() throws Exception {
    Lane lane = lane("it_q_direct");
    producer.send(lane.topic, key(1), change("c", null, row(1, "a0")));
    byte[] json = "{\"op\":\"c\",\"after\":{\"id\":2}}".getBytes(StandardCharsets.UTF_8);
    RecordMetadata poison = sendBytes(lane.topic, key(2), json);
    producer.send(lane.topic, key(3), change("c", null, row(3, "a3")));
    producer.send(lane.topic, key(1), change("u", row(1, "a0"), row(1, "a1")));
    producer.send(lane.topic, key(4), change("c", null, row(4, "a4")));
    producer.send(lane.topic, key(4), change("d", row(4, "a4"), null));
    lane.start(ConnectorConfigs.directPath(lane.config(Map.of()), registry.url()));

    lane.awaitState("1=a1", "3=a3");
    List<ConsumerRecord<byte[], byte[]>> all = lane.dlqRecords();
    assertThat(all).as("DLQ records in %s", lane.dlq).hasSize(1);
    DlqEnvelope quarantined = DlqEnvelope.fromJson(all.get(0).value());
    assertThat(quarantined.errorCode()).isEqualTo("SINK_CONVERSION_FAILED");
    assertThat(quarantined.originalOffset()).isEqualTo(poison.offset());
    assertThat(quarantined.originalValue()).isEqualTo(json);
    assertThat(quarantined.errorMessage())
        .contains("offset " + poison.offset())
        .contains("not Confluent-wire Avro")
        .doesNotContain("after");
    lane.assertRunning();
  }

  @Test
  void directPathQuarantinesWhatTheConverterPathDoes() throws Exception {
    Schema amountRow = AMOUNT_ROW;
    Schema envelope = Envelopes.envelope(amountRow);
    Lane lane = lane("it_q_direct_decimal");
    producer.send(lane.topic, key(1), change(envelope, "c", null, amount(amountRow, 1, "19.90")));
    RecordMetadata poison =
        producer.send(
            lane.topic, key(2), change(envelope, "c", null, amount(amountRow, 2, "123456789.01")));
    RecordMetadata noChange = producer.send(lane.topic, key(5), change("t", null, null));
    producer.send(lane.topic, key(3), change(envelope, "c", null, amount(amountRow, 3, "5.00")));
    lane.start(ConnectorConfigs.directPath(lane.config(Map.of()), registry.url()));

    lane.awaitState("1=a1", "3=a3");
    assertThat(lane.amounts()).containsEntry(1, new BigDecimal("19.90"));
    assertThat(lane.dlqIdOf(poison, "SINK_DECIMAL_OUT_OF_RANGE")).isNotNull();
    assertThat(lane.dlqIdOf(noChange, "SINK_CONVERSION_FAILED")).isNotNull();
    assertThat(lane.dlqRecords()).hasSize(2);
    lane.assertRunning();
  }

  @Test
  void recordThatIsNoChangeIsQuarantinedAsConversionFailed() throws Exception {
    Lane lane = lane("it_q_conversion");
    producer.send(lane.topic, key(1), change("c", null, row(1, "a1")));
    RecordMetadata poison = producer.send(lane.topic, key(2), change("t", null, null));
    producer.send(lane.topic, key(3), change("c", null, row(3, "a3")));
    lane.start(Map.of());

    lane.awaitState("1=a1", "3=a3");
    DlqEnvelope quarantined = lane.onlyDlqRecordFor(poison, "SINK_CONVERSION_FAILED");
    assertThat(quarantined.errorMessage()).contains("Debezium op 't' is not supported");
    lane.assertRunning();
  }

  @Test
  void crashBetweenTheDlqWriteAndTheIcebergCommitLeavesExactlyOneDlqRecord() throws Exception {
    Lane lane = lane("it_q_crash");
    producer.send(lane.topic, key(1), change("c", null, row(1, "a1")));
    RecordMetadata poison = producer.send(lane.topic, key(2), change("t", null, null));
    producer.send(lane.topic, key(3), change("c", null, row(3, "a3")));
    lane.startCrashing(Map.of(CrashingUpsertSinkTask.FAIL_AFTER_DLQ_WRITES, "1"));
    await("task fails after its DLQ write, before the Iceberg commit")
        .atMost(WAIT)
        // The worker answers 404 until the connector's status is first written.
        .ignoreException(ConnectRestClient.ConnectRestException.class)
        .until(
            () -> rest.status(lane.connector).tasks(),
            t -> !t.isEmpty() && t.get(0).state().equals("FAILED"));
    assertThat(rest.status(lane.connector).tasks().get(0).trace())
        .contains("failing after DLQ flush 1, before the Iceberg commit");
    assertThat(lane.dlqRecords()).hasSize(1);
    assertThat(lake.offsets(lane.table, lane.connector)).isEmpty();

    // New task configs (hook removed) make the worker restart the failed task: it reads the
    // poison record again, and the DLQ says it is already there.
    lane.startCrashing(Map.of());
    await("task restarted").atMost(WAIT).until(() -> rest.status(lane.connector).running());
    producer.send(lane.topic, key(4), change("c", null, row(4, "a4")));
    lane.awaitState("1=a1", "3=a3", "4=a4");
    lane.onlyDlqRecordFor(poison, "SINK_CONVERSION_FAILED");
    assertThat(lane.dlqRecords()).hasSize(1);
    Snapshot newest = lake.table(lane.table).currentSnapshot();
    assertThat(newest.summary()).containsKey(DlqOffsets.key(lane.connector));
    lane.assertRunning();
  }

  @Test
  void replayAfterTheColumnWasWidenedByHandLandsTheRowOnceAndRefusesAStaleOne() throws Exception {
    Schema amountRow = decimalRow(10);
    Schema envelope = Envelopes.envelope(amountRow);
    Lane lane = lane("it_q_replay");
    producer.send(lane.topic, key(1), change(envelope, "c", null, amount(amountRow, 1, "19.90")));
    RecordMetadata poison =
        producer.send(
            lane.topic, key(2), change(envelope, "c", null, amount(amountRow, 2, "123456789.01")));
    RecordMetadata stale =
        producer.send(
            lane.topic, key(3), change(envelope, "c", null, amount(amountRow, 3, "987654321.00")));
    // A newer event for key 3 follows its quarantined one: replaying that one would be stale.
    producer.send(lane.topic, key(3), change(envelope, "c", null, amount(amountRow, 3, "5.00")));
    lane.start(Map.of());
    lane.awaitState("1=a1", "3=a3");
    lane.assertRunning();
    String poisonId = lane.dlqIdOf(poison, "SINK_DECIMAL_OUT_OF_RANGE");
    String staleId = lane.dlqIdOf(stale, "SINK_DECIMAL_OUT_OF_RANGE");

    // The operator's fix, as Iceberg allows it: widen the column's precision (same scale).
    lake.table(lane.table)
        .updateSchema()
        .updateColumn("amount", Types.DecimalType.of(12, 2))
        .commit();
    Run replay = lane.dlq("replay", poisonId);
    assertThat(replay.exit()).as("replay: %s", replay).isZero();
    assertThat(replay.out()).contains("1 replayed, 0 already done");

    lane.awaitState("1=a1", "2=a2", "3=a3");
    assertThat(lane.amounts())
        .containsEntry(2, new BigDecimal("123456789.01"))
        .containsEntry(3, new BigDecimal("5.00"));
    LedgerEntry entry = lane.ledgerEntries().get(Ledger.keyOf(lane.dlqAt(poisonId)));
    assertThat(entry).as("ledger entry of %s", poisonId).isNotNull();
    assertThat(entry.action()).isEqualTo(LedgerEntry.Action.REPLAY);
    assertThat(entry.original()).isEqualTo(new Coordinates(lane.topic, 0, poison.offset()));
    assertThat(entry.produced().topic()).isEqualTo(lane.topic);

    Run again = lane.dlq("replay", poisonId);
    assertThat(again.exit()).as("second replay: %s", again).isZero();
    assertThat(again.out()).contains("already replayed").contains("0 replayed, 1 already done");

    Run refused = lane.dlq("replay", staleId);
    assertThat(refused.exit()).as("stale replay: %s", refused).isEqualTo(DlqCommand.EXIT_REFUSED);
    assertThat(refused.err())
        .contains("refusing to replay")
        .contains("a newer event for key")
        .contains(lane.topic + "-0@" + (stale.offset() + 1));
    Run forced = lane.dlq("replay", staleId, "--force");
    assertThat(forced.exit()).as("forced replay: %s", forced).isZero();
    await("the forced replay overwrites key 3 with its older event")
        .atMost(WAIT)
        .ignoreExceptions()
        .until(() -> new BigDecimal("987654321.00").equals(lane.amounts().get(3)));
    assertThat(lane.dlqRecords()).as("nothing quarantined after the fix").hasSize(2);
    lane.assertRunning();
  }

  private static Schema decimalRow(int precision) {
    return SchemaBuilder.struct()
        .name("broker.cdc_lab.orders.Value")
        .optional()
        .field("id", Schema.INT32_SCHEMA)
        .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
        .field(
            "amount",
            Decimal.builder(2)
                .parameter("connect.decimal.precision", String.valueOf(precision))
                .optional()
                .build())
        .build();
  }

  /** Sends {@code value} as it is, {@code key} as wire Avro (a producer that is not Sluice's). */
  private static RecordMetadata sendBytes(String topic, Struct key, byte[] value) throws Exception {
    byte[] keyBytes =
        new ConnectAvroCodec(HttpSchemaRegistryClient.create(registry.url()))
            .encode(Subjects.of(topic, true), key.schema(), key);
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG,
            "all");
    try (KafkaProducer<byte[], byte[]> raw =
        new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
      return raw.send(new ProducerRecord<>(topic, keyBytes, value)).get();
    }
  }

  private static Struct amount(Schema schema, int id, String amount) {
    return new Struct(schema)
        .put("id", id)
        .put("customer", "a" + id)
        .put("amount", new BigDecimal(amount));
  }

  private static Struct nullable(Schema schema, Integer id) {
    return new Struct(schema).put("id", id).put("customer", id == null ? "x" : "a" + id);
  }

  private static void setCompatibilityNone(String subject) throws Exception {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(registry.url() + "/config/" + subject))
            .header("Content-Type", "application/vnd.schemaregistry.v1+json")
            .PUT(HttpRequest.BodyPublishers.ofString("{\"compatibility\":\"NONE\"}"))
            .build();
    int status = HttpClient.newHttpClient().send(request, BodyHandlers.ofString()).statusCode();
    assertThat(status).as("PUT /config/%s", subject).isEqualTo(200);
  }

  private static Lane lane(String db) throws Exception {
    Lane lane = new Lane(db);
    stack.createTopics(1, lane.topic, lane.dlq);
    return lane;
  }

  /** What a {@code sluice dlq} run printed and returned. */
  private record Run(int exit, String out, String err) {}

  /** One connector with its input topic, DLQ topic (the router's naming) and table. */
  private static final class Lane {
    final String topic;
    final String dlq;
    final String connector;
    final TableIdentifier table;

    Lane(String db) {
      topic = "broker." + db + ".orders.clean";
      dlq = "broker." + db + ".orders.dlq";
      connector = db.replace('_', '-') + "-upsert";
      table = TableIdentifier.of(db, "orders_current");
    }

    void start(Map<String, String> extra) {
      rest.putConnector(connector, config(extra));
    }

    /** Starts a {@link CrashingUpsertSinkConnector}, its hooks armed by {@code hooks}. */
    void startCrashing(Map<String, String> hooks) {
      Map<String, String> config = config(hooks);
      config.put("connector.class", CrashingUpsertSinkConnector.class.getName());
      rest.putConnector(connector, config);
    }

    Map<String, String> config(Map<String, String> extra) {
      Map<String, String> config =
          new HashMap<>(
              ConnectorConfigs.upsertSink(topic, registry.url(), lake.catalogObject(), 500));
      config.put("errors.sink.tolerance", "all");
      config.put("kafka.bootstrap.servers", kafka.bootstrapServers());
      config.putAll(extra);
      return config;
    }

    void awaitState(String... rows) {
      await(connector + " writes " + List.of(rows))
          .atMost(WAIT)
          .ignoreExceptions()
          .until(
              () ->
                  lake.rows(table, "id").stream()
                      .map(r -> r.getField("id") + "=" + r.getField("customer"))
                      .toList(),
              s -> s.equals(List.of(rows)));
    }

    void assertRunning() {
      assertThat(rest.status(connector).running()).as("%s RUNNING", connector).isTrue();
      assertThat(rest.status(connector).tasks()).extracting(t -> t.state()).containsOnly("RUNNING");
    }

    /** The one DLQ record of {@code input}, checked against the input record's own bytes. */
    DlqEnvelope onlyDlqRecordFor(RecordMetadata input, String code) {
      List<ConsumerRecord<byte[], byte[]>> all = dlqRecords();
      assertThat(all).as("DLQ records in %s", dlq).hasSize(1);
      ConsumerRecord<byte[], byte[]> record = all.get(0);
      ConsumerRecord<byte[], byte[]> original =
          read(new TopicPartition(topic, input.partition()), input.offset());
      DlqEnvelope envelope = DlqEnvelope.fromJson(record.value());
      assertThat(envelope.errorCode()).isEqualTo(code);
      assertThat(envelope.originalTopic()).isEqualTo(topic);
      assertThat(envelope.originalPartition()).isEqualTo(input.partition());
      assertThat(envelope.originalOffset()).isEqualTo(input.offset());
      assertThat(envelope.originalValue()).isEqualTo(original.value());
      assertThat(envelope.originalKey()).isEqualTo(original.key());
      assertThat(envelope.originalValueSha256()).isEqualTo(Sha256.hex(original.value()));
      assertThat(envelope.originalTimestampMs()).isEqualTo(original.timestamp());
      assertThat(envelope.schemaId()).isNotNull();
      assertThat(envelope.sinkConnector()).isEqualTo(connector);
      assertThat(envelope.sinkTask()).isZero();
      assertThat(envelope.sinkTable()).isEqualTo(table.toString());
      assertThat(envelope.routerApplicationId()).isNull();
      assertThat(record.key()).isEqualTo(original.key());
      assertThat(header(record, DlqHeaders.ERROR_CODE)).isEqualTo(code);
      assertThat(header(record, DlqHeaders.ERRORS_TOPIC)).isEqualTo(topic);
      assertThat(header(record, DlqHeaders.ERRORS_OFFSET)).isEqualTo("" + input.offset());
      assertThat(header(record, DlqHeaders.CONNECT_TOPIC)).isEqualTo(topic);
      assertThat(header(record, DlqHeaders.CONNECT_PARTITION)).isEqualTo("" + input.partition());
      assertThat(header(record, DlqHeaders.CONNECT_OFFSET)).isEqualTo("" + input.offset());
      assertThat(header(record, DlqHeaders.CONNECT_CONNECTOR_NAME)).isEqualTo(connector);
      assertThat(header(record, DlqHeaders.CONNECT_TASK_ID)).isEqualTo("0");
      assertThat(header(record, DlqHeaders.CONNECT_STAGE)).isEqualTo("TASK_PUT");
      assertThat(header(record, DlqHeaders.CONNECT_CLASS_NAME))
          .isEqualTo(UpsertSinkTask.class.getName());
      assertThat(header(record, DlqHeaders.CONNECT_EXCEPTION_CLASS_NAME))
          .isEqualTo(envelope.errorType());
      assertThat(header(record, DlqHeaders.CONNECT_EXCEPTION_MESSAGE))
          .isEqualTo(envelope.errorMessage());
      return envelope;
    }

    /**
     * The id ({@code <partition>@<offset>}, as {@code sluice dlq list} prints it) of the one DLQ
     * record of {@code input}.
     */
    String dlqIdOf(RecordMetadata input, String code) {
      List<ConsumerRecord<byte[], byte[]>> of =
          dlqRecords().stream()
              .filter(r -> DlqEnvelope.fromJson(r.value()).originalOffset() == input.offset())
              .toList();
      assertThat(of).as("DLQ records of offset %d", input.offset()).hasSize(1);
      assertThat(DlqEnvelope.fromJson(of.get(0).value()).errorCode()).isEqualTo(code);
      return of.get(0).partition() + "@" + of.get(0).offset();
    }

    /** Where the DLQ record of {@code id} ({@code <partition>@<offset>}) is. */
    Coordinates dlqAt(String id) {
      String[] parts = id.split("@");
      return new Coordinates(dlq, Integer.parseInt(parts[0]), Long.parseLong(parts[1]));
    }

    /** The amount column of the current table, by id. */
    Map<Integer, BigDecimal> amounts() {
      Map<Integer, BigDecimal> out = new HashMap<>();
      lake.rows(table, "id")
          .forEach(r -> out.put((Integer) r.getField("id"), (BigDecimal) r.getField("amount")));
      return out;
    }

    /** {@code sluice dlq <args>} on this lane's DLQ, in-process, as an operator runs it. */
    Run dlq(String... args) {
      List<String> all = new ArrayList<>(List.of(args));
      all.addAll(
          List.of(
              "--bootstrap-server", kafka.bootstrapServers(),
              "--schema-registry-url", registry.url(),
              "--dlq-topic", dlq,
              "--ready-file", dir.resolve("no-ready.json").toString()));
      StringWriter out = new StringWriter();
      StringWriter err = new StringWriter();
      CommandLine cli = new CommandLine(new DlqCommand());
      cli.setOut(new PrintWriter(out, true));
      cli.setErr(new PrintWriter(err, true));
      int exit = cli.execute(all.toArray(String[]::new));
      return new Run(exit, out.toString(), err.toString());
    }

    /** The ledger ({@code <dlq>.repairs}) entries, by ledger key; the last one of a key wins. */
    Map<String, LedgerEntry> ledgerEntries() {
      Map<String, LedgerEntry> entries = new HashMap<>();
      Map<String, Object> config =
          Map.of(
              ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
              kafka.bootstrapServers(),
              ConsumerConfig.ISOLATION_LEVEL_CONFIG,
              "read_committed");
      try (KafkaConsumer<byte[], byte[]> consumer =
          new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
        TopicPartition tp = new TopicPartition(Ledger.topicFor(dlq), 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        long end = consumer.endOffsets(List.of(tp)).get(tp);
        await("read " + tp)
            .atMost(WAIT)
            .until(
                () -> {
                  for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(200))) {
                    entries.put(
                        new String(r.key(), StandardCharsets.UTF_8),
                        LedgerEntry.fromJson(r.value()));
                  }
                  return consumer.position(tp) >= end;
                });
      }
      return entries;
    }

    List<ConsumerRecord<byte[], byte[]>> dlqRecords() {
      try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
        TopicPartition tp = new TopicPartition(dlq, 0);
        consumer.assign(List.of(tp));
        consumer.seekToBeginning(List.of(tp));
        long end = consumer.endOffsets(List.of(tp)).get(tp);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        await("read " + dlq)
            .atMost(WAIT)
            .until(
                () -> {
                  consumer.poll(Duration.ofMillis(200)).forEach(out::add);
                  return consumer.position(tp) >= end;
                });
        return out;
      }
    }

    private static ConsumerRecord<byte[], byte[]> read(TopicPartition tp, long offset) {
      try (KafkaConsumer<byte[], byte[]> consumer = consumer()) {
        consumer.assign(List.of(tp));
        consumer.seek(tp, offset);
        List<ConsumerRecord<byte[], byte[]>> out = new ArrayList<>();
        await("read " + tp + " at " + offset)
            .atMost(WAIT)
            .until(
                () -> {
                  consumer.poll(Duration.ofMillis(200)).forEach(out::add);
                  return !out.isEmpty();
                });
        return out.get(0);
      }
    }

    private static KafkaConsumer<byte[], byte[]> consumer() {
      return new KafkaConsumer<>(
          Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
          new ByteArrayDeserializer(),
          new ByteArrayDeserializer());
    }

    private static String header(ConsumerRecord<byte[], byte[]> record, String key) {
      Header header = record.headers().lastHeader(key);
      return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
  }
}
