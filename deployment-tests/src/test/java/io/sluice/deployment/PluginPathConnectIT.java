package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.KafkaMain;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.embedded.process.ChildJvm;
import io.sluice.lake.Catalogs;
import io.sluice.lake.IcebergRows;
import io.sluice.lake.LakeCatalog;
import io.sluice.schema.Subjects;
import io.sluice.schema.connect.ConnectAvroCodec;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.server.RegistryMain;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.iceberg.data.Record;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The plugin-loading path of compose's Connect image on real processes: a broker, a registry and a
 * distributed Connect worker, each a {@link ChildJvm}. The worker runs Kafka's {@code
 * ConnectDistributed} on Kafka's Connect runtime alone (no Sluice or Iceberg jar on its classpath)
 * with compose's {@code connect-distributed.properties} (hosts and ports for loopback, {@code
 * plugin.path} the directory the cli build laid out as the image does: see cli/pom.xml). Both sinks
 * are found through their service manifests ({@code plugin.discovery=service_load}); the upsert
 * sink writes a change to Iceberg, and after a SIGKILL the worker restarted on the same config
 * topic runs the connector again and writes the next one.
 */
class PluginPathConnectIT {
  private static final Logger log = LoggerFactory.getLogger(PluginPathConnectIT.class);

  private static final Duration START = Duration.ofSeconds(60);
  private static final Duration WAIT = Duration.ofSeconds(60);

  /**
   * The sink task's consumer group keeps the partition of the SIGKILLed worker's consumer until its
   * session times out (45 s, Kafka's default, which compose keeps): the second row waits for that.
   */
  private static final Duration AFTER_SIGKILL = Duration.ofSeconds(90);

  private static final String UPSERT_SINK = "sluice-upsert-sink";
  private static final String UPSERT_CLASS = "io.sluice.connect.upsert.UpsertSinkConnector";
  private static final String ICEBERG_CLASS = "org.apache.iceberg.connect.IcebergSinkConnector";
  private static final String TOPIC = "broker.shop.orders.clean";
  private static final String REGEX = "broker\\.shop\\..+\\.clean";

