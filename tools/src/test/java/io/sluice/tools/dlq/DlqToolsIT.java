package io.sluice.tools.dlq;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.dlq.DlqFormat;
import io.sluice.dlq.DlqRecordBuilder;
import io.sluice.dlq.Rejection;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.TopicReader;
import io.sluice.schema.Subjects;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import io.sluice.schema.wire.WireFormat;
import io.sluice.schema.wire.WireFormatException;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.repair.AvroWire;
import io.sluice.tools.dlq.repair.DebeziumEnvelopeBuilder;
import io.sluice.tools.dlq.testing.TestSchemas;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The dlq commands against a real KRaft broker and the dev registry, on DLQ records written the way
 * the router writes them ({@link DlqRecordBuilder}).
 */
class DlqToolsIT {
  private static final String TOPIC = TestSchemas.TOPIC;
  private static final String DLQ = TOPIC + ".dlq";
  private static final String LEDGER = DLQ + ".repairs";
  private static final int PARTITIONS = 3;
  private static final Duration COMMITTED = Duration.ofSeconds(30);

  @TempDir static Path dir;
  private static EmbeddedKafka kafka;
  private static DevSchemaRegistry registry;
  private static KafkaProducer<byte[], byte[]> producer;
  private static int keySchemaId;
  private static int valueSchemaId;

