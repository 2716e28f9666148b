package io.sluice.capture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.capture.config.CaptureConfig;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.embedded.TopicReader;
import io.sluice.schema.connect.ConnectAvroCodec;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.utils.Utils;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Capture against a real MariaDB, a real broker and the dev registry. */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CaptureIT {
  private static final Logger log = LoggerFactory.getLogger(CaptureIT.class);
  private static final Duration WAIT = Duration.ofSeconds(60);

  private final Path dir = Path.of("target", "it-capture-" + UUID.randomUUID()).toAbsolutePath();
  private EmbeddedKafka kafka;
  private DevSchemaRegistry registry;
  private EmbeddedMariaDb db;
  private SchemaRegistryClient client;
  private ConnectAvroCodec codec;
  private int table;

  @BeforeAll
  void startInfrastructure() {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"));
    registry = DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0);
    db = EmbeddedMariaDb.start(dir.resolve("mariadb"), 0);
    client = HttpSchemaRegistryClient.create(registry.url());
    codec = new ConnectAvroCodec(client);
  }

  @AfterAll
  void stopInfrastructure() throws IOException {
    db.close();
    registry.close();
    kafka.close();
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  /** Each test captures its own table so their topics and offsets never mix. */
  @BeforeEach
  void freshTable() throws SQLException {
    table++;
    sql(
        "CREATE TABLE "
            + orders()
            + " (order_id BIGINT NOT NULL PRIMARY KEY, status VARCHAR(16) NOT NULL,"
            + " amount_cents BIGINT NOT NULL, updated_at DATETIME(3) NOT NULL)");
  }

  @Test
  void insertsUpdatesAndDeletesArriveAsDecodableEnvelopesKeyedByPrimaryKey() throws Exception {
    try (CaptureService capture = capture("capture-crud")) {
      startStreaming(capture);
      sql(
          insert(1, "NEW"),
          insert(2, "NEW"),
          insert(3, "NEW"),
          "UPDATE " + orders() + " SET status = 'PAID' WHERE order_id = 2",
          "DELETE FROM " + orders() + " WHERE order_id = 3");

      List<ConsumerRecord<byte[], byte[]>> records = awaitRecords(topic(), 7); // + tombstone
      List<String> ops = new ArrayList<>();
      for (ConsumerRecord<byte[], byte[]> r : records) {
        Struct key = (Struct) codec.decode(r.topic(), r.key()).value();
        int expected = Utils.toPositive(Utils.murmur2(r.key())) % 3;
        assertThat(r.partition()).as("partition of key %s", key).isEqualTo(expected);
        if (r.value() == null) {
          ops.add("tombstone:" + key.getInt64("order_id"));
          continue;
        }
        Struct envelope = (Struct) codec.decode(r.topic(), r.value()).value();
        Struct row =
            envelope.getString("op").equals("d")
                ? envelope.getStruct("before")
                : envelope.getStruct("after");
        assertThat(row.getInt64("order_id")).isEqualTo(key.getInt64("order_id"));
        ops.add(
            envelope.getString("op") + ":" + row.getInt64("order_id") + ":" + row.get("status"));
      }
      assertThat(ops)
          .containsExactlyInAnyOrder(
              "r:0:NEW", "c:1:NEW", "c:2:NEW", "c:3:NEW", "u:2:PAID", "d:3:NEW", "tombstone:3");
      assertThat(client.versions(topic() + "-key")).hasSize(1);
      assertThat(client.versions(topic() + "-value")).hasSize(1);
    }
  }

  @Test
  void pausedCaptureEmitsNothingAndResumedCaptureEmitsEveryChangeMadeMeanwhile() throws Exception {
    try (CaptureService capture = capture("capture-pause")) {
      startStreaming(capture);

      await("snapshot done, binlog streaming").atMost(WAIT).until(capture::isStreaming);
      assertThat(get(capture, "status")).contains("\"streaming\":true");
      assertThat(put(capture, "pause")).isEqualTo(202);
      assertThat(get(capture, "status")).contains("\"state\":\"PAUSED\"");
      sql(insert(2, "NEW"), insert(3, "NEW"), "UPDATE " + orders() + " SET status='X'");
      await("nothing published while paused")
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(10))
          .until(() -> readAll(topic()).size() == 1);

      assertThat(put(capture, "resume")).isEqualTo(202);
      assertThat(get(capture, "status")).contains("\"state\":\"RUNNING\"");
      List<ConsumerRecord<byte[], byte[]>> records = awaitRecords(topic(), 6);
      assertThat(ops(records)).containsExactly("c", "c", "r", "u", "u", "u");
    }
  }

  @Test
  void addedColumnRegistersABackwardCompatibleVersionAndNewEventsCarryIt() throws Exception {
    try (CaptureService capture = capture("capture-ddl")) {
      startStreaming(capture);
      sql(
          "ALTER TABLE " + orders() + " ADD COLUMN note VARCHAR(32) NULL",
          "INSERT INTO "
              + orders()
              + " VALUES (2, 'NEW', 100, '2026-01-01 00:00:00.000', 'hello')");
      List<ConsumerRecord<byte[], byte[]>> records = awaitRecords(topic(), 2);
      Struct after =
          ((Struct) codec.decode(topic(), records.get(records.size() - 1).value()).value())
              .getStruct("after");
      assertThat(after.getString("note")).isEqualTo("hello");
      assertThat(client.versions(topic() + "-value")).hasSize(2);
      assertThat(capture.state()).isEqualTo(CaptureState.RUNNING);
    }
  }

  @Test
  void captureKilledHardAndRestartedLosesNoChange() throws Exception {
    Path props = dir.resolve("capture-" + table + ".properties");
    Files.createDirectories(dir);
    Properties p = new Properties();
    settings("capture-hard").forEach((k, v) -> p.setProperty(k, String.valueOf(v)));
    try (var out = Files.newBufferedWriter(props)) {
      p.store(out, null);
    }
    Process child =
        new ProcessBuilder(
                ProcessHandle.current().info().command().orElse("java"),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                CaptureMain.class.getName(),
                props.toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("capture-" + table + ".log").toFile())
            .start();
    try {
      for (int i = 1; i <= 50; i++) {
        sql(insert(i, "NEW"));
      }
      awaitRecords(topic(), 10);
    } finally {
      child.destroyForcibly();
      child.waitFor(30, TimeUnit.SECONDS);
    }
    for (int i = 51; i <= 80; i++) {
      sql(insert(i, "NEW"));
    }
    try (CaptureService capture = new CaptureService(new CaptureConfig(settings("capture-hard")))) {
      capture.start();
      await("every insert published at least once")
          .atMost(WAIT)
          .until(() -> insertedIds(readAll(topic())).keySet().size() == 80);
      Map<Long, Long> counts = insertedIds(readAll(topic()));
      long duplicates = counts.values().stream().mapToLong(c -> c - 1).sum();
      assertThat(counts.keySet()).hasSize(80);
      log.info("hard stop: 80 inserts, {} duplicates re-emitted", duplicates);
    }
  }

  @Test
  void aChangeKafkaRefusesRestartsTheEngineWhichReEmitsItOnceKafkaTakesItAgain() throws Exception {
    try (CaptureService capture = capture("capture-restart");
        Admin admin =
            Admin.create(
                Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      startStreaming(capture);
      ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic());
      ConfigEntry tiny = new ConfigEntry(TopicConfig.MAX_MESSAGE_BYTES_CONFIG, "16");
      admin
          .incrementalAlterConfigs(
              Map.of(resource, List.of(new AlterConfigOp(tiny, AlterConfigOp.OpType.SET))))
          .all()
          .get();
      sql(insert(1, "NEW"));
      await("the refused change restarts the engine")
          .atMost(WAIT)
          .until(() -> capture.engineRestarts() >= 1);
      assertThat(capture.state()).isEqualTo(CaptureState.RUNNING);

      admin
          .incrementalAlterConfigs(
              Map.of(resource, List.of(new AlterConfigOp(tiny, AlterConfigOp.OpType.DELETE))))
          .all()
          .get();
      sql(insert(2, "NEW"));
      await("every insert published after the restart")
          .atMost(WAIT)
          .until(() -> insertedIds(readAll(topic())).keySet().containsAll(List.of(0L, 1L, 2L)));
      assertThat(capture.state()).isEqualTo(CaptureState.RUNNING);
    }
  }

  /**
   * Starts capture on a table holding one row (order_id 0) and waits for its snapshot record: the
   * snapshot's binlog position precedes that read, so every later change is streamed.
   */
  private void startStreaming(CaptureService capture) throws SQLException {
    sql(insert(0, "NEW"));
    capture.start();
    awaitRecords(topic(), 1);
  }

  private Map<Long, Long> insertedIds(List<ConsumerRecord<byte[], byte[]>> records) {
    return records.stream()
        .filter(r -> r.value() != null)
        .map(r -> (Struct) codec.decode(r.topic(), r.value()).value())
        .filter(e -> e.getString("op").equals("c") || e.getString("op").equals("r"))
        .collect(
            Collectors.groupingBy(
                e -> e.getStruct("after").getInt64("order_id"), Collectors.counting()));
  }

  private List<String> ops(List<ConsumerRecord<byte[], byte[]>> records) {
    return records.stream()
        .sorted(Comparator.comparingLong(ConsumerRecord::timestamp))
        .map(r -> ((Struct) codec.decode(r.topic(), r.value()).value()).getString("op"))
        .sorted()
        .toList();
  }

  private String orders() {
    return EmbeddedMariaDb.DATABASE + ".orders_" + table;
  }

  private String topic() {
    return "it." + orders();
  }

  private String insert(long id, String status) {
    return "INSERT INTO "
        + orders()
        + " VALUES ("
        + id
        + ", '"
        + status
        + "', "
        + (id * 100)
        + ", '2026-01-01 00:00:00.000')";
  }

  private Map<String, Object> settings(String name) {
    Map<String, Object> s = new HashMap<>();
    s.put(CaptureConfig.NAME_CONFIG, name);
    s.put(CaptureConfig.DATABASE_PORT_CONFIG, db.port());
    s.put(CaptureConfig.DATABASE_USER_CONFIG, EmbeddedMariaDb.CDC_USER);
    s.put(CaptureConfig.DATABASE_PASSWORD_CONFIG, EmbeddedMariaDb.CDC_PASSWORD);
    s.put(CaptureConfig.DATABASE_INCLUDE_LIST_CONFIG, EmbeddedMariaDb.DATABASE);
    s.put(CaptureConfig.TABLE_INCLUDE_LIST_CONFIG, orders().replace(".", "\\."));
    s.put(CaptureConfig.DATABASE_SERVER_ID_CONFIG, 6000 + table);
    s.put(CaptureConfig.TOPIC_PREFIX_CONFIG, "it");
    s.put(CaptureConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    s.put(CaptureConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.url());
    s.put(CaptureConfig.OFFSET_STORAGE_TOPIC_CONFIG, "_offsets-" + table);
    s.put(CaptureConfig.SCHEMA_HISTORY_TOPIC_CONFIG, "_history-" + table);
    s.put(CaptureConfig.OFFSET_FLUSH_INTERVAL_MS_CONFIG, 200);
    return s;
  }

  private CaptureService capture(String name) {
    return new CaptureService(new CaptureConfig(settings(name)));
  }

  private void sql(String... statements) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }

  private List<ConsumerRecord<byte[], byte[]>> awaitRecords(String topic, int atLeast) {
    await("at least " + atLeast + " records on " + topic)
        .atMost(WAIT)
        .until(() -> readAll(topic).size() >= atLeast);
    return readAll(topic);
  }

  private List<ConsumerRecord<byte[], byte[]>> readAll(String topic) {
    return TopicReader.readCommitted(kafka.bootstrapServers(), topic);
  }

  private static int put(CaptureService capture, String action) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create(capture.adminUrl() + "/connectors/" + capture.name() + "/" + action))
                .PUT(HttpRequest.BodyPublishers.noBody())
                .build(),
            HttpResponse.BodyHandlers.discarding())
        .statusCode();
  }

  private static String get(CaptureService capture, String action) throws Exception {
    return HttpClient.newHttpClient()
        .send(
            HttpRequest.newBuilder(
                    URI.create(capture.adminUrl() + "/connectors/" + capture.name() + "/" + action))
                .build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }
}
