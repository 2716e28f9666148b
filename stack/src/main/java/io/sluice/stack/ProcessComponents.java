package io.sluice.stack;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.capture.CaptureMain;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.KafkaMain;
import io.sluice.embedded.process.ChildJvm;
import io.sluice.router.RouterMain;
import io.sluice.schema.server.RegistryMain;
import io.sluice.tools.monitor.MonitorCommand;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.function.Supplier;

/**
 * What each component of the {@link ProcessStack} runs and when it answers: its main class, heap,
 * arguments and config files (written afresh at every start under {@code <data dir>/processes/}),
 * its log under {@code <data dir>/logs/}, and its readiness check. The Connect worker runs on
 * Kafka's runtime alone with compose's worker properties ({@link ConnectRuntime}).
 */
final class ProcessComponents {
  private final StackOptions options;
  private final StackPorts ports;
  private final ProcessUrls urls;
  private final ConnectRuntime connectRuntime;
  private final Supplier<Map<String, String>> catalog;
  private final ObjectMapper json = new ObjectMapper();
  private final HttpClient http = HttpClient.newHttpClient();

  /**
   * @param catalog the Iceberg catalog, known once the broker ran its preparation: read when a
   *     component after it starts
   */
  ProcessComponents(
      StackOptions options,
      StackPorts ports,
      ConnectRuntime connectRuntime,
      Supplier<Map<String, String>> catalog) {
    this.options = options;
    this.ports = ports;
    this.urls = new ProcessUrls(ports);
    this.connectRuntime = connectRuntime;
    this.catalog = catalog;
  }

  /** The components in start order; each builds its config afresh at every start. */
  Map<String, Supervised> inStartOrder(Path prometheusBinary) {
    Path dataDir = options.dataDir();
    Map<String, Supervised> components = new LinkedHashMap<>();
    Path logs = dataDir.resolve("logs");
    Path config = dataDir.resolve("processes");
    String bootstrap = urls.bootstrapServers();
    String registry = urls.schemaRegistryUrl();
    components.put(
        ProcessStack.BROKER,
        new JvmComponent(
            logs.resolve("broker.log"),
            () ->
                child(ProcessStack.BROKER, KafkaMain.class.getName(), logs, "512m")
                    // A SIGKILLed supervisor ends every child at once: the others' shutdown
                    // (a Connect worker's, a router's transaction) needs the broker.
                    .outlives(ProcessStack.CHILD_MARK + dataDir)
                    .args(
                        "--log-dir",
                        dataDir.resolve("kafka").toString(),
                        "--port",
                        String.valueOf(ports.kafka()),
                        "--controller-port",
                        String.valueOf(ports.controller())),
            JvmComponent.readyLine()));
    components.put(
        ProcessStack.REGISTRY,
        new JvmComponent(
            logs.resolve("registry.log"),
            () ->
                child(ProcessStack.REGISTRY, RegistryMain.class.getName(), logs, "192m")
                    .args(
                        "--bootstrap-servers",
                        bootstrap,
                        "--port",
                        String.valueOf(ports.registry())),
            JvmComponent.readyLine()));
    components.put(
        ProcessStack.MARIADB,
        new MariaDbComponent(
            dataDir.resolve("mariadb"), ports.mariadb(), dataDir.resolve(StackOptions.LOG_FILE)));
    ProcessScale scale = options.scale();
    for (int n = 1; n <= scale.routers(); n++) {
      components.put(ProcessScale.instanceName(ProcessStack.ROUTER, n), router(n, logs, config));
    }
    for (int n = 1; n <= scale.connectWorkers(); n++) {
      components.put(
          ProcessScale.instanceName(ProcessStack.CONNECT, n), connectWorker(n, logs, config));
    }
    components.put(
        ProcessStack.CAPTURE,
        new JvmComponent(
            logs.resolve("capture.log"),
            () ->
                child(ProcessStack.CAPTURE, CaptureMain.class.getName(), logs, "384m")
                    .args(
                        properties(
                                config.resolve("capture.properties"),
                                StackConfigs.capture(
                                    options.layout(),
                                    ports.mariadb(),
                                    bootstrap,
                                    registry,
                                    ports.captureAdmin()))
                            .toString()),
            JvmComponent.readiness(
                "Capture",
                c ->
                    new Readiness()
                        .check(
                            "Capture",
                            "capture RUNNING and streaming the binlog",
                            this::captureStreaming))));
    components.put(
        ProcessStack.MONITOR,
        new JvmComponent(
            logs.resolve("monitor.log"),
            () ->
                child(ProcessStack.MONITOR, MonitorCommand.class.getName(), logs, "192m")
                    .args(monitorArgs()),
            JvmComponent.readiness(
                "Monitor", c -> new Readiness().http("Monitor", urls.monitorHealthUrl()))));
    if (prometheusBinary != null) {
      components.put(
          ProcessStack.PROMETHEUS,
          new PrometheusComponent(
              prometheusBinary,
              dataDir.resolve("prometheus"),
              ports.prometheus(),
              EmbeddedStack.prometheusConfig(
                  urls.routerMetricsUrl(),
                  urls.captureAdminUrl(),
                  Optional.of(urls.upsertSinkMetricsUrl()),
                  urls.monitorMetricsUrl())));
    }
    return components;
  }