  @BeforeAll
  static void start() throws Exception {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"));
    registry = DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0);
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(TOPIC, PARTITIONS, (short) 1),
                  new NewTopic(DLQ, PARTITIONS, (short) 1)))
          .all()
          .get();
    }
    HttpSchemaRegistryClient client = HttpSchemaRegistryClient.create(registry.url());
    keySchemaId = client.register(Subjects.key(TOPIC), TestSchemas.ordersKey());
    valueSchemaId = client.register(Subjects.value(TOPIC), TestSchemas.ordersEnvelope());
    producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
            new ByteArraySerializer(),
            new ByteArraySerializer());
  }

  @AfterAll
  static void stop() {
    if (producer != null) {
      producer.close();
    }
    if (registry != null) {
      registry.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void listShowRepairReplayAndTheStaleWriteGuardOnARealBroker() throws Exception {
    RecordMetadata poison = poison(42, intended(42));
    long dlqOffset = quarantine(poison, 42, intended(42));

    Run list = dlq("list");
    assertThat(list.exit).as(list.err).isZero();
    assertThat(list.out)
        .containsPattern(
            poison.partition()
                + "@"
                + dlqOffset
                + " +"
                + TOPIC
                + "-"
                + poison.partition()
                + "@"
                + poison.offset()
                + " +router +NOT_AVRO_WIRE_FORMAT +\\d+s +1 +-");

    Run show = dlq("show", String.valueOf(dlqOffset), "--partition", "" + poison.partition());
    assertThat(show.exit).as(show.err).isZero();
    assertThat(show.out)
        .contains("key              {\"order_id\": 42} (Avro, schema id " + keySchemaId + ")")
        .contains(intended(42));

    Run dryRun = repair(dlqOffset, poison.partition(), "--dry-run");
    assertThat(dryRun.exit).as(dryRun.err).isZero();
    assertThat(dryRun.out)
        .contains("dry run: would repair")
        .contains("value schema id " + valueSchemaId);
    assertThat(TopicReader.readCommitted(kafka.bootstrapServers(), LEDGER)).isEmpty();

    int before = records(TOPIC).size();
    Run repaired = repair(dlqOffset, poison.partition());
    assertThat(repaired.exit).as(repaired.err).isZero();
    List<ConsumerRecord<byte[], byte[]>> main = committed(TOPIC, before + 1);
    assertThat(main).hasSize(before + 1);
    ConsumerRecord<byte[], byte[]> event =
        main.stream()
            .filter(r -> r.offset() > poison.offset() && r.partition() == poison.partition())
            .findFirst()
            .orElseThrow();
    assertThat(event.partition())
        .isEqualTo(BuiltInPartitioner.partitionForKey(key(42), PARTITIONS))
        .isEqualTo(poison.partition());
    assertThat(event.key()).isEqualTo(key(42));
    int schemaId = WireFormat.schemaId(event.value());
    Schema registered = HttpSchemaRegistryClient.create(registry.url()).schemaById(schemaId);
    GenericRecord decoded = (GenericRecord) AvroWire.decode(event.value(), registered);
    assertThat(schemaId).isEqualTo(valueSchemaId);
    assertThat(((GenericRecord) decoded.get("after")).get("order_id")).isEqualTo(42L);
    assertThat(((GenericRecord) decoded.get("source")).get("connector").toString())
        .isEqualTo(DebeziumEnvelopeBuilder.CONNECTOR);
    assertThat(ledger(1)).hasSize(1);

    Run again = repair(dlqOffset, poison.partition());
    assertThat(again.exit).as(again.err).isZero();
    assertThat(again.out).contains("already repaired at");
    assertThat(records(TOPIC)).hasSize(before + 1);
    assertThat(ledger()).hasSize(1);

    // Replay: the original bytes back to the original partition.
    RecordMetadata replayable = poison(7, "{\"order_id\": 7}");
    long replayOffset = quarantine(replayable, 7, "{\"order_id\": 7}");
    Run replay =
        dlq("replay", String.valueOf(replayOffset), "--partition", "" + replayable.partition());
    assertThat(replay.exit).as(replay.err).isZero();
    ConsumerRecord<byte[], byte[]> replayed = lastAfter(TOPIC, replayable);
    assertThat(replayed.offset()).isGreaterThan(replayable.offset());
    assertThat(replayed.value()).isEqualTo("{\"order_id\": 7}".getBytes(StandardCharsets.UTF_8));
    assertThat(replayed.key()).isEqualTo(key(7));
    assertThat(ledger(2)).hasSize(2);

    // Stale-write guard: a newer event for key 9 follows its poison record.
    RecordMetadata stale = poison(9, intended(9));
    long staleOffset = quarantine(stale, 9, intended(9));
    RecordMetadata newer = producer.send(new ProducerRecord<>(TOPIC, key(9), validValue(9))).get();
    Run refused = repair(staleOffset, stale.partition());
    assertThat(refused.exit).isEqualTo(DlqCommand.EXIT_REFUSED);
    assertThat(refused.err)
        .contains(
            "a newer event for key {order_id=9} follows it at "
                + TOPIC
                + "-"
                + newer.partition()
                + "@"
                + newer.offset())
        .contains("--force");
    Run forced = repair(staleOffset, stale.partition(), "--force");
    assertThat(forced.exit).as(forced.err).isZero();
    List<LedgerEntry> entries = ledger(3);
    assertThat(entries).hasSize(3);
    assertThat(entries.get(2).forced()).isTrue();
    assertThat(lastAfter(TOPIC, newer).offset()).isGreaterThan(newer.offset());

    Run finalList = dlq("list");
    assertThat(finalList.out).contains("repaired ").contains("replayed ").contains("(forced)");
  }

  @Test
  void aSinkInputAZombieQuarantinedTwiceIsListedAndReplayedOnce() throws Exception {
    String clean = "it.shop.zombie.clean";
    String dlq = "it.shop.zombie.dlq";
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      admin
          .createTopics(
              List.of(
                  new NewTopic(clean, PARTITIONS, (short) 1),
                  new NewTopic(dlq, PARTITIONS, (short) 1)))
          .all()
          .get();
    }
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", "t".getBytes(StandardCharsets.UTF_8));
    byte[] value = validValue(11);
    RecordMetadata input =
        producer.send(new ProducerRecord<>(clean, null, key(11), value, headers)).get();
    // A zombie task (0) and its successor (2) both quarantine the input before the fence stops
    // the zombie: the same envelope and __connect.errors.* headers, at two DLQ offsets.
    RecordMetadata zombie = sinkQuarantine(dlq, input, key(11), value, headers, 0);
    RecordMetadata successor = sinkQuarantine(dlq, input, key(11), value, headers, 2);
    assertThat(successor.partition()).isEqualTo(zombie.partition());
    String first = zombie.partition() + "@" + zombie.offset();
    String copy = zombie.partition() + "@" + successor.offset();

    Run list = dlqOn(dlq, "list");
    assertThat(list.exit).as(list.err).isZero();
    assertThat(list.out)
        .containsPattern(
            first
                + " +"
                + clean
                + "-"
                + input.partition()
                + "@"
                + input.offset()
                + " +sink sluice-upsert-sink/0 +SINK_DECIMAL_OUT_OF_RANGE +\\d+s +2 +-\n")
        .doesNotContain("\n" + copy + " ")
        .contains(
            "1 input(s) in "
                + dlq
                + " (2 DLQ record(s), 1 of them later copies a zombie sink"
                + " task wrote)");
    assertThat(dlqOn(dlq, "show", copy).out).contains("copy_of          " + dlq + "-" + first);

    Run replay = dlqOn(dlq, "replay", "--all");
    assertThat(replay.exit).as(replay.err).isZero();
    assertThat(replay.out)
        .contains("DLQ record " + dlq + "-" + copy + ": a later copy of sink sluice-upsert-sink")
        .contains(
            "replay: 1 replayed, 0 already done, 0 refused, 0 failed of 1 input(s);"
                + " 1 later DLQ copy skipped");
    List<ConsumerRecord<byte[], byte[]>> replayed = committed(clean, 2);
    assertThat(replayed).hasSize(2);
    assertThat(replayed.get(1).partition()).isEqualTo(input.partition());
    assertThat(replayed.get(1).key()).isEqualTo(key(11));
    assertThat(replayed.get(1).value()).isEqualTo(value);
    List<ConsumerRecord<byte[], byte[]>> ledger = committed(dlq + ".repairs", 1);
    assertThat(ledger).hasSize(1);
    assertThat(LedgerEntry.fromJson(ledger.get(0).value()).dlq().offset())
        .isEqualTo(zombie.offset());

    Run again = dlqOn(dlq, "replay", "--all");
    assertThat(again.exit).as(again.err).isZero();
    assertThat(again.out)
        .contains(
            "replay: 0 replayed, 1 already done, 0 refused, 0 failed of 1 input(s);"
                + " 1 later DLQ copy skipped");
    await("nothing more on " + clean + " or in the ledger")
        .during(Duration.ofSeconds(2))
        .atMost(COMMITTED)
        .until(() -> records(clean).size() == 2 && records(dlq + ".repairs").size() == 1);
  }

  /** Writes the DLQ record the upsert sink's task {@code task} writes for {@code input}. */
  private static RecordMetadata sinkQuarantine(
      String dlq, RecordMetadata input, byte[] key, byte[] value, RecordHeaders headers, int task)
      throws Exception {
    DlqRecordBuilder sink =
        DlqRecordBuilder.forSink(
            new DlqRecordBuilder.SinkTask(
                "sluice-upsert-sink", task, "io.sluice.connect.upsert.UpsertSinkTask"),
            Clock.systemUTC());
    DlqRecordBuilder.Original original =
        new DlqRecordBuilder.Original(
            input.topic(),
            input.partition(),
            input.offset(),
            input.timestamp(),
            key,
            value,
            headers);
    Rejection why =
        new Rejection(
            "SINK_DECIMAL_OUT_OF_RANGE",
            "io.sluice.connect.upsert.quarantine.RecordRejectedException",
            "column amount_cents does not fit its column",
            valueSchemaId,
            keySchemaId);
    // No partition: the sink's producer partitions DLQ records by the original key.
    return producer
        .send(
            new ProducerRecord<>(
                dlq,
                null,
                key,
                sink.value(original, why, "shop.orders_current"),
                sink.headers(original, why)))
        .get();
  }

  private static RecordMetadata poison(long orderId, String json) throws Exception {
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", "t".getBytes(StandardCharsets.UTF_8));
    return producer
        .send(
            new ProducerRecord<>(
                TOPIC, null, key(orderId), json.getBytes(StandardCharsets.UTF_8), headers))
        .get();
  }

  /** Writes the DLQ record the router would write for {@code poison}; returns its offset. */
  private static long quarantine(RecordMetadata poison, long orderId, String json)
      throws Exception {
    DlqRecordBuilder builder =
        new DlqRecordBuilder(DlqFormat.ENVELOPE, "sluice-router", Clock.systemUTC());
    RecordHeaders headers = new RecordHeaders();
    headers.add("trace", "t".getBytes(StandardCharsets.UTF_8));
    DlqRecordBuilder.Original original =
        new DlqRecordBuilder.Original(
            TOPIC,
            poison.partition(),
            poison.offset(),
            poison.timestamp(),
            key(orderId),
            json.getBytes(StandardCharsets.UTF_8),
            headers);
    Rejection why =
        new Rejection(
            "NOT_AVRO_WIRE_FORMAT",
            WireFormatException.class.getName(),
            "value is not in the Confluent wire format",
            null,
            keySchemaId);
    return producer
        .send(
            new ProducerRecord<>(
                DLQ,
                poison.partition(),
                null,
                key(orderId),
                builder.value(original, why),
                builder.headers(original, why)))
        .get()
        .offset();
  }

  private static byte[] key(long orderId) {
    GenericRecord key = new GenericData.Record(TestSchemas.ordersKey());
    key.put("order_id", orderId);
    return AvroWire.encode(keySchemaId, TestSchemas.ordersKey(), key);
  }

  private static byte[] validValue(long orderId) {
    // Build a valid event the same way a capture would: through the repair builder, from a row.
    var event =
        new DebeziumEnvelopeBuilder(Clock.systemUTC())
            .build(
                TestSchemas.ordersEnvelope(),
                TOPIC,
                io.sluice.tools.dlq.repair.IntendedRow.parse(
                    intended(orderId).getBytes(StandardCharsets.UTF_8)));
    return AvroWire.encode(valueSchemaId, TestSchemas.ordersEnvelope(), event);
  }

  private static String intended(long orderId) {
    return "{\"intended_after\": {\"order_id\": "
        + orderId
        + ", \"customer\": \"ada\","
        + " \"amount_cents\": 1250, \"updated_at\": \"2026-03-01 10:15:30.250\"},"
        + " \"intended_operation\": \"c\", \"repair_format\": \"it\"}";
  }

  private static List<ConsumerRecord<byte[], byte[]>> records(String topic) {
    return TopicReader.readCommitted(kafka.bootstrapServers(), topic);
  }

  /**
   * The records of {@code topic} once at least {@code size} are visible to read_committed: a
   * producer's commit returns before its transaction markers are written, so a read right after it
   * may not see the transaction yet.
   */
  private static List<ConsumerRecord<byte[], byte[]>> committed(String topic, int size) {
    return await("committed records of " + topic)
        .atMost(COMMITTED)
        .until(() -> records(topic), r -> r.size() >= size);
  }

  /** The last record of {@code after}'s partition, once one past {@code after} is committed. */
  private static ConsumerRecord<byte[], byte[]> lastAfter(String topic, RecordMetadata after) {
    return await("a committed record after " + after)
        .atMost(COMMITTED)
        .until(() -> last(topic, after.partition()), r -> r.offset() > after.offset());
  }

  private static List<LedgerEntry> ledger(int size) {
    return committed(LEDGER, size).stream().map(r -> LedgerEntry.fromJson(r.value())).toList();
  }

  private static ConsumerRecord<byte[], byte[]> last(String topic, int partition) {
    List<ConsumerRecord<byte[], byte[]>> of =
        records(topic).stream().filter(r -> r.partition() == partition).toList();
    return of.get(of.size() - 1);
  }

  private static List<LedgerEntry> ledger() {
    return records(LEDGER).stream().map(r -> LedgerEntry.fromJson(r.value())).toList();
  }

  private static Run repair(long offset, int partition, String... extra) {
    List<String> args =
        new ArrayList<>(
            List.of(
                "repair",
                String.valueOf(offset),
                "--partition",
                String.valueOf(partition),
                "--strategy",
                "json-intended-row"));
    args.addAll(List.of(extra));
    return dlq(args.toArray(String[]::new));
  }

  private record Run(int exit, String out, String err) {}

  private static Run dlq(String... args) {
    return dlqOn(DLQ, args);
  }

  private static Run dlqOn(String dlqTopic, String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(
        List.of(
            "--bootstrap-server", kafka.bootstrapServers(),
            "--schema-registry-url", registry.url(),
            "--dlq-topic", dlqTopic,
            "--ready-file", dir.resolve("no-ready.json").toString()));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new DlqCommand());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(all.toArray(String[]::new));
    return new Run(exit, out.toString(), err.toString());
  }
}
