package io.sluice.connect;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.connect.guard.ChangelogGuard;
import io.sluice.connect.testing.ConnectStack;
import io.sluice.connect.testing.Envelopes;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.DlqHeaders;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.embedded.connect.IcebergControlTopic;
import io.sluice.schema.Subjects;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Apache changelog sink as {@link ConnectorConfigs#changelogSink} configures it, on a real
 * Connect worker: a record its converter cannot read goes to the router's DLQ with Connect's
 * context headers, the task stays RUNNING, and the events around it reach the changelog. A record
 * its table cannot take (a retyped column) is refused by the {@link ChangelogGuard} at the
 * transform stage, while the upsert sink beside it quarantines the same record itself: each sink
 * dead-letters it once and both go on.
 */
class ChangelogSinkErrorToleranceIT {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String TOPIC = "broker.cdc_lab.orders.clean";
  private static final String DLQ = "broker.cdc_lab.orders.dlq";
  private static final String CONTROL = "control-changelog-errors-it";
  private static final String CONNECTOR = "changelog-errors";

  @TempDir static Path dir;
  private static ConnectStack stack;

  @BeforeAll
  static void startStack() throws Exception {
    stack = ConnectStack.start(dir, "sluice-changelog-errors-it");
  }

  @AfterAll
  static void stopStack() throws Exception {
    if (stack != null) {
      stack.close();
    }
  }

  @Test
  void aRecordTheConverterCannotReadGoesToTheDlqAndTheChangelogGoesOn() throws Exception {
    stack.createTopics(1, TOPIC, DLQ, CONTROL);
    try (Admin admin = stack.admin()) {
      IcebergControlTopic.prepare(admin, CONTROL, CONNECTOR);
    }
    stack.producer.send(TOPIC, key(1), change("c", null, row(1, "a1")));
    RecordMetadata poison = sendRaw("{\"id\": 2}".getBytes(StandardCharsets.UTF_8));
    stack.producer.send(TOPIC, key(3), change("c", null, row(3, "a3")));

    stack.rest.putConnector(
        CONNECTOR,
        ConnectorConfigs.changelogSink(
            TOPIC,
            stack.registry.url(),
            stack.lake.catalogObject(),
            stack.kafka.bootstrapServers(),
            CONTROL,
            1000,
            DLQ));

    TableIdentifier changelog = TableIdentifier.of("cdc_lab", "orders_changelog");
    await("the changelog holds the two readable events")
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(500))
        .until(() -> stack.lake.exists(changelog) && stack.lake.rows(changelog, "id").size() == 2);
    assertThat(stack.lake.rows(changelog, "id"))
        .extracting(r -> r.getField("id"))
        .containsExactly(1, 3);

    List<ConsumerRecord<byte[], byte[]>> dead = readAll(DLQ);
    assertThat(dead).hasSize(1);
    ConsumerRecord<byte[], byte[]> record = dead.get(0);
    assertThat(new String(record.value(), StandardCharsets.UTF_8)).isEqualTo("{\"id\": 2}");
    assertThat(header(record, "__connect.errors.topic")).isEqualTo(TOPIC);
    assertThat(header(record, "__connect.errors.offset"))
        .isEqualTo(String.valueOf(poison.offset()));
    assertThat(header(record, "__connect.errors.connector.name")).isEqualTo(CONNECTOR);
    assertThat(header(record, "__connect.errors.stage")).isEqualTo("VALUE_CONVERTER");
    assertThat(stack.rest.status(CONNECTOR).tasks())
        .extracting(ConnectRestClient.TaskStatus::state)
        .containsOnly("RUNNING");
  }

  @Test
  void aRecordTheTablesCannotTakeIsDeadLetteredOnceByEachSinkAndBothGoOn() throws Exception {
    String topic = "broker.it_guard.orders.clean";
    String dlq = "broker.it_guard.orders.dlq";
    String control = "control-guard-it";
    String upsert = "guard-upsert";
    String changelog = "guard-changelog";
    stack.createTopics(1, topic, dlq, control);
    try (Admin admin = stack.admin()) {
      IcebergControlTopic.prepare(admin, control, changelog);
    }
    // A newer schema version retypes amount_cents, as a registry that checks nothing lets it.
    stack.setCompatibilityNone(Subjects.value(topic));
    Schema v1 = amountRow(Schema.OPTIONAL_INT64_SCHEMA);
    Schema v2 = amountRow(Schema.OPTIONAL_STRING_SCHEMA);
    sendAmount(topic, v1, "c", 1, 100L);
    sendAmount(topic, v1, "c", 2, 200L);
    stack.rest.putConnector(
        upsert,
        ConnectorConfigs.quarantining(
            ConnectorConfigs.upsertSink(
                topic, stack.registry.url(), stack.lake.catalogObject(), 500),
            stack.kafka.bootstrapServers()));
    stack.rest.putConnector(
        changelog,
        ConnectorConfigs.changelogSink(
            topic,
            stack.registry.url(),
            stack.lake.catalogObject(),
            stack.kafka.bootstrapServers(),
            control,
            1000,
            dlq));
    TableIdentifier current = TableIdentifier.of("it_guard", "orders_current");
    TableIdentifier changes = TableIdentifier.of("it_guard", "orders_changelog");
    awaitAmounts(current, "1=100", "2=200");
    awaitAmounts(changes, "1=100", "2=200");

    RecordMetadata poison = sendAmount(topic, v2, "c", 3, "three hundred");
    sendAmount(topic, v1, "c", 4, 400L);
    sendAmount(topic, v1, "u", 1, 150L);

    awaitAmounts(current, "1=150", "2=200", "4=400");
    awaitAmounts(changes, "1=100", "1=150", "2=200", "4=400");
    await("both sinks dead-lettered the retyped record")
        .atMost(WAIT)
        .until(() -> readAll(dlq).size(), n -> n >= 2);
    List<ConsumerRecord<byte[], byte[]>> dead = readAll(dlq);
    ConsumerRecord<byte[], byte[]> original = readAt(topic, poison.offset());

    List<ConsumerRecord<byte[], byte[]>> byUpsert = ofConnector(dead, upsert);
    assertThat(byUpsert).as("the upsert sink's DLQ records").hasSize(1);
    DlqEnvelope envelope = DlqEnvelope.fromJson(byUpsert.get(0).value());
    assertThat(envelope.errorCode()).isEqualTo("SINK_TYPE_UNWRITABLE");
    assertThat(envelope.originalOffset()).isEqualTo(poison.offset());
    assertThat(envelope.originalValue()).isEqualTo(original.value());

    List<ConsumerRecord<byte[], byte[]>> byChangelog = ofConnector(dead, changelog);
    assertThat(byChangelog).as("the changelog sink's DLQ records").hasSize(1);
    ConsumerRecord<byte[], byte[]> refused = byChangelog.get(0);
    assertThat(refused.value()).isEqualTo(original.value());
    assertThat(refused.key()).isEqualTo(original.key());
    assertThat(header(refused, DlqHeaders.CONNECT_TOPIC)).isEqualTo(topic);
    assertThat(header(refused, DlqHeaders.CONNECT_OFFSET)).isEqualTo("" + poison.offset());
    assertThat(header(refused, DlqHeaders.CONNECT_STAGE)).isEqualTo("TRANSFORMATION");
    assertThat(header(refused, DlqHeaders.CONNECT_CLASS_NAME))
        .isEqualTo(ChangelogGuard.class.getName());
    assertThat(header(refused, DlqHeaders.CONNECT_EXCEPTION_MESSAGE))
        .startsWith(
            "record "
                + topic
                + "-0@"
                + poison.offset()
                + " cannot be written to table it_guard.orders_changelog: column amount_cents is"
                + " long in the table but string in the record")
        .doesNotContain("three hundred");

    for (String connector : List.of(upsert, changelog)) {
      assertThat(stack.rest.status(connector).tasks())
          .as("%s tasks", connector)
          .extracting(ConnectRestClient.TaskStatus::state)
          .containsOnly("RUNNING");
    }
  }

  private static Schema amountRow(Schema amountCents) {
    return SchemaBuilder.struct()
        .name("broker.it_guard.orders.Value")
        .optional()
        .field("id", Schema.INT32_SCHEMA)
        .field("amount_cents", amountCents)
        .build();
  }

  private static RecordMetadata sendAmount(
      String topic, Schema row, String op, int id, Object amountCents) {
    Struct after = new Struct(row).put("id", id).put("amount_cents", amountCents);
    return stack.producer.send(
        topic, key(id), change(Envelopes.envelope(row), "it_guard", "orders", op, null, after));
  }

  /** Waits until {@code table} holds exactly {@code rows} ({@code id=amount_cents}, sorted). */
  private static void awaitAmounts(TableIdentifier table, String... rows) {
    await(table + " holds " + List.of(rows))
        .atMost(WAIT)
        .pollInterval(Duration.ofMillis(500))
        .ignoreExceptions()
        .until(
            () ->
                stack.lake.rows(table, "id").stream()
                    .map(r -> r.getField("id") + "=" + r.getField("amount_cents"))
                    .sorted()
                    .toList(),
            List.of(rows)::equals);
  }

  private static List<ConsumerRecord<byte[], byte[]>> ofConnector(
      List<ConsumerRecord<byte[], byte[]>> records, String connector) {
    return records.stream()
        .filter(r -> connector.equals(header(r, DlqHeaders.CONNECT_CONNECTOR_NAME)))
        .toList();
  }

  private static ConsumerRecord<byte[], byte[]> readAt(String topic, long offset) {
    return readAll(topic).stream().filter(r -> r.offset() == offset).findFirst().orElseThrow();
  }

  private static RecordMetadata sendRaw(byte[] value) throws Exception {
    Properties props = new Properties();
    props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka.bootstrapServers());
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(props, new ByteArraySerializer(), new ByteArraySerializer())) {
      return producer.send(new ProducerRecord<>(TOPIC, 0, null, value)).get();
    }
  }

  private static List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
    Properties props = new Properties();
    props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, stack.kafka.bootstrapServers());
    props.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    try (KafkaConsumer<byte[], byte[]> consumer =
        new KafkaConsumer<>(props, new ByteArrayDeserializer(), new ByteArrayDeserializer())) {
      TopicPartition partition = new TopicPartition(topic, 0);
      consumer.assign(List.of(partition));
      consumer.seekToBeginning(List.of(partition));
      long end = consumer.endOffsets(List.of(partition)).get(partition);
      List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
      while (consumer.position(partition) < end) {
        consumer.poll(Duration.ofMillis(500)).forEach(records::add);
      }
      return records;
    }
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String key) {
    var header = record.headers().lastHeader(key);
    return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
  }
}