  /**
   * Router instance {@code n} (from 1): one application, each instance with its own static
   * membership id, state dir and metrics port.
   */
  private JvmComponent router(int n, Path logs, Path config) {
    String name = ProcessScale.instanceName(ProcessStack.ROUTER, n);
    int metricsPort = routerMetricsPort(n);
    String healthUrl = n == 1 ? urls.routerHealthUrl() : ProcessUrls.health(metricsPort);
    Path stateDir = options.dataDir().resolve(n == 1 ? "router-state" : "router-state-" + n);
    return new JvmComponent(
        logs.resolve(name + ".log"),
        () ->
            child(name, RouterMain.class.getName(), logs, "384m")
                .args(
                    properties(
                            config.resolve(name + ".properties"),
                            StackConfigs.router(
                                options,
                                urls.bootstrapServers(),
                                urls.schemaRegistryUrl(),
                                stateDir,
                                metricsPort,
                                options.layout().routerApplicationId() + "-" + n))
                        .toString()),
        JvmComponent.readiness(
            "Router", c -> new Readiness().http(ProcessUrls.label("Router", n), healthUrl)));
  }

  /**
   * Connect worker {@code n} (from 1) of one distributed cluster: the same worker properties but
   * its own REST port, and its own port for the upsert sink's metrics endpoint (the connector's
   * {@code metrics.port} is {@code ${env:...}}, read from each worker's environment). The first
   * worker configures both sinks; every worker is ready when they and all their tasks run.
   */
  private JvmComponent connectWorker(int n, Path logs, Path config) {
    String name = ProcessScale.instanceName(ProcessStack.CONNECT, n);
    int restPort = n == 1 ? ports.connect() : extraPort(name + ".rest.port");
    int sinkMetricsPort =
        n == 1 ? ports.upsertSinkMetrics() : extraPort(name + ".upsert.sink.metrics.port");
    return new JvmComponent(
        logs.resolve(name + ".log"),
        () ->
            child(name, "org.apache.kafka.connect.cli.ConnectDistributed", logs, "768m")
                .classpath(connectRuntime.workerClasspath())
                .environment(SinkConnectors.SINK_METRICS_PORT_ENV, String.valueOf(sinkMetricsPort))
                .jvmOption("-Dlogback.configurationFile=" + connectLogback(config))
                .stopGrace(Duration.ofSeconds(30))
                .args(workerProperties(config, name, restPort).toString()),
        JvmComponent.readiness(
            "Kafka Connect", c -> connectReadiness(ProcessUrls.connect(restPort), n == 1)));
  }

  /** The metrics port of router instance {@code n} (from 1). */
  int routerMetricsPort(int n) {
    return n == 1
        ? ports.metrics()
        : extraPort(ProcessScale.instanceName(ProcessStack.ROUTER, n) + ".metrics.port");
  }

  private int extraPort(String key) {
    return StackPorts.instance(options.dataDir(), key);
  }

  private ChildJvm.Builder child(String name, String mainClass, Path logs, String heap) {
    return ChildJvm.builder(name, mainClass, logs.resolve(name + ".log"))
        .heap(heap)
        .jvmOption(ProcessStack.CHILD_MARK + options.dataDir())
        .stopGrace(Duration.ofSeconds(20));
  }

