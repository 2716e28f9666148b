package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.sluice.capture.config.CaptureConfig;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.embedded.connect.SinkWorkerProperties;
import io.sluice.router.config.RouterConfig;
import io.sluice.stack.StackLayout;
import io.sluice.stack.StackTimings;
import io.sluice.stack.db.OrdersTable;
import io.sluice.tools.cli.OperatorCli;
import io.sluice.tools.monitor.MonitorCommand;
import io.sluice.tools.monitor.MonitorSettings;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * compose/: what can be checked without a Docker engine. Every file the compose file mounts or
 * builds from exists, every image (also each Dockerfile's FROM) has an explicit tag, start order
 * waits on healthchecks that exist, and the configuration files are the ones the code accepts:
 * capture and router properties load into their config classes, the connector configs are what
 * {@link ConnectorConfigs} produces, init.sql creates {@link OrdersTable}'s columns, and Prometheus
 * scrapes the ports those files give.
 */
class ComposeFilesTest {
  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path REPO = RepoFiles.root();
  private static final Path COMPOSE = REPO.resolve("compose");
  private static final String REGISTRY_URL = "http://schema-registry:8081";
  private static final String INTERNAL_BOOTSTRAP = "kafka:19092";

  private static JsonNode services;

  @BeforeAll
  static void readCompose() throws IOException {
    services = YAML.readTree(COMPOSE.resolve("docker-compose.yml").toFile()).path("services");
  }

  @Test
  void theStackHasEveryComponent() {
    List<String> names = new ArrayList<>();
    services.fieldNames().forEachRemaining(names::add);
    assertThat(names)
        .contains(
            "kafka",
            "schema-registry",
            "mysql",
            "capture",
            "router",
            "connect",
            "connect-init",
            "minio",
            "iceberg-rest",
            "prometheus",
            "grafana",
            "monitor");
    assertThat(services.path("kafka").path("image").asText()).isEqualTo("apache/kafka:4.1.1");
    assertThat(services.path("schema-registry").path("image").asText())
        .startsWith("confluentinc/cp-schema-registry:");
  }

  @Test
  void theImagesSluiceCommandIsTheOperatorCliWithTheOperatorsCommands() throws Exception {
    String script = Files.readString(COMPOSE.resolve("sluice/sluice"));
    Matcher main = Pattern.compile("-cp '/opt/sluice/lib/\\*' (\\S+) \"\\$@\"").matcher(script);
    assertThat(main.find()).as("the main class in compose/sluice/sluice").isTrue();
    assertThat(main.group(1)).isEqualTo(OperatorCli.class.getName());
    assertThat(Files.readString(COMPOSE.resolve("sluice.Dockerfile")))
        .contains("COPY --chmod=755 compose/sluice/sluice /usr/local/bin/sluice");

    CommandLine cli = OperatorCli.commandLine();
    assertThat(cli.getSubcommands()).containsKeys("dlq", "reconcile", "table", "monitor");
    assertThat(cli.getSubcommands()).doesNotContainKeys("up", "verify", "bench", "load");
  }

  @Test
  void everyImageHasAnExplicitTag() throws IOException {
    List<String> images = new ArrayList<>();
    services.forEach(
        s -> {
          if (s.has("image")) {
            images.add(s.path("image").asText());
          }
        });
    for (String dockerfile : dockerfiles()) {
      images.addAll(fromImages(COMPOSE.getParent().resolve(dockerfile)));
    }
    assertThat(images).hasSizeGreaterThan(12);
    assertThat(images).allSatisfy(image -> assertThat(tagOf(image)).as(image).isNotNull());
    assertThat(images).noneMatch(image -> "latest".equals(tagOf(image)));
  }

  @Test
  void everyMountedOrBuiltFromFileExists() throws IOException {
    List<Path> paths = new ArrayList<>();
    services.forEach(
        s -> {
          for (JsonNode volume : s.path("volumes")) {
            String source = volume.asText().split(":", 2)[0];
            if (source.startsWith(".") || source.startsWith("/")) {
              paths.add(COMPOSE.resolve(source).normalize());
            }
          }
          JsonNode build = s.path("build");
          if (!build.isMissingNode()) {
            Path context = COMPOSE.resolve(build.path("context").asText(".")).normalize();
            paths.add(context);
            paths.add(context.resolve(build.path("dockerfile").asText("Dockerfile")));
          }
        });
    for (String dockerfile : dockerfiles()) {
      paths.addAll(copySources(REPO.resolve(dockerfile)));
    }
    assertThat(paths).hasSizeGreaterThan(10);
    assertThat(paths).allSatisfy(p -> assertThat(p).exists());
  }

  @Test
  void startOrderWaitsOnHealthchecksThatExist() {
    List<String> problems = new ArrayList<>();
    services
        .fields()
        .forEachRemaining(
            service ->
                service
                    .getValue()
                    .path("depends_on")
                    .fields()
                    .forEachRemaining(
                        dependency -> {
                          JsonNode target = services.path(dependency.getKey());
                          String condition = dependency.getValue().path("condition").asText();
                          if (target.isMissingNode()) {
                            problems.add(service.getKey() + " -> missing " + dependency.getKey());
                          } else if (condition.equals("service_healthy")
                              && !target.has("healthcheck")) {
                            problems.add(dependency.getKey() + " has no healthcheck");
                          } else if (!condition.equals("service_healthy")
                              && !condition.equals("service_completed_successfully")) {
                            problems.add(
                                service.getKey() + " -> " + dependency.getKey() + ": " + condition);
                          }
                        }));
    assertThat(problems).isEmpty();
    // The sinks follow every clean topic by regex: connect-init waits for Connect only, not for
    // the router or the capture (whose topics exist only once a source row was captured).
    List<String> initWaitsFor = new ArrayList<>();
    services
        .path("connect-init")
        .path("depends_on")
        .fieldNames()
        .forEachRemaining(initWaitsFor::add);
    assertThat(initWaitsFor).containsExactly("connect");
  }

  @Test
  void mysqlKeepsAGtidRowBinlogAndInitSqlCreatesTheLabTable() throws IOException {
    List<String> command = new ArrayList<>();
    services.path("mysql").path("command").forEach(c -> command.add(c.asText()));
    assertThat(command)
        .contains(
            "--binlog-format=ROW",
            "--binlog-row-image=FULL",
            "--gtid-mode=ON",
            "--enforce-gtid-consistency=ON")
        .anyMatch(c -> c.startsWith("--server-id="))
        .anyMatch(c -> c.startsWith("--log-bin"));

    String sql = Files.readString(COMPOSE.resolve("mysql/init.sql"));
    assertThat(columns(sql, OrdersTable.QUALIFIED_NAME))
        .isEqualTo(columns(OrdersTable.CREATE_SQL, OrdersTable.QUALIFIED_NAME));
    String users = Files.readString(COMPOSE.resolve("mysql/users.sh"));
    assertThat(users)
        .contains("'sluice'@'%' IDENTIFIED BY '${SLUICE_MYSQL_PASSWORD}'")
        .contains("'cdc'@'%' IDENTIFIED BY '${SLUICE_CDC_PASSWORD}'")
        .containsPattern("REPLICATION SLAVE, REPLICATION CLIENT[^;]*TO 'cdc'@'%'");
    assertThat(services.path("mysql").path("volumes").toString())
        .contains("./mysql/users.sh:/docker-entrypoint-initdb.d/02-users.sh:ro");
  }

  @Test
  void captureAndRouterPropertiesAreValidConfigs() throws IOException {
    CaptureConfig capture = new CaptureConfig(properties("sluice/capture.properties"));
    assertThat(capture.connectorClass()).isEqualTo("io.debezium.connector.mysql.MySqlConnector");
    assertThat(capture.getString(CaptureConfig.TOPIC_PREFIX_CONFIG))
        .isEqualTo(StackLayout.DEFAULT.topicPrefix());
    assertThat(capture.getInt(CaptureConfig.ADMIN_PORT_CONFIG)).isPositive();
    assertThat(capture.getString(CaptureConfig.BOOTSTRAP_SERVERS_CONFIG))
        .isEqualTo(INTERNAL_BOOTSTRAP);
    // Every table the lab workload writes (sluice load, sluice verify's baseline) is captured:
    // with only cdc_lab.orders, the README's poison-dlq run against compose waited in vain for
    // customers, order_items and audit_log to reach the lake.
    assertThat(capture.getString(CaptureConfig.DATABASE_INCLUDE_LIST_CONFIG)).isEqualTo("cdc_lab");
    assertThat(capture.getString(CaptureConfig.TABLE_INCLUDE_LIST_CONFIG)).isBlank();

    RouterConfig router = new RouterConfig(properties("sluice/router.properties"));
    assertThat(router.getInt(RouterConfig.METRICS_PORT_CONFIG)).isPositive();
    assertThat(router.getString(RouterConfig.SCHEMA_REGISTRY_URL_CONFIG)).isEqualTo(REGISTRY_URL);
  }

  @Test
  void connectorConfigsAreWhatConnectorConfigsProducesForTheRestCatalogOnMinio()
      throws IOException {
    Map<String, String> upsert = connectorJson(StackLayout.DEFAULT.upsertSink());
    Map<String, String> catalog = new LinkedHashMap<>();
    upsert.forEach(
        (k, v) -> {
          if (k.startsWith("iceberg.catalog.")) {
            catalog.put(k.substring("iceberg.catalog.".length()), v);
          }
        });
    assertThat(catalog)
        .containsEntry("type", "rest")
        .containsEntry("uri", "http://iceberg-rest:8181")
        .containsEntry("io-impl", "org.apache.iceberg.aws.s3.S3FileIO")
        .containsEntry("s3.endpoint", "http://minio:9000")
        .containsEntry("s3.path-style-access", "true");

    Map<String, String> expectedUpsert =
        new TreeMap<>(
            ConnectorConfigs.quarantining(
                ConnectorConfigs.directPath(
                    ConnectorConfigs.upsertSinkByRegex(
                        StackLayout.DEFAULT.cleanTopicsRegex(),
                        REGISTRY_URL,
                        catalog,
                        StackTimings.SINK_COMMIT_INTERVAL_MS),
                    REGISTRY_URL),
                INTERNAL_BOOTSTRAP));
    expectedUpsert.put("metrics.host", "0.0.0.0");
    expectedUpsert.put("metrics.port", upsert.get("metrics.port"));
    assertThat(new TreeMap<>(upsert)).isEqualTo(expectedUpsert);

    Map<String, String> expectedChangelog =
        ConnectorConfigs.changelogSinkByRegex(
            StackLayout.DEFAULT.cleanTopicsRegex(),
            REGISTRY_URL,
            catalog,
            INTERNAL_BOOTSTRAP,
            StackLayout.DEFAULT.icebergControlTopic(),
            StackTimings.SINK_COMMIT_INTERVAL_MS,
            StackLayout.DEFAULT.changelogSinkDlq());
    assertThat(new TreeMap<>(connectorJson(StackLayout.DEFAULT.changelogSink())))
        .isEqualTo(new TreeMap<>(expectedChangelog));

    // The MinIO keys are placeholders the worker resolves from its environment (compose's .env).
    assertThat(catalog)
        .containsEntry("s3.access-key-id", "${env:SLUICE_S3_ACCESS_KEY_ID}")
        .containsEntry("s3.secret-access-key", "${env:SLUICE_S3_SECRET_ACCESS_KEY}");
    JsonNode connectEnv = services.path("connect").path("environment");
    assertThat(connectEnv.path("SLUICE_S3_ACCESS_KEY_ID").asText())
        .startsWith("${MINIO_ROOT_USER:?");
    assertThat(connectEnv.path("SLUICE_S3_SECRET_ACCESS_KEY").asText())
        .startsWith("${MINIO_ROOT_PASSWORD:?");
    Properties worker = properties("connect/connect-distributed.properties");
    // What the sinks need of their consumers is the worker's: the connector JSONs hold no override.
    SinkWorkerProperties.of(StackTimings.SINK_TOPIC_REFRESH_MS)
        .forEach((k, v) -> assertThat(worker.getProperty(k)).as(k).isEqualTo(v));
    for (String sink :
        List.of(StackLayout.DEFAULT.upsertSink(), StackLayout.DEFAULT.changelogSink())) {
      assertThat(connectorJson(sink).keySet()).as(sink).noneMatch(k -> k.contains(".override."));
    }
    assertThat(worker.getProperty("config.providers")).isEqualTo("env");
    assertThat(worker.getProperty("config.providers.env.class"))
        .isEqualTo(org.apache.kafka.common.config.provider.EnvVarConfigProvider.class.getName());

    String script = Files.readString(COMPOSE.resolve("connect/register-connectors.sh"));
    assertThat(script)
        .contains(StackLayout.DEFAULT.upsertSink(), StackLayout.DEFAULT.changelogSink())
        .contains("CONTROL_TOPIC=" + StackLayout.DEFAULT.icebergControlTopic())
        // The namespace is created in the sinks' own catalog.
        .contains(
            "CATALOG=${SLUICE_CATALOG_URL-"
                + JSON.readTree(COMPOSE.resolve("connect/sluice-changelog-sink.json").toFile())
                    .path("iceberg.catalog.uri")
                    .asText()
                + "}")
        .doesNotContain(StackLayout.DEFAULT.cleanTopic())
        .contains(
            "COORDINATOR_GROUP="
                + ConnectorConfigs.icebergCoordinatorGroup(StackLayout.DEFAULT.changelogSink()));
  }

  @Test
  void prometheusScrapesTheMetricsPortsTheConfigsOpen() throws IOException {
    JsonNode config = YAML.readTree(COMPOSE.resolve("prometheus/prometheus.yml").toFile());
    Map<String, String> targets = new TreeMap<>();
    for (JsonNode job : config.path("scrape_configs")) {
      assertThat(job.path("metrics_path").asText("/metrics")).isEqualTo("/metrics");
      for (JsonNode target : job.path("static_configs").get(0).path("targets")) {
        targets.put(job.path("job_name").asText(), target.asText());
      }
    }
    Properties capture = properties("sluice/capture.properties");
    Properties router = properties("sluice/router.properties");
    assertThat(targets)
        .containsEntry("sluice-router", "router:" + router.getProperty("metrics.port"))
        .containsEntry("sluice-capture", "capture:" + capture.getProperty("admin.port"))
        .containsEntry(
            "sluice-upsert-sink",
            "connect:" + connectorJson(StackLayout.DEFAULT.upsertSink()).get("metrics.port"));
    assertThat(targets)
        .containsEntry("sluice-monitor", "monitor:" + monitorSettings().metricsPort());
    targets.values().forEach(t -> assertThat(services.has(t.split(":")[0])).as(t).isTrue());
    assertThat(services.path("prometheus").path("volumes").get(0).asText())
        .isEqualTo("./prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro");
  }

  @Test
  void theMonitorsCommandIsAcceptedByMonitorCommandAndReadsTheInternalListener()
      throws IOException {
    MonitorSettings settings = monitorSettings();

    assertThat(settings.bootstrapServers()).isEqualTo(INTERNAL_BOOTSTRAP);
    assertThat(settings.metricsHost()).isEqualTo("0.0.0.0");
    assertThat(services.path("monitor").path("ports").get(0).asText())
        .isEqualTo(
            "${SLUICE_BIND:-127.0.0.1}:" + settings.metricsPort() + ":" + settings.metricsPort());

    // The monitor reads the tables through the catalog the connectors write them to, with the
    // same MinIO keys: the AWS SDK's environment variables instead of the placeholders.
    JsonNode env = services.path("monitor").path("environment");
    assertThat(env.path("AWS_ACCESS_KEY_ID").asText()).startsWith("${MINIO_ROOT_USER:?");
    assertThat(env.path("AWS_SECRET_ACCESS_KEY").asText()).startsWith("${MINIO_ROOT_PASSWORD:?");
    Map<String, String> connectorCatalog = new TreeMap<>();
    connectorJson(StackLayout.DEFAULT.upsertSink())
        .forEach(
            (k, v) -> {
              if (k.startsWith("iceberg.catalog.")) {
                connectorCatalog.put(k.substring("iceberg.catalog.".length()), v);
              }
            });
    assertThat(connectorCatalog.remove("s3.access-key-id")).startsWith("${env:");
    assertThat(connectorCatalog.remove("s3.secret-access-key")).startsWith("${env:");
    assertThat(new TreeMap<>(settings.iceberg().catalog())).isEqualTo(connectorCatalog);
  }

  /** The settings compose's monitor command gives, parsed by the command class it names. */
  private static MonitorSettings monitorSettings() {
    List<String> command = new ArrayList<>();
    services.path("monitor").path("command").forEach(c -> command.add(c.asText()));
    assertThat(command).first().isEqualTo(MonitorCommand.class.getName());
    MonitorCommand monitor = new MonitorCommand();
    new CommandLine(monitor).parseArgs(command.subList(1, command.size()).toArray(String[]::new));
    return monitor.settings();
  }

  /** The tag of an image reference, or null when it has none (digest-pinned counts as tagged). */
  static String tagOf(String image) {
    if (image.contains("@sha256:")) {
      return image.substring(image.indexOf('@') + 1);
    }
    int slash = image.lastIndexOf('/');
    int colon = image.lastIndexOf(':');
    return colon > slash && colon < image.length() - 1 ? image.substring(colon + 1) : null;
  }

  private static List<String> dockerfiles() {
    List<String> files = new ArrayList<>();
    services.forEach(
        s -> {
          if (s.has("build")) {
            String file = s.path("build").path("dockerfile").asText();
            if (!files.contains(file)) {
              files.add(file);
            }
          }
        });
    assertThat(files).as("Dockerfiles compose builds").isNotEmpty();
    return files;
  }

  /**
   * Images of the FROM lines, leaving out earlier stages used as a base. A base image given by a
   * build argument ({@code FROM ${MAVEN_IMAGE}}) counts as its {@code ARG} default: what compose
   * builds on.
   */
  static List<String> fromImages(Path dockerfile) throws IOException {
    List<String> images = new ArrayList<>();
    List<String> stages = new ArrayList<>();
    Map<String, String> argDefaults = new LinkedHashMap<>();
    Pattern arg = Pattern.compile("^ARG\\s+(\\w+)=(\\S+)\\s*$", Pattern.CASE_INSENSITIVE);
    Pattern from =
        Pattern.compile(
            "^FROM\\s+(?:--platform=\\S+\\s+)?(\\S+)(?:\\s+AS\\s+(\\S+))?\\s*$",
            Pattern.CASE_INSENSITIVE);
    for (String line : Files.readAllLines(dockerfile)) {
      Matcher a = arg.matcher(line.strip());
      if (a.matches()) {
        argDefaults.put(a.group(1), a.group(2));
      }
      Matcher m = from.matcher(line.strip());
      if (m.matches()) {
        String image = m.group(1);
        Matcher variable = Pattern.compile("^\\$\\{(\\w+)}$").matcher(image);
        if (variable.matches()) {
          image = argDefaults.get(variable.group(1));
          assertThat(image)
              .as("%s: FROM ${%s} has an ARG default", dockerfile, variable.group(1))
              .isNotNull();
        }
        if (!stages.contains(image)) {
          images.add(image);
        }
        if (m.group(2) != null) {
          stages.add(m.group(2));
        }
      }
    }
    assertThat(images).as("FROM images of %s", dockerfile).isNotEmpty();
    return images;
  }

  /** Repository paths a Dockerfile copies from the build context (context = the repo root). */
  private static List<Path> copySources(Path dockerfile) throws IOException {
    List<Path> sources = new ArrayList<>();
    for (String line : Files.readAllLines(dockerfile)) {
      String[] words = line.strip().split("\\s+");
      if (words[0].equalsIgnoreCase("COPY")
          && java.util.Arrays.stream(words).noneMatch(w -> w.startsWith("--from="))) {
        for (int i = 1; i < words.length - 1; i++) {
          if (!words[i].startsWith("--")) {
            sources.add(REPO.resolve(words[i]).normalize());
          }
        }
      }
    }
    return sources;
  }

  /** The column definitions of {@code CREATE TABLE ... table (...)}, normalized. */
  private static List<String> columns(String sql, String table) {
    int start = sql.indexOf(table);
    assertThat(start).as("CREATE TABLE %s in %s", table, sql).isNotNegative();
    int open = sql.indexOf('(', start);
    List<String> columns = new ArrayList<>();
    int depth = 0;
    StringBuilder column = new StringBuilder();
    for (int i = open + 1; i < sql.length(); i++) {
      char c = sql.charAt(i);
      if (depth == 0 && (c == ',' || c == ')')) {
        columns.add(column.toString().strip().replaceAll("\\s+", " ").toLowerCase(Locale.ROOT));
        column.setLength(0);
        if (c == ')') {
          return columns;
        }
        continue;
      }
      depth += c == '(' ? 1 : c == ')' ? -1 : 0;
      column.append(c);
    }
    throw new AssertionError("unterminated column list of " + table);
  }

  private static Properties properties(String file) throws IOException {
    Properties props = new Properties();
    try (Reader reader = Files.newBufferedReader(COMPOSE.resolve(file))) {
      props.load(reader);
    }
    return props;
  }

  private static Map<String, String> connectorJson(String name) throws IOException {
    return JSON.readValue(
        COMPOSE.resolve("connect/" + name + ".json").toFile(), new TypeReference<>() {});
  }
}
