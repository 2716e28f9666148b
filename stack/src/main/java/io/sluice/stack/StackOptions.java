package io.sluice.stack;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * How to start the embedded stack.
 *
 * @param dataDir where the broker log, the router state and {@code stack.properties} live; any dir,
 *     also one under {@code java.io.tmpdir}, keeps its data across restarts
 * @param ports ports asked for; the others come from {@code stack.properties} or are picked free
 * @param readyFile where to write the endpoints once everything answers, or null for none
 * @param readyTimeout how long every component together may take to answer
 * @param prometheus true to also run a Prometheus server scraping every component ({@link
 *     PrometheusServer}, files under {@code <data dir>/prometheus/})
 * @param prometheusBinary the {@code prometheus} binary, or null to find it ({@link
 *     PrometheusServer#locate})
 * @param scale how many routers, Connect workers and sink tasks the process stack runs (the one-JVM
 *     stack runs one router and one Connect worker, with the sink tasks asked for)
 * @param routerConfig router settings over the stack's own ({@code sluice up --router-config}),
 *     checked here by the router's config definition ({@link IllegalArgumentException} naming the
 *     key)
 * @param sinkConfig upsert sink settings over the stack's own ({@code sluice up --sink-config}),
 *     checked here by the upsert sink's config definition; the keys the stack sets are refused, and
 *     the topic suffixes unless they equal the router's
 */
public record StackOptions(
    Path dataDir,
    StackPorts.Requested ports,
    Path readyFile,
    Duration readyTimeout,
    boolean prometheus,
    Path prometheusBinary,
    ProcessScale scale,
    Map<String, String> routerConfig,
    Map<String, String> sinkConfig) {
  /** {@code .sluice/data} under the current directory. */
  public static final Path DEFAULT_DATA_DIR = Path.of(".sluice", "data");

  /**
   * The log of {@code sluice up}, relative to the data dir; with the process stack, the
   * supervisor's (MariaDB's lines too), beside one log per component in the same folder.
   */
  public static final Path LOG_FILE = Path.of("logs", "sluice-up.log");

  public static final Duration DEFAULT_READY_TIMEOUT = Duration.ofSeconds(120);

  public StackOptions {
    if (dataDir == null) {
      throw new IllegalArgumentException("dataDir is required");
    }
    dataDir = dataDir.toAbsolutePath().normalize();
    ports = ports == null ? StackPorts.Requested.NONE : ports;
    readyTimeout = readyTimeout == null ? DEFAULT_READY_TIMEOUT : readyTimeout;
    scale = scale == null ? ProcessScale.SINGLE : scale;
    routerConfig = routerConfig == null ? Map.of() : Map.copyOf(routerConfig);
    sinkConfig = sinkConfig == null ? Map.of() : Map.copyOf(sinkConfig);
    StackConfigs.checkRouterConfig(routerConfig);
    StackConfigs.checkSinkConfig(sinkConfig, routerConfig);
  }

  /** Options at {@code scale} with the stack's own component settings. */
  public StackOptions(
      Path dataDir,
      StackPorts.Requested ports,
      Path readyFile,
      Duration readyTimeout,
      boolean prometheus,
      Path prometheusBinary,
      ProcessScale scale) {
    this(dataDir, ports, readyFile, readyTimeout, prometheus, prometheusBinary, scale, null, null);
  }

  /** The names the stack runs with: the defaults, with the router's suffixes when set. */
  public StackLayout layout() {
    return StackLayout.DEFAULT.withTopics(StackConfigs.routerTopics(routerConfig));
  }

  /** Options of one router, one Connect worker and one task per sink. */
  public StackOptions(
      Path dataDir,
      StackPorts.Requested ports,
      Path readyFile,
      Duration readyTimeout,
      boolean prometheus,
      Path prometheusBinary) {
    this(dataDir, ports, readyFile, readyTimeout, prometheus, prometheusBinary, null);
  }

  /** Options with no port preference, no ready file, no Prometheus and the default timeout. */
  public static StackOptions in(Path dataDir) {
    return new StackOptions(
        dataDir, StackPorts.Requested.NONE, null, DEFAULT_READY_TIMEOUT, false, null);
  }

  public StackOptions withReadyFile(Path file) {
    return new StackOptions(
        dataDir,
        ports,
        file,
        readyTimeout,
        prometheus,
        prometheusBinary,
        scale,
        routerConfig,
        sinkConfig);
  }

  public StackOptions withPorts(StackPorts.Requested requested) {
    return new StackOptions(
        dataDir,
        requested,
        readyFile,
        readyTimeout,
        prometheus,
        prometheusBinary,
        scale,
        routerConfig,
        sinkConfig);
  }

  /** The same options with Prometheus scraping the stack; {@code binary} null finds it. */
  public StackOptions withPrometheus(Path binary) {
    return new StackOptions(
        dataDir, ports, readyFile, readyTimeout, true, binary, scale, routerConfig, sinkConfig);
  }

  /** The same options with {@code value} routers, Connect workers and sink tasks. */
  public StackOptions withScale(ProcessScale value) {
    return new StackOptions(
        dataDir,
        ports,
        readyFile,
        readyTimeout,
        prometheus,
        prometheusBinary,
        value,
        routerConfig,
        sinkConfig);
  }

  /** The same options with {@code timeout} for every component together to answer. */
  public StackOptions withReadyTimeout(Duration timeout) {
    return new StackOptions(
        dataDir,
        ports,
        readyFile,
        timeout,
        prometheus,
        prometheusBinary,
        scale,
        routerConfig,
        sinkConfig);
  }

  /** The same options with these router and upsert sink settings over the stack's own. */
  public StackOptions withComponentConfig(Map<String, String> router, Map<String, String> sink) {
    return new StackOptions(
        dataDir, ports, readyFile, readyTimeout, prometheus, prometheusBinary, scale, router, sink);
  }
}