  private String[] monitorArgs() {
    List<String> args = new ArrayList<>();
    args.addAll(
        List.of(
            "--bootstrap-servers",
            urls.bootstrapServers(),
            "--metrics-host",
            "127.0.0.1",
            "--metrics-port",
            String.valueOf(ports.monitorMetrics()),
            "--interval",
            String.valueOf(StackTimings.MONITOR_REFRESH.toSeconds()),
            "--iceberg-interval",
            String.valueOf(StackTimings.MONITOR_REFRESH.toSeconds()),
            "--clean-suffix",
            options.layout().topics().cleanSuffix(),
            "--dlq-suffix",
            options.layout().topics().dlqSuffix()));
    catalog.get().forEach((k, v) -> args.addAll(List.of("--catalog", k + "=" + v)));
    return args.toArray(String[]::new);
  }

  /**
   * Worker healthy, both connectors configured (by the first worker, unless they are already) and
   * RUNNING with all their tasks.
   */
  private Readiness connectReadiness(String connectUrl, boolean configures) {
    ConnectRestClient client = new ConnectRestClient(connectUrl);
    SinkConnectors sinks = new SinkConnectors(client, catalog.get(), options);
    Readiness readiness =
        new Readiness()
            .check(
                "Kafka Connect", "GET " + connectUrl + "/health with status 200", client::healthy);
    if (configures) {
      readiness =
          readiness.check(
              "Kafka Connect",
              "both sink connectors configured",
              () -> {
                sinks.configure(
                    urls.bootstrapServers(),
                    urls.schemaRegistryUrl(),
                    "${env:" + SinkConnectors.SINK_METRICS_PORT_ENV + "}",
                    options.scale().sinkTasks());
                return true;
              });
    }
    return readiness
        .check(
            "Kafka Connect",
            "connector " + options.layout().upsertSink() + " and its tasks RUNNING",
            () -> sinks.running(options.layout().upsertSink()))
        .check(
            "Kafka Connect",
            "connector " + options.layout().changelogSink() + " and its tasks RUNNING",
            () -> sinks.running(options.layout().changelogSink()));
  }

  private boolean captureStreaming() throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        urls.captureAdminUrl()
                            + "/connectors/"
                            + options.layout().captureName()
                            + "/status"))
                .timeout(Duration.ofSeconds(5))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (response.statusCode() != 200) {
      return false;
    }
    JsonNode status = json.readTree(response.body());
    return "RUNNING".equals(status.path("connector").path("state").asText())
        && status.path("streaming").asBoolean(false);
  }

  /**
   * compose's worker properties with hosts, ports and {@code plugin.path} for this machine; every
   * other key as compose has it.
   */
  private Path workerProperties(Path config, String name, int restPort) {
    Properties props = new Properties();
    try (Reader reader = Files.newBufferedReader(connectRuntime.workerProperties())) {
      props.load(reader);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + connectRuntime.workerProperties(), e);
    }
    props.setProperty("bootstrap.servers", urls.bootstrapServers());
    props.setProperty("listeners", ProcessUrls.connect(restPort));
    props.setProperty("rest.advertised.host.name", "127.0.0.1");
    props.setProperty("rest.advertised.port", String.valueOf(restPort));
    props.setProperty("plugin.path", connectRuntime.pluginsDir().toString());
    Map<String, Object> all = new LinkedHashMap<>();
    props.stringPropertyNames().stream().sorted().forEach(k -> all.put(k, props.getProperty(k)));
    String file = name.equals(ProcessStack.CONNECT) ? "connect-distributed" : name;
    return properties(config.resolve(file + ".properties"), all);
  }

  private static Path connectLogback(Path config) {
    Path file = config.resolve("connect-logback.xml");
    try (InputStream in =
        ProcessComponents.class.getResourceAsStream("connect-worker-logback.xml")) {
      if (in == null) {
        throw new IllegalStateException("connect-worker-logback.xml is missing from the stack jar");
      }
      Files.createDirectories(config);
      Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }

  private static Path properties(Path file, Map<String, Object> values) {
    Properties props = new Properties();
    values.forEach((k, v) -> props.setProperty(k, String.valueOf(v)));
    try {
      Files.createDirectories(file.getParent());
      try (Writer out = Files.newBufferedWriter(file)) {
        props.store(out, "written by the Sluice process stack at each start of the component");
      }
      return file;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write " + file, e);
    }
  }
}
