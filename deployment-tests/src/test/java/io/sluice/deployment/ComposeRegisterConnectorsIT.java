package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.sluice.embedded.EmbeddedConnect;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import io.sluice.schema.server.DevSchemaRegistry;
import io.sluice.stack.StackLayout;
import io.sluice.stack.StackTimings;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

/**
 * compose's {@code connect-init} script, {@code compose/connect/register-connectors.sh}, run with
 * bash and curl against a real distributed Connect worker holding the Sluice upsert sink and the
 * Apache Iceberg sink, configured with compose's own worker properties (override policy, config
 * providers, service_load discovery) except for host and port. The Kafka tools it calls are Kafka's
 * own {@code TopicCommand} and {@code ConsumerGroupCommand} on this JVM's classpath (the image's
 * kafka-*.sh run the same classes). The source table is empty: no clean topic exists. A proxy in
 * front of the worker answers the first polls as a worker that is still starting does (503, then a
 * 404 "No status found", an empty body and UNASSIGNED), which ended the old script with exit 1.
 */
// The first test sees the coordinator group without offsets; the second finds it prepared.
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ComposeRegisterConnectorsIT {
  private static final Path REPO = RepoFiles.root();
  private static final Path SCRIPT = REPO.resolve("compose/connect/register-connectors.sh");
  private static final Duration SCRIPT_TIMEOUT = Duration.ofSeconds(150);

  /** Worker keys that name this host, not compose's: set by EmbeddedConnect. */
  private static final Set<String> HOST_KEYS =
      Set.of(
          "bootstrap.servers",
          "group.id",
          "listeners",
          "rest.advertised.host.name",
          "rest.advertised.port",
          "plugin.path",
          "config.storage.topic",
          "offset.storage.topic",
          "status.storage.topic");

  @TempDir static Path dir;
  private static EmbeddedKafka kafka;
  private static DevSchemaRegistry registry;
  private static EmbeddedConnect connect;
  private static FaultyProxy proxy;
  private static Path connectorsDir;
  private static Path kafkaBin;

  @BeforeAll
  static void startWorker() throws IOException {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"));
    registry = DevSchemaRegistry.startInMemory("127.0.0.1", 0);
    Map<String, String> catalog = Catalogs.embedded(dir.resolve("iceberg"));
    Files.createDirectories(dir.resolve("iceberg/warehouse"));
    try (LakeCatalog opened = Catalogs.open(catalog)) {
      assertThat(opened.catalog().name()).isEqualTo(Catalogs.EMBEDDED_NAME);
    }
    connect = EmbeddedConnect.start(kafka.bootstrapServers(), "compose-it", 0, composeWorker());
    proxy = FaultyProxy.start(connect.url());
    connectorsDir = writeConnectors(catalog);
    kafkaBin = writeKafkaTools();
  }

  @AfterAll
  static void stop() {
    if (proxy != null) {
      proxy.close();
    }
    if (connect != null) {
      connect.close();
    }
    if (registry != null) {
      registry.close();
    }
    if (kafka != null) {
      kafka.close();
    }
  }

  @Test
  @Order(1)
  void registersBothSinksThroughStartingWorkerPollsWithNoCleanTopicAndAgainOnARestart()
      throws Exception {
    Result first = runScript(connectorsDir);

    assertThat(first.exitCode()).as(first.output()).isZero();
    assertThat(first.output())
        .contains("connect-init: sluice-upsert-sink RUNNING")
        .contains("connect-init: sluice-changelog-sink RUNNING")
        .contains(
            ConnectorConfigs.icebergCoordinatorGroup(StackLayout.DEFAULT.changelogSink())
                + " starts at the beginning of "
                + StackLayout.DEFAULT.icebergControlTopic());
    // The script got the answers of a starting worker and went on polling.
    assertThat(proxy.faultsServed()).containsEntry("/connectors", 1);
    for (String sink :
        List.of(StackLayout.DEFAULT.upsertSink(), StackLayout.DEFAULT.changelogSink())) {
      assertThat(proxy.faultsServed()).containsEntry("/connectors/" + sink + "/status", 3);
      assertThat(connect.client().status(sink).running()).as("%s on the worker", sink).isTrue();
    }

    try (Admin admin = admin()) {
      // An empty source table: the router made no clean topic, and none was needed.
      assertThat(admin.listTopics().names().get())
          .contains(StackLayout.DEFAULT.icebergControlTopic())
          .noneMatch(t -> t.matches(StackLayout.DEFAULT.cleanTopicsRegex()));
      Map<TopicPartition, OffsetAndMetadata> coordinator =
          admin
              .listConsumerGroupOffsets(
                  ConnectorConfigs.icebergCoordinatorGroup(StackLayout.DEFAULT.changelogSink()))
              .partitionsToOffsetAndMetadata()
              .get();
      assertThat(coordinator.get(new TopicPartition(StackLayout.DEFAULT.icebergControlTopic(), 0)))
          .as("the coordinator group's committed start")
          .isNotNull()
          .extracting(OffsetAndMetadata::offset)
          .isEqualTo(0L);
    }

    // `docker compose start` runs connect-init again: it succeeds and leaves the group alone.
    Result again = runScript(connectorsDir);
    assertThat(again.exitCode()).as(again.output()).isZero();
    assertThat(again.output())
        .contains("connect-init: sluice-changelog-sink RUNNING")
        .doesNotContain("starts at the beginning");
  }

  @Test
  @Order(2)
  void aConnectorConnectRefusesEndsTheScriptNamingItAndConnectsReason() throws Exception {
    Path broken = Files.createDirectories(dir.resolve("broken-connectors"));
    for (String sink :
        List.of(StackLayout.DEFAULT.upsertSink(), StackLayout.DEFAULT.changelogSink())) {
      Files.copy(connectorsDir.resolve(sink + ".json"), broken.resolve(sink + ".json"));
    }
    Files.writeString(
        broken.resolve(StackLayout.DEFAULT.upsertSink() + ".json"),
        "{\"connector.class\": \"io.sluice.NoSuchConnector\", \"topics\": \"t\"}");

    Result result = runScript(broken);

    assertThat(result.exitCode()).as(result.output()).isEqualTo(1);
    assertThat(result.output())
        .contains("connect-init: PUT " + StackLayout.DEFAULT.upsertSink() + " config: HTTP 400")
        .contains("io.sluice.NoSuchConnector");
  }

  // --- the stack around the script ----------------------------------------------------------

  /** compose/connect/connect-distributed.properties without the keys naming compose's hosts. */
  private static Map<String, String> composeWorker() throws IOException {
    Properties props = new Properties();
    try (Reader reader =
        Files.newBufferedReader(REPO.resolve("compose/connect/connect-distributed.properties"))) {
      props.load(reader);
    }
    Map<String, String> worker = new HashMap<>();
    props.stringPropertyNames().stream()
        .filter(k -> !HOST_KEYS.contains(k))
        .forEach(k -> worker.put(k, props.getProperty(k)));
    assertThat(worker)
        .containsKeys("config.providers")
        .containsEntry("connector.client.config.override.policy", "None")
        .containsEntry("plugin.discovery", "service_load");
    return worker;
  }

  /** Both sinks as compose configures them (ComposeFilesTest), on this host's endpoints. */
  private static Path writeConnectors(Map<String, String> catalog) throws IOException {
    Map<String, String> upsert =
        new LinkedHashMap<>(
            ConnectorConfigs.quarantining(
                ConnectorConfigs.upsertSinkByRegex(
                    StackLayout.DEFAULT.cleanTopicsRegex(),
                    registry.url(),
                    catalog,
                    StackTimings.SINK_COMMIT_INTERVAL_MS),
                kafka.bootstrapServers()));
    upsert.put("metrics.host", "127.0.0.1");
    upsert.put("metrics.port", "0");
    Map<String, String> changelog =
        ConnectorConfigs.changelogSinkByRegex(
            StackLayout.DEFAULT.cleanTopicsRegex(),
            registry.url(),
            catalog,
            kafka.bootstrapServers(),
            StackLayout.DEFAULT.icebergControlTopic(),
            StackTimings.SINK_COMMIT_INTERVAL_MS,
            StackLayout.DEFAULT.changelogSinkDlq());
    Path connectors = Files.createDirectories(dir.resolve("connectors"));
    ObjectMapper json = new ObjectMapper();
    json.writeValue(
        connectors.resolve(StackLayout.DEFAULT.upsertSink() + ".json").toFile(), upsert);
    json.writeValue(
        connectors.resolve(StackLayout.DEFAULT.changelogSink() + ".json").toFile(), changelog);
    return connectors;
  }

  /** kafka-topics.sh and kafka-consumer-groups.sh: Kafka's tool classes, this classpath. */
  private static Path writeKafkaTools() throws IOException {
    Path bin = Files.createDirectories(dir.resolve("kafka-bin"));
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath = System.getProperty("java.class.path");
    Map<String, String> tools =
        Map.of(
            "kafka-topics.sh", "org.apache.kafka.tools.TopicCommand",
            "kafka-consumer-groups.sh",
                "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand");
    for (Map.Entry<String, String> tool : tools.entrySet()) {
      Path file = bin.resolve(tool.getKey());
      Files.writeString(
          file,
          "#!/bin/sh\nexec '"
              + java
              + "' -Xshare:auto -XX:TieredStopAtLevel=1 -cp '"
              + classpath
              + "' "
              + tool.getValue()
              + " \"$@\"\n");
      Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
    return bin;
  }

  private record Result(int exitCode, String output) {}

  private static Result runScript(Path connectors) throws Exception {
    ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString()).redirectErrorStream(true);
    Map<String, String> env = pb.environment();
    env.put("SLUICE_CONNECT_URL", proxy.url());
    env.put("SLUICE_BOOTSTRAP", kafka.bootstrapServers());
    env.put("SLUICE_CONNECTORS_DIR", connectors.toString());
    env.put("SLUICE_KAFKA_BIN", kafkaBin.toString());
    // The sinks here write an embedded JDBC catalog, not a REST one: no namespace to create
    // (scripts/test-compose runs that step against compose's REST catalog).
    env.put("SLUICE_CATALOG_URL", "");
    env.put("SLUICE_INIT_TIMEOUT", "90");
    env.put("SLUICE_POLL_INTERVAL", "1");
    proxy.reset();
    Process process = pb.start();
    StringBuilder output = new StringBuilder();
    Thread reader =
        new Thread(
            () -> {
              try (InputStream in = process.getInputStream()) {
                output.append(new String(in.readAllBytes(), StandardCharsets.UTF_8));
              } catch (IOException e) {
                output.append("(output unreadable: ").append(e).append(')');
              }
            });
    reader.start();
    if (!process.waitFor(SCRIPT_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
      process.destroyForcibly();
    }
    reader.join(TimeUnit.SECONDS.toMillis(10));
    return new Result(process.isAlive() ? -1 : process.exitValue(), output.toString());
  }

  private static Admin admin() {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
  }

  /**
   * An HTTP proxy to the worker that answers as a worker still starting: the first {@code GET
   * /connectors} with 503, and the first three status polls of each connector with 404 "No status
   * found", an empty body and UNASSIGNED; everything else it forwards.
   */
  private static final class FaultyProxy implements AutoCloseable {
    private final HttpServer server;
    private final String target;
    private final HttpClient client = HttpClient.newHttpClient();
    private final Map<String, AtomicInteger> seen = new ConcurrentHashMap<>();
    private final Map<String, Integer> faults = new ConcurrentHashMap<>();

    private FaultyProxy(HttpServer server, String target) {
      this.server = server;
      this.target = target;
    }

    static FaultyProxy start(String target) throws IOException {
      HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      FaultyProxy proxy = new FaultyProxy(server, target);
      server.createContext("/", proxy::handle);
      server.start();
      return proxy;
    }

    String url() {
      return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    void reset() {
      seen.clear();
      faults.clear();
    }

    Map<String, Integer> faultsServed() {
      return Map.copyOf(faults);
    }

    private void handle(HttpExchange exchange) throws IOException {
      String path = exchange.getRequestURI().getPath();
      String method = exchange.getRequestMethod();
      int n = seen.computeIfAbsent(method + " " + path, k -> new AtomicInteger()).incrementAndGet();
      if (method.equals("GET") && path.equals("/connectors") && n == 1) {
        fault(exchange, path, 503, "");
      } else if (method.equals("GET") && path.endsWith("/status") && n <= 3) {
        String name = path.split("/")[2];
        switch (n) {
          case 1 ->
              fault(
                  exchange,
                  path,
                  404,
                  "{\"error_code\":404,\"message\":\"No status found for connector "
                      + name
                      + "\"}");
          case 2 -> fault(exchange, path, 200, "");
          default ->
              fault(
                  exchange,
                  path,
                  200,
                  "{\"name\":\""
                      + name
                      + "\",\"connector\":{\"state\":\"UNASSIGNED\",\"worker_id\":\"w\"},"
                      + "\"tasks\":[],\"type\":\"sink\"}");
        }
      } else {
        forward(exchange, method);
      }
    }

    private void fault(HttpExchange exchange, String path, int status, String body)
        throws IOException {
      faults.merge(path, 1, Integer::sum);
      respond(exchange, status, body.getBytes(StandardCharsets.UTF_8));
    }

    private void forward(HttpExchange exchange, String method) throws IOException {
      byte[] body = exchange.getRequestBody().readAllBytes();
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(target + exchange.getRequestURI()))
              .timeout(Duration.ofSeconds(30))
              .header("Content-Type", "application/json")
              .method(method, HttpRequest.BodyPublishers.ofByteArray(body));
      try {
        HttpResponse<byte[]> response =
            client.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        respond(exchange, response.statusCode(), response.body());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        respond(exchange, 502, new byte[0]);
      }
    }

    private static void respond(HttpExchange exchange, int status, byte[] body) throws IOException {
      exchange.getResponseHeaders().add("Content-Type", "application/json");
      exchange.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
      if (body.length > 0) {
        exchange.getResponseBody().write(body);
      }
      exchange.close();
    }

    @Override
    public void close() {
      server.stop(0);
    }
  }
}