  private static final Schema KEY =
      SchemaBuilder.struct()
          .name("broker.shop.orders.Key")
          .field("id", Schema.INT32_SCHEMA)
          .build();
  private static final Schema ROW =
      SchemaBuilder.struct()
          .name("broker.shop.orders.Value")
          .optional()
          .field("id", Schema.INT32_SCHEMA)
          .field("customer", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  private static final Schema SOURCE =
      SchemaBuilder.struct()
          .name("io.debezium.connector.mariadb.Source")
          .field("db", Schema.STRING_SCHEMA)
          .field("table", Schema.OPTIONAL_STRING_SCHEMA)
          .build();
  private static final Schema ENVELOPE =
      SchemaBuilder.struct()
          .name("broker.shop.orders.Envelope")
          .field("before", ROW)
          .field("after", ROW)
          .field("source", SOURCE)
          .field("op", Schema.STRING_SCHEMA)
          .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
          .build();

  @TempDir Path dir;
  private final List<ChildJvm> children = new ArrayList<>();

  @AfterEach
  void stopChildren() {
    // Connect first: its shutdown needs the broker.
    for (int i = children.size() - 1; i >= 0; i--) {
      ChildJvm child = children.get(i);
      if (child.isAlive()) {
        log.info("Stopping {} (pid {})", child.name(), child.pid());
        child.stop();
      }
    }
  }

  @Test
  void workerLoadsBothSinksFromPluginPathAndRecoversItsConnectorAfterSigkill() throws Exception {
    Path plugins = Path.of(required("sluice.connect.plugins.dir"));
    String workerClasspath =
        required("sluice.connect.launcher")
            + ":"
            + Files.readString(Path.of(required("sluice.connect.worker.classpath"))).strip();
    assertThat(plugins.resolve("sluice-connect-plugins/manifest.json")).isRegularFile();
    assertThat(plugins.resolve("iceberg-kafka-connect/lib")).isDirectory();
    assertThat(workerClasspath.split(":"))
        .as("the worker's classpath: Kafka's Connect runtime only")
        .anyMatch(j -> j.endsWith("connect-runtime-" + kafkaVersion() + ".jar"))
        .noneMatch(j -> j.matches(".*/(sluice-|iceberg-|parquet-|hadoop-|avro-)[^/]*\\.jar"));

    String bootstrap =
        child(
                ChildJvm.builder("broker", KafkaMain.class.getName(), dir.resolve("broker.log"))
                    .heap("256m")
                    .args("--log-dir", dir.resolve("kafka").toString()))
            .awaitReady(START)
            .value("bootstrap");
    String registry =
        child(
                ChildJvm.builder(
                        "registry", RegistryMain.class.getName(), dir.resolve("registry.log"))
                    .heap("128m")
                    .args("--bootstrap-servers", bootstrap))
            .awaitReady(START)
            .value("url");
    try (Admin admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
      admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get();
    }

    int restPort = freePort();
    Path workerProperties = writeWorkerProperties(bootstrap, restPort, plugins);
    ConnectRestClient rest = new ConnectRestClient("http://127.0.0.1:" + restPort);
    ChildJvm.Builder worker =
        ChildJvm.builder(
                "connect",
                "org.apache.kafka.connect.cli.ConnectDistributed",
                dir.resolve("connect.log"))
            .heap("512m")
            .classpath(workerClasspath)
            .jvmOption("-Dlogback.configurationFile=" + resource("/connect-worker-logback.xml"))
            .stopGrace(Duration.ofSeconds(20))
            .args(workerProperties.toString());

    long t0 = System.nanoTime();
    ChildJvm connect = child(worker);
    awaitHealthy(connect, rest);
    long workerStartMs = millisSince(t0);

    Map<String, String> plugin = connectorPlugins(restPort);
    assertThat(plugin).containsKeys(UPSERT_CLASS, ICEBERG_CLASS);
    assertThat(plugin.get(UPSERT_CLASS)).isNotBlank().isNotEqualTo("undefined");
    assertThat(plugin.get(ICEBERG_CLASS)).isNotBlank().isNotEqualTo("undefined");
    String connectLog = Files.readString(connect.logFile());
    assertThat(connectLog)
        .as("the worker's log: both plugins came from plugin.path")
        .contains(plugins.resolve("sluice-connect-plugins").toString())
        .contains(plugins.resolve("iceberg-kafka-connect").toString());

    Map<String, String> catalog = Catalogs.embedded(dir.resolve("iceberg"));
    Files.createDirectories(dir.resolve("iceberg/warehouse"));
    Map<String, String> upsert =
        new HashMap<>(ConnectorConfigs.upsertSinkByRegex(REGEX, registry, catalog, 500));
    upsert.put("metrics.host", "127.0.0.1");
    upsert.put("metrics.port", "0");
    long t1 = System.nanoTime();
    rest.putConnector(UPSERT_SINK, upsert);
    rest.awaitRunning(UPSERT_SINK, WAIT);
    long runningMs = millisSince(t1);

    try (ChangeSender sender = new ChangeSender(bootstrap, registry)) {
      sender.insert(1, "ann");
      awaitRows(catalog, List.of("1=ann"), WAIT);
      long firstRowMs = millisSince(t1);

      assertThat(connect.kill()).as("exit code of the SIGKILLed worker").isEqualTo(137);
      long t2 = System.nanoTime();
      connect = child(worker);
      awaitHealthy(connect, rest);
      long restartMs = millisSince(t2);
      // Nothing registers it again: the worker reads it from its config topic.
      assertThat(rest.connectors()).containsExactly(UPSERT_SINK);
      rest.awaitRunning(UPSERT_SINK, WAIT);
      long recoveredMs = millisSince(t2);

      sender.insert(2, "bob");
      awaitRows(catalog, List.of("1=ann", "2=bob"), AFTER_SIGKILL);
      long secondRowMs = millisSince(t2);
      log.info(
          "Figures: worker healthy {} ms after start, upsert sink RUNNING {} ms after PUT, first"
              + " row in Iceberg {} ms after PUT; after SIGKILL: healthy {} ms, connector RUNNING"
              + " {} ms and second row in Iceberg {} ms after restart",
          workerStartMs,
          runningMs,
          firstRowMs,
          restartMs,
          recoveredMs,
          secondRowMs);
    }
  }

  /**
   * compose's catalog writes through S3FileIO: its classes, and what they call at run time
   * (iceberg-aws 1.12's S3InputStream builds a failsafe RetryPolicy), load from the Sluice plugin's
   * lib/ over Kafka's Connect runtime, as Connect's plugin class loader sees them (the bug of
   * compose's first image: the first S3 read threw NoClassDefFoundError).
   */
  @Test
  void s3FileIoAndWhatItCallsLoadFromThePluginDirectory() throws Exception {
    Path lib =
        Path.of(required("sluice.connect.plugins.dir")).resolve("sluice-connect-plugins/lib");
    List<java.net.URL> jars = new ArrayList<>();
    try (var files = Files.list(lib)) {
      for (Path jar : (Iterable<Path>) files.filter(f -> f.toString().endsWith(".jar"))::iterator) {
        jars.add(jar.toUri().toURL());
      }
    }
    // The worker's own classpath (Kafka's Connect runtime, SLF4J) as the parent, as Connect's
    // plugin class loader has it.
    List<java.net.URL> worker = new ArrayList<>();
    for (String entry :
        Files.readString(Path.of(required("sluice.connect.worker.classpath"))).strip().split(":")) {
      worker.add(Path.of(entry).toUri().toURL());
    }
    try (java.net.URLClassLoader runtime =
            new java.net.URLClassLoader(
                worker.toArray(java.net.URL[]::new), ClassLoader.getPlatformClassLoader());
        java.net.URLClassLoader plugin =
            new java.net.URLClassLoader(jars.toArray(java.net.URL[]::new), runtime)) {
      for (String name :
          List.of(
              "org.apache.iceberg.aws.s3.S3FileIO",
              "org.apache.iceberg.aws.s3.S3InputStream",
              "dev.failsafe.RetryPolicy",
              "io.sluice.connect.upsert.UpsertSinkConnector")) {
        Class<?> type = Class.forName(name, false, plugin);
        assertThat(type.getClassLoader()).as(name).isSameAs(plugin);
        // Resolving the declared methods links every type their signatures name.
        assertThat(type.getDeclaredMethods()).as(name).isNotNull();
      }
      Object io =
          Class.forName("org.apache.iceberg.aws.s3.S3FileIO", true, plugin)
              .getConstructor()
              .newInstance();
      assertThat(io).isNotNull();
    }
  }

  // --- the stack -------------------------------------------------------------------------------

  private ChildJvm child(ChildJvm.Builder builder) {
    ChildJvm child = builder.start();
    children.add(child);
    return child;
  }

  /**
   * compose/connect/connect-distributed.properties with its hosts and ports for loopback and
   * plugin.path the laid-out directory; every other key as compose has it.
   */
  private Path writeWorkerProperties(String bootstrap, int restPort, Path plugins)
      throws IOException {
    Properties props = new Properties();
    try (Reader reader =
        Files.newBufferedReader(
            RepoFiles.root().resolve("compose/connect/connect-distributed.properties"))) {
      props.load(reader);
    }
    Map<String, String> loopback =
        Map.of(
            "bootstrap.servers",
            bootstrap,
            "listeners",
            "http://127.0.0.1:" + restPort,
            "rest.advertised.host.name",
            "127.0.0.1",
            "rest.advertised.port",
            String.valueOf(restPort),
            "plugin.path",
            plugins.toString());
    assertThat(props.stringPropertyNames()).containsAll(loopback.keySet());
    assertThat(props.getProperty("plugin.discovery")).isEqualTo("service_load");
    loopback.forEach(props::setProperty);
    Path file = dir.resolve("connect-distributed.properties");
    try (Writer writer = Files.newBufferedWriter(file)) {
      props.store(writer, "compose's worker on loopback (PluginPathConnectIT)");
    }
    return file;
  }

  /** Waits for {@code GET /health} to answer 200; fails at once, with its log, if it exits. */
  private static void awaitHealthy(ChildJvm connect, ConnectRestClient rest) {
    await("Connect worker (pid " + connect.pid() + ") healthy")
        .atMost(START)
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              if (!connect.isAlive()) {
                throw new IllegalStateException(
                    "the Connect worker exited with code "
                        + connect.awaitExit(Duration.ZERO).orElse(-1)
                        + "; see "
                        + connect.logFile()
                        + ":\n"
                        + tail(connect.logFile()));
              }
              try {
                return rest.healthy();
              } catch (RuntimeException e) {
                return false; // its REST server is not listening yet
              }
            });
  }

  /** {@code GET /connector-plugins}: class to version. */
  private static Map<String, String> connectorPlugins(int restPort) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(
                        URI.create("http://127.0.0.1:" + restPort + "/connector-plugins"))
                    .timeout(Duration.ofSeconds(10))
                    .build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    Map<String, String> plugins = new HashMap<>();
    for (JsonNode plugin : new ObjectMapper().readTree(response.body())) {
      plugins.put(plugin.path("class").asText(), plugin.path("version").asText());
    }
    log.info("Connector plugins of the worker: {}", plugins);
    return plugins;
  }

  private static void awaitRows(
      Map<String, String> catalog, List<String> expected, Duration timeout) {
    await("shop.orders_current holds " + expected)
        .atMost(timeout)
        .ignoreExceptions()
        .until(() -> rows(catalog), expected::equals);
  }

  /** {@code id=customer} of every row as Iceberg's reader sees it, by id. */
  private static List<String> rows(Map<String, String> catalog) {
    try (LakeCatalog lake = Catalogs.open(catalog)) {
      return IcebergRows.readAll(lake.table("shop.orders_current")).stream()
          .sorted((a, b) -> Integer.compare((int) a.getField("id"), (int) b.getField("id")))
          .map(PluginPathConnectIT::idAndCustomer)
          .toList();
    }
  }

  private static String idAndCustomer(Record row) {
    return row.getField("id") + "=" + row.getField("customer");
  }

  /** Debezium-shaped inserts as Confluent-wire Avro through the registry, as capture sends. */
  private static final class ChangeSender implements AutoCloseable {
    private final KafkaProducer<byte[], byte[]> producer;
    private final ConnectAvroCodec codec;

    ChangeSender(String bootstrap, String registryUrl) {
      producer =
          new KafkaProducer<>(
              Map.of(
                  ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                  bootstrap,
                  ProducerConfig.ACKS_CONFIG,
                  "all"),
              new ByteArraySerializer(),
              new ByteArraySerializer());
      codec = new ConnectAvroCodec(HttpSchemaRegistryClient.create(registryUrl));
    }

    void insert(int id, String customer) throws InterruptedException, ExecutionException {
      Struct key = new Struct(KEY).put("id", id);
      Struct change =
          new Struct(ENVELOPE)
              .put("after", new Struct(ROW).put("id", id).put("customer", customer))
              .put("source", new Struct(SOURCE).put("db", "shop").put("table", "orders"))
              .put("op", "c")
              .put("ts_ms", 1_700_000_000_000L);
      producer
          .send(
              new ProducerRecord<>(
                  TOPIC,
                  codec.encode(Subjects.key(TOPIC), KEY, key),
                  codec.encode(Subjects.value(TOPIC), ENVELOPE, change)))
          .get();
    }

    @Override
    public void close() {
      producer.close();
    }
  }

  // --- helpers ---------------------------------------------------------------------------------

  private static String required(String property) {
    String value = System.getProperty(property);
    assertThat(value)
        .as("system property %s (set by this module's failsafe configuration)", property)
        .isNotBlank();
    return value;
  }

  private static String kafkaVersion() {
    return org.apache.kafka.common.utils.AppInfoParser.getVersion();
  }

  private static Path resource(String name) throws URISyntaxException {
    return Path.of(PluginPathConnectIT.class.getResource(name).toURI());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }

  private static String tail(Path logFile) {
    try {
      List<String> lines = Files.readAllLines(logFile);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 30), lines.size()));
    } catch (IOException e) {
      return "(log unreadable: " + e + ")";
    }
  }
}
