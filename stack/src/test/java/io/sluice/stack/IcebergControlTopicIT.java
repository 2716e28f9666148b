package io.sluice.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.contract.TopicNames;
import io.sluice.embedded.EmbeddedConnect;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.embedded.connect.IcebergControlTopic;
import io.sluice.embedded.connect.SinkWorkerProperties;
import io.sluice.lake.Catalogs;
import io.sluice.lake.IcebergRows;
import io.sluice.lake.LakeCatalog;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import io.sluice.stack.kafka.Topics;
import io.sluice.stack.workload.OrderRow;
import io.sluice.stack.workload.OrdersAvro;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.LongStream;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.connect.events.AvroUtil;
import org.apache.iceberg.connect.events.Event;
import org.apache.iceberg.connect.events.StartCommit;
import org.apache.iceberg.data.Record;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Apache Iceberg sink's control topic prepared by {@link IcebergControlTopic}, on a real broker
 * and Connect worker with the real sink: data files a worker announced before the coordinator's
 * first table commit reach the table after a restart.
 */
class IcebergControlTopicIT {
  private static final String TOPIC = "it.cdc_lab.orders.clean";
  private static final String CONTROL = "_it-iceberg-control";
  private static final String SINK = "it-changelog-sink";
  private static final String CHANGELOG = "cdc_lab.orders_changelog";
  private static final int RECORDS = 20;

  @TempDir static Path dir;
  private static EmbeddedKafka kafka;
  private static DevSchemaRegistry registry;
  private static Admin admin;

