package io.sluice.stack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.contract.ReadyFile;
import io.sluice.embedded.TopicReader;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.lake.Catalogs;
import io.sluice.lake.IcebergRows;
import io.sluice.lake.LakeCatalog;
import io.sluice.lake.offsets.IcebergOffsets;
import io.sluice.schema.connect.ConnectAvroCodec;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.stack.db.OrdersWorkload;
import io.sluice.stack.workload.OrdersAvro;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.data.Record;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedStackIT {
  private static final String TOPIC = StackLayout.DEFAULT.mainTopic();
  private static final String GROUP = "embedded-stack-it";
  private static final TopicPartition PARTITION_0 = new TopicPartition(TOPIC, 0);
  private static final String CURRENT = StackLayout.DEFAULT.currentTable();
  private static final Duration LAKE_WAIT = Duration.ofSeconds(90);
  private static final List<String> ORDER_COLUMNS =
      List.of(
          "order_id",
          "business_key",
          "customer_id",
          "amount_cents",
          "status",
          "event_id",
          "seed",
          "updated_at");

  // Under java.io.tmpdir on purpose: a checkout under /tmp keeps its rows across a restart.
  @TempDir Path dataDir;
  @TempDir Path readyDir;

  private final HttpClient http = HttpClient.newHttpClient();

  @Test
  void stackAnswersOnEveryEndpointAndKeepsItsStateAcrossARestart() throws Exception {
    Path readyPath = readyDir.resolve("ready.json");
    StackOptions options = StackOptions.in(dataDir).withReadyFile(readyPath);
    StackPorts firstPorts;
    int schemaId;
    List<String> currentBefore;
    Map<TopicPartition, Long> offsetsBefore;

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
              "capture_admin_url",
              "connect_url",
              "iceberg_catalog",
              "warehouse",
              "upsert_sink_metrics_url",
              "router_config",
              "sink_config",
              "monitor_metrics_url",
              "topics")
          .containsEntry("bootstrap_servers", "127.0.0.1:" + firstPorts.kafka())
          .containsEntry(
              "topics",
              Map.of("clean_suffix", ".clean", "dlq_suffix", ".dlq", "repairs_suffix", ".repairs"))
          .containsEntry(
              "jdbc_url", "jdbc:mariadb://127.0.0.1:" + firstPorts.mariadb() + "/cdc_lab");
      assertThat(get(ready.get("capture_admin_url") + "/connectors/sluice-capture/status").body())
          .contains("\"state\":\"RUNNING\"");
      assertThat(ready.get("connect_url")).isEqualTo("http://127.0.0.1:" + firstPorts.connect());
      assertThat(get(ready.get("connect_url") + "/connectors").body())
          .contains("sluice-upsert-sink", "sluice-changelog-sink");
      Path iceberg = dataDir.resolve("iceberg");
      assertThat(ready.get("iceberg_catalog"))
          .isEqualTo(
              Map.of(
                  "name", "sluice",
                  "type", "jdbc",
                  "uri", "jdbc:sqlite:" + iceberg.resolve("catalog.db"),
                  "jdbc.schema-version", "V1",
                  "warehouse", "file://" + iceberg.resolve("warehouse")));
      assertThat(ready.get("warehouse")).isEqualTo("file://" + iceberg.resolve("warehouse"));
      // Meters appear with the first record of a table (see the load test below).
      assertThat(get(ready.get("upsert_sink_metrics_url").toString()).statusCode()).isEqualTo(200);
      assertThat(iceberg.resolve("catalog.db")).exists();
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

      try (Connection c = stack.mariaDb().connect()) {
        new OrdersWorkload(1).run(c, 30, 10, 5, line -> {});
      }
      try (LakeCatalog lake = Catalogs.open(new ReadyFile(readyPath).icebergCatalog())) {
        awaitCurrentTableEqualsSource(stack, lake);
        currentBefore = icebergRows(lake);
        offsetsBefore = IcebergOffsets.all(lake.table(CURRENT), StackLayout.DEFAULT.upsertSink());
      }
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

      try (LakeCatalog lake = Catalogs.open(stack.icebergCatalog())) {
        assertThat(icebergRows(lake))
            .as("current table kept across the restart")
            .isEqualTo(currentBefore);
        Map<TopicPartition, Long> offsets =
            IcebergOffsets.all(lake.table(CURRENT), StackLayout.DEFAULT.upsertSink());
        assertThat(offsets).containsOnlyKeys(offsetsBefore.keySet());
        offsetsBefore.forEach(
            (tp, offset) ->
                assertThat(offsets.get(tp)).as("offset of %s", tp).isGreaterThanOrEqualTo(offset));

        try (Connection c = stack.mariaDb().connect()) {
          new OrdersWorkload(2).run(c, 20, 5, 2, line -> {});
        }
        awaitCurrentTableEqualsSource(stack, lake);
        // Both sinks resumed where they stopped: no Kafka record written twice.
        await("changelog holds every event of the clean topic")
            .atMost(LAKE_WAIT)
            .ignoreExceptions()
            .until(() -> changelogCoordinates(lake).size(), n -> n == cleanEvents(stack).size());
        assertThat(changelogCoordinates(lake)).doesNotHaveDuplicates();
      }
    }
  }

  @Test
  void aLoadEndsUpInTheCurrentTableEqualToTheSourceAndEveryEventInTheChangelog(@TempDir Path tmp)
      throws Exception {
    try (EmbeddedStack stack = new EmbeddedStack(StackOptions.in(tmp.resolve("data"))).start();
        LakeCatalog lake = Catalogs.open(stack.icebergCatalog())) {
      assertThat(stack.connectClient().status(StackLayout.DEFAULT.upsertSink()).running()).isTrue();
      assertThat(stack.connectClient().status(StackLayout.DEFAULT.changelogSink()).running())
          .isTrue();
      // The upsert sink runs its direct path: the worker hands it the wire bytes.
      assertThat(stack.connectClient().connectorConfig(StackLayout.DEFAULT.upsertSink()))
          .containsEntry("value.converter", ConnectorConfigs.BYTE_ARRAY_CONVERTER)
          .containsEntry("key.converter", ConnectorConfigs.BYTE_ARRAY_CONVERTER)
          .containsEntry("schema.registry.url", stack.schemaRegistryUrl());
      try (Connection c = stack.mariaDb().connect()) {
        new OrdersWorkload(4).run(c, 300, 120, 40, line -> {});
      }

      awaitCurrentTableEqualsSource(stack, lake);
      assertThat(icebergRows(lake)).hasSize(300 - 40);
      assertThat(lake.table(CURRENT).schema().identifierFieldNames()).containsExactly("order_id");

      List<String> events = cleanEvents(stack);
      assertThat(events).hasSize(300 + 120 + 40);
      await("changelog holds every event of the clean topic")
          .atMost(LAKE_WAIT)
          .ignoreExceptions()
          .until(() -> changelogCoordinates(lake).size(), n -> n >= events.size());
      assertThat(changelogCoordinates(lake)).containsExactlyInAnyOrderElementsOf(events);
      Map<Object, Long> ops =
          IcebergRows.readAll(lake.table(StackLayout.DEFAULT.changelogTable())).stream()
              .collect(
                  Collectors.groupingBy(
                      r -> ((Record) r.getField("_cdc")).getField("op"), Collectors.counting()));
      assertThat(ops).containsExactlyInAnyOrderEntriesOf(Map.of("I", 300L, "U", 120L, "D", 40L));

      String sinkMetrics =
          get(stack.endpoints().get(ReadyFile.UPSERT_SINK_METRICS_URL).toString()).body();
      assertThat(sinkMetrics)
          .contains("sluice_sink_records_total{connector=\"sluice-upsert-sink\",op=\"c\"")
          .contains("sluice_sink_commits_total");

      // The monitor sees the router's DLQ (empty) and, once Connect has committed the offsets the
      // sink put in Iceberg, no upsert-sink lag on the clean topic.
      String monitor = stack.endpoints().get(ReadyFile.MONITOR_METRICS_URL).toString();
      await("monitor shows the upsert sink caught up and an empty DLQ backlog")
          .atMost(LAKE_WAIT)
          .untilAsserted(
              () ->
                  assertThat(get(monitor).body())
                      .contains(
                          "sluice_consumer_group_lag_records{group=\"connect-sluice-upsert-sink\","
                              + "topic=\""
                              + StackLayout.DEFAULT.cleanTopic()
                              + "\"} 0.0")
                      .contains(
                          "sluice_dlq_backlog_records{dlq_topic=\""
                              + StackLayout.DEFAULT.mainTopic()
                              + ".dlq\",error_code=\"UNREADABLE\",stage=\"unknown\",topic=\""
                              + StackLayout.DEFAULT.mainTopic()
                              + "\"} 0.0"));
    }
  }

  /** Waits until the current table holds exactly the rows of {@code cdc_lab.orders}. */
  private static void awaitCurrentTableEqualsSource(EmbeddedStack stack, LakeCatalog lake) {
    await("current table equals cdc_lab.orders")
        .atMost(LAKE_WAIT)
        .ignoreExceptions()
        .untilAsserted(() -> assertThat(icebergRows(lake)).isEqualTo(sourceRows(stack)));
  }

  private static List<String> sourceRows(EmbeddedStack stack) throws Exception {
    List<String> rows = new ArrayList<>();
    try (Connection c = stack.mariaDb().connect();
        Statement st = c.createStatement();
        ResultSet rs =
            st.executeQuery(
                "SELECT "
                    + String.join(", ", ORDER_COLUMNS)
                    + " FROM cdc_lab.orders ORDER BY order_id")) {
      while (rs.next()) {
        List<String> cells = new ArrayList<>();
        for (String column : ORDER_COLUMNS) {
          cells.add(
              column.equals("updated_at")
                  ? IcebergRows.timestamp(rs.getObject(column, LocalDateTime.class))
                  : rs.getString(column));
        }
        rows.add(String.join("|", cells));
      }
    }
    return rows;
  }

  /**
   * The current table's rows (Iceberg's reader, deletes applied) as {@link #sourceRows} has them.
   */
  private static List<String> icebergRows(LakeCatalog lake) {
    List<Record> records = IcebergRows.readAll(lake.table(CURRENT));
    records.sort(Comparator.comparing(r -> (Long) r.getField("order_id")));
    List<String> rows = new ArrayList<>();
    for (Record r : records) {
      rows.add(
          ORDER_COLUMNS.stream()
              .map(column -> IcebergRows.text(r.getField(column)))
              .collect(Collectors.joining("|")));
    }
    return rows;
  }

  /** {@code partition@offset} of every changelog row. */
  private static List<String> changelogCoordinates(LakeCatalog lake) {
    return IcebergRows.readAll(lake.table(StackLayout.DEFAULT.changelogTable())).stream()
        .map(r -> (Record) r.getField("_kafka_metadata"))
        .map(m -> m.getField("partition") + "@" + m.getField("offset"))
        .toList();
  }

  /** {@code partition@offset} of every change event (not tombstone) on the clean topic. */
  private static List<String> cleanEvents(EmbeddedStack stack) {
    return committed(stack, StackLayout.DEFAULT.cleanTopic()).stream()
        .filter(r -> r.value() != null)
        .map(r -> r.partition() + "@" + r.offset())
        .toList();
  }

  @Test
  void capturedChangesFlowThroughTheRouterToTheCleanTopicUnchanged(@TempDir Path tmp)
      throws Exception {
    try (EmbeddedStack stack = new EmbeddedStack(StackOptions.in(tmp.resolve("data"))).start()) {
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
              .withPorts(new StackPorts.Requested(0, first.ports().registry(), 0, 0, 0, 0, 0));

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
