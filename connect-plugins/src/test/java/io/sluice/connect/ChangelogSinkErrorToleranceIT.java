package io.sluice.connect;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.connect.testing.ConnectStack;
import io.sluice.embedded.ConnectRestClient;
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
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Apache changelog sink as {@link ConnectorConfigs#changelogSink} configures it, on a real
 * Connect worker: a record its converter cannot read goes to the router's DLQ with Connect's
 * context headers, the task stays RUNNING, and the events around it reach the changelog.
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
            1000));

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