  @BeforeAll
  static void startBroker() {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"));
    registry = DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0);
    admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, (Object) kafka.bootstrapServers()));
  }

  @AfterAll
  static void stopBroker() {
    if (admin != null) {
      admin.close();
    }
    if (registry != null) {
      registry.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  void aGroupWithoutOffsetsStartsAtTheLogStartAndAGroupWithOffsetsIsLeftAlone() throws Exception {
    String topic = "_it-control-seeding";
    String connector = "it-seeding";
    String group = ConnectorConfigs.icebergCoordinatorGroup(connector);
    Topics.ensure(admin, topic, 1);
    assertThat(IcebergControlTopic.prepare(admin, topic, connector))
        .containsExactly(Map.entry(new TopicPartition(topic, 0), 0L));
    assertThat(committed(group)).containsExactly(Map.entry(new TopicPartition(topic, 0), 0L));

    // A group that has committed an offset (the coordinator did, after a table commit) keeps it.
    TopicPartition partition = new TopicPartition(topic, 0);
    try (KafkaProducer<byte[], byte[]> producer = producer()) {
      for (int i = 0; i < 5; i++) {
        producer.send(new ProducerRecord<>(topic, new byte[] {(byte) i})).get();
      }
    }
    admin.alterConsumerGroupOffsets(group, Map.of(partition, new OffsetAndMetadata(3))).all().get();
    assertThat(IcebergControlTopic.prepare(admin, topic, connector)).isEmpty();
    assertThat(committed(group)).containsExactly(Map.entry(partition, 3L));

    // Another connector's group on a topic whose start was deleted starts at the new start.
    admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(2))).all().get();
    String other = "it-seeding-other";
    assertThat(IcebergControlTopic.prepare(admin, topic, other))
        .containsExactly(Map.entry(partition, 2L));
    assertThat(committed(ConnectorConfigs.icebergCoordinatorGroup(other)))
        .containsExactly(Map.entry(partition, 2L));
  }

  /**
   * The worker answers a commit request (written here as the coordinator would) with its data
   * files, committing its source offsets past the records in the same transaction; the worker then
   * stops before any table commit. The next coordinator has to read that answer, or the records
   * never reach the table: Connect will not deliver them again.
   */
  @Test
  void dataFilesAnnouncedBeforeTheFirstTableCommitReachTheTableAfterARestart() throws Exception {
    Topics.ensure(admin, TOPIC, 1);
    Topics.ensure(admin, CONTROL, 1);
    IcebergControlTopic.prepare(admin, CONTROL, SINK);
    Map<String, String> catalog = Catalogs.embedded(dir.resolve("iceberg"));
    Files.createDirectories(dir.resolve("iceberg").resolve("warehouse"));
    String connectGroup = "connect-" + SINK;
    TopicPartition input = new TopicPartition(TOPIC, 0);

    try (LakeCatalog lake = Catalogs.open(catalog)) {
      try (EmbeddedConnect connect = worker()) {
        // An hour between commits: this coordinator never starts one.
        connect.client().putConnector(SINK, changelogSink(catalog, 3_600_000));
        connect.client().awaitRunning(SINK, Duration.ofSeconds(60));
        produce();
        try (KafkaProducer<byte[], byte[]> producer = producer()) {
          await("the worker answers a commit request with its files and source offsets")
              .atMost(Duration.ofSeconds(60))
              .pollInterval(Duration.ofSeconds(2))
              .until(
                  () -> {
                    Event startCommit = new Event(connectGroup, new StartCommit(UUID.randomUUID()));
                    producer.send(new ProducerRecord<>(CONTROL, AvroUtil.encode(startCommit)));
                    producer.flush();
                    Long offset = committed(connectGroup).get(input);
                    return offset != null && offset == RECORDS;
                  });
        }
      }
      assertThat(changelogOffsets(lake)).as("no table commit before the restart").isEmpty();

      try (EmbeddedConnect connect = worker()) {
        connect.client().putConnector(SINK, changelogSink(catalog, 1_000));
        connect.client().awaitRunning(SINK, Duration.ofSeconds(60));
        List<Long> expected = LongStream.range(0, RECORDS).boxed().toList();
        await("the changelog holds every record")
            .atMost(Duration.ofSeconds(60))
            .until(() -> changelogOffsets(lake).size() >= RECORDS);
        assertThat(changelogOffsets(lake)).containsExactlyInAnyOrderElementsOf(expected);
      }
    }
  }

  private static EmbeddedConnect worker() {
    return EmbeddedConnect.start(
        kafka.bootstrapServers(),
        "it-cg",
        0,
        SinkWorkerProperties.of(StackTimings.SINK_TOPIC_REFRESH_MS));
  }

  private static Map<String, String> changelogSink(Map<String, String> catalog, long commitMs) {
    Map<String, String> config =
        new LinkedHashMap<>(
            ConnectorConfigs.changelogSink(
                TOPIC,
                registry.url(),
                catalog,
                kafka.bootstrapServers(),
                CONTROL,
                commitMs,
                TopicNames.DEFAULTS.dlqTopicOfRecordsIn(TOPIC)));
    // A restarted worker's control consumer may join after the first commit request; the
    // coordinator then waits this long before it commits what it has (30 s by default).
    config.put("iceberg.control.commit.timeout-ms", "5000");
    return config;
  }

  private static void produce() throws Exception {
    OrdersAvro orders = OrdersAvro.register(HttpSchemaRegistryClient.create(registry.url()), TOPIC);
    try (KafkaProducer<byte[], byte[]> producer = producer()) {
      for (long id = 1; id <= RECORDS; id++) {
        producer
            .send(
                new ProducerRecord<>(
                    TOPIC, orders.key(id), orders.created(OrderRow.generate(id, 1))))
            .get();
      }
    }
  }

  /** The Kafka offsets of the changelog's rows; empty while the table does not exist. */
  private static List<Long> changelogOffsets(LakeCatalog lake) {
    if (!lake.catalog().tableExists(TableIdentifier.parse(CHANGELOG))) {
      return List.of();
    }
    List<Long> offsets = new ArrayList<>();
    for (Record row : IcebergRows.readAll(lake.table(CHANGELOG))) {
      offsets.add((Long) ((Record) row.getField("_kafka_metadata")).getField("offset"));
    }
    return offsets;
  }

  private static Map<TopicPartition, Long> committed(String group) throws Exception {
    Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
    admin
        .listConsumerGroupOffsets(group)
        .partitionsToOffsetAndMetadata()
        .get()
        .forEach((tp, om) -> offsets.put(tp, om == null ? null : om.offset()));
    return offsets;
  }

  private static KafkaProducer<byte[], byte[]> producer() {
    return new KafkaProducer<>(
        Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()),
        new ByteArraySerializer(),
        new ByteArraySerializer());
  }
}
