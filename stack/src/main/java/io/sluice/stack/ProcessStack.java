package io.sluice.stack;

import io.sluice.contract.ReadyFile;
import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.embedded.process.ChildJvm;
import io.sluice.embedded.process.Leftovers;
import io.sluice.stack.control.ComponentStatus;
import io.sluice.stack.control.StackControlServer;
import io.sluice.stack.control.StackController;
import io.sluice.stack.kafka.Topics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stack with every component in a process of its own, under this JVM as supervisor: the broker,
 * the schema registry, MariaDB (mariadbd), the router, a distributed Connect worker loading both
 * sinks from {@code plugin.path} as compose's image does ({@link ConnectRuntime}), the capture and
 * the monitor, and optionally Prometheus scraping them ({@link PrometheusComponent}). Names,
 * topics, tables, ports and data dir layout are those of {@link EmbeddedStack}, so every tool and
 * scenario works on either; logs go to {@code <data dir>/logs/<component>.log} (Prometheus' to
 * {@code <data dir>/prometheus/prometheus.log}).
 *
 * <p>The supervisor starts, stops and SIGKILLs any one component on request, and crashes them all
 * at once ({@link StackController}, served on loopback by {@link StackControlServer}: {@code sluice
 * stack}); a component that ends on its own is reported (WARN) and left down until started. Every
 * child ends with the supervisor however it ends ({@link ChildJvm}); a start on a data dir where a
 * killed supervisor left children still running stops them first, with a WARN line each, and a
 * second supervisor on the same data dir is refused.
 */
public final class ProcessStack implements StackController, Stack {
  public static final String BROKER = "broker";
  public static final String REGISTRY = "registry";
  public static final String MARIADB = "mariadb";
  public static final String ROUTER = "router";
  public static final String CONNECT = "connect";
  public static final String CAPTURE = "capture";
  public static final String MONITOR = "monitor";
  public static final String PROMETHEUS = "prometheus";

  /** The JVM option that marks a child of the supervisor of a data dir. */
  static final String CHILD_MARK = "-Dsluice.stack.dir=";

  private static final Logger log = LoggerFactory.getLogger(ProcessStack.class);
  private static final Duration WATCH = Duration.ofSeconds(1);

  private final StackOptions options;
  private final StackLayout layout;
  private final ConnectRuntime connectRuntime;
  private final ReadyFile readyFile;
  private final Map<String, Slot> slots = new LinkedHashMap<>();
  private StackPorts ports;
  private List<String> routerMetricsUrls = List.of();
  private Map<String, String> catalog;
  private FileChannel lockChannel;
  private StackControlServer control;
  private ScheduledExecutorService watcher;
  private volatile boolean closed;

  /** A component, and what the supervisor knows of it beyond the process. */
  private static final class Slot {
    final String name;
    final Supervised component;
    String state = ComponentStatus.STOPPED;
    int starts;

    Slot(String name, Supervised component) {
      this.name = name;
      this.component = component;
    }
  }

  public ProcessStack(StackOptions options) {
    this(options, ConnectRuntime.fromSystemProperties());
  }

  ProcessStack(StackOptions options, ConnectRuntime connectRuntime) {
    this.options = options;
    this.layout = options.layout();
    this.connectRuntime = connectRuntime;
    this.readyFile = options.readyFile() == null ? null : new ReadyFile(options.readyFile());
  }

  /**
   * Starts every component in order, each once the one before answers, then the control API, and
   * writes the ready file.
   *
   * @throws StackStartException when one does not start or answer in time (whatever had started is
   *     stopped again)
   */
  public ProcessStack start() {
    try {
      startAll();
      return this;
    } catch (RuntimeException e) {
      close();
      throw e;
    }
  }

  private synchronized void startAll() {
    Path dataDir = options.dataDir();
    long deadline = System.nanoTime() + options.readyTimeout().toNanos();
    // Before anything starts: a missing binary should not cost a minute of start-up first.
    Path prometheusBinary =
        options.prometheus() ? PrometheusServer.locate(options.prometheusBinary()) : null;
    lockDataDir(dataDir);
    int leftovers = Leftovers.stop(CHILD_MARK + dataDir + " ", "component JVM");
    if (leftovers > 0) {
      log.warn("Stopped {} component JVM(s) a killed stack left on {}", leftovers, dataDir);
    }
    ports = StackPorts.resolve(dataDir, options.ports());
    log.info("Starting the Sluice process stack in {}", dataDir);
    define(prometheusBinary);
    for (Slot slot : slots.values()) {
      abortIfClosed();
      startSlot(slot, remaining(deadline));
    }
    awaitScraped(remaining(deadline));
    control = StackControlServer.start("127.0.0.1", ports.control(), this);
    watcher =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "stack-watch");
              t.setDaemon(true);
              return t;
            });
    watcher.scheduleWithFixedDelay(
        this::watch, WATCH.toMillis(), WATCH.toMillis(), TimeUnit.MILLISECONDS);
    publishReadyFile();
  }

  /** The components in start order ({@link ProcessComponents}). */
  private void define(Path prometheusBinary) {
    ProcessComponents components =
        new ProcessComponents(options, ports, connectRuntime, () -> catalog);
    routerMetricsUrls =
        IntStream.rangeClosed(1, options.scale().routers())
            .mapToObj(n -> "http://127.0.0.1:" + components.routerMetricsPort(n) + "/metrics")
            .toList();
    components
        .inStartOrder(prometheusBinary)
        .forEach((name, component) -> slots.put(name, new Slot(name, component)));
  }

  /**
   * What a started broker needs before the components after it: the main topic, the Iceberg catalog
   * and the Apache sink's control topic. At every start of the broker, not only the stack's first:
   * each step is idempotent, and a broker whose log was lost needs them again.
   */
  private void prepareBroker() {
    try (Admin admin = admin()) {
      if (Topics.ensure(admin, layout.mainTopic(), layout.mainTopicPartitions())) {
        log.info("Created topic {}", layout.mainTopic());
      }
      catalog = LakeSinks.prepare(options.dataDir(), admin);
    }
  }

  /** Once every component runs: Prometheus, when the stack has it, has scraped each target. */
  private void awaitScraped(Duration timeout) {
    Slot slot = slots.get(PROMETHEUS);
    if (slot != null && slot.state.equals(ComponentStatus.RUNNING)) {
      ((PrometheusComponent) slot.component).awaitTargetsUp(timeout);
    }
  }

  // --- control -------------------------------------------------------------------------------

  @Override
  public synchronized List<ComponentStatus> status() {
    return slots.values().stream().map(this::status).toList();
  }

  private ComponentStatus status(Slot slot) {
    Supervised c = slot.component;
    return new ComponentStatus(
        slot.name,
        slot.state,
        c.pid().isPresent() ? c.pid().getAsLong() : null,
        slot.starts,
        slot.state.equals(ComponentStatus.RUNNING) ? null : c.exitCode(),
        c.log().toString());
  }

  @Override
  public synchronized ComponentStatus kill(String component) {
    Slot slot = running(component, "kill");
    int code = slot.component.kill();
    slot.state = ComponentStatus.KILLED;
    log.warn("{} SIGKILLed on request (exit code {})", component, code);
    publishReadyFile();
    return status(slot);
  }

  @Override
  public synchronized ComponentStatus stop(String component) {
    Slot slot = running(component, "stop");
    int code = slot.component.stop();
    slot.state = ComponentStatus.STOPPED;
    log.info("{} stopped on request (exit code {})", component, code);
    publishReadyFile();
    return status(slot);
  }

  @Override
  public synchronized ComponentStatus start(String component) {
    Slot slot = slot(component);
    if (slot.state.equals(ComponentStatus.RUNNING)) {
      throw new ControlException(
          409, component + " runs already (pid " + slot.component.pid().orElse(-1) + ")");
    }
    try {
      startSlot(slot, options.readyTimeout());
    } catch (RuntimeException e) {
      slot.state = ComponentStatus.EXITED;
      publishReadyFile();
      throw new ControlException(500, component + " did not start: " + e.getMessage());
    }
    publishReadyFile();
    return status(slot);
  }

  /**
   * A machine crash: every running component SIGKILLed at once, then all of them started again in
   * start order, each once the one before answers, as at the stack's start.
   */
  @Override
  public synchronized List<ComponentStatus> crash() {
    List<Slot> running =
        slots.values().stream().filter(s -> s.state.equals(ComponentStatus.RUNNING)).toList();
    log.warn(
        "Crashing the stack on request: SIGKILL to {}", running.stream().map(s -> s.name).toList());
    // Every signal first, then the waits: the components die together, as on a machine that
    // loses power, not one after the other while the rest notice and react.
    for (Slot slot : running) {
      slot.component
          .pid()
          .ifPresent(pid -> ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly));
    }
    for (Slot slot : running) {
      int code = slot.component.kill();
      slot.state = ComponentStatus.KILLED;
      log.warn("{} SIGKILLed by the crash (exit code {})", slot.name, code);
    }
    publishReadyFile();
    long deadline = System.nanoTime() + options.readyTimeout().toNanos();
    for (Slot slot : slots.values()) {
      try {
        startSlot(slot, remaining(deadline));
      } catch (RuntimeException e) {
        slot.state = ComponentStatus.EXITED;
        publishReadyFile();
        throw new ControlException(
            500,
            "after the crash "
                + slot.name
                + " did not start, and the components after it are down: "
                + e.getMessage());
      }
    }
    try {
      awaitScraped(remaining(deadline));
    } catch (RuntimeException e) {
      throw new ControlException(500, "after the crash " + e.getMessage());
    } finally {
      publishReadyFile();
    }
    log.info("Every component runs again after the crash");
    return status();
  }

  private void startSlot(Slot slot, Duration timeout) {
    log.info("Starting {}", slot.name);
    slot.component.start(timeout);
    if (slot.name.equals(BROKER)) {
      try {
        prepareBroker();
      } catch (RuntimeException e) {
        slot.component.kill();
        throw e;
      }
    }
    slot.starts++;
    slot.state = ComponentStatus.RUNNING;
    log.info("{} runs (pid {})", slot.name, slot.component.pid().orElse(-1));
  }

  private Slot running(String component, String action) {
    Slot slot = slot(component);
    if (!slot.state.equals(ComponentStatus.RUNNING)) {
      throw new ControlException(
          409, "cannot " + action + " " + component + ": it is " + slot.state + ", not running");
    }
    return slot;
  }

  private Slot slot(String component) {
    Slot slot = slots.get(component);
    if (slot == null) {
      throw new ControlException(
          404, "no component " + component + "; the stack has " + slots.keySet());
    }
    return slot;
  }

  /** Notices a component that ended on its own. */
  private synchronized void watch() {
    if (closed) {
      return;
    }
    for (Slot slot : slots.values()) {
      if (slot.state.equals(ComponentStatus.RUNNING) && !slot.component.alive()) {
        slot.state = ComponentStatus.EXITED;
        log.warn(
            "{} exited on its own (exit code {}); see {}; `sluice stack start {}` starts it again",
            slot.name,
            slot.component.exitCode(),
            slot.component.log(),
            slot.name);
        publishReadyFile();
      }
    }
  }

  // --- endpoints -----------------------------------------------------------------------------

  /** The ready file's object: the endpoints, the control API and every component. */
  @Override
  public StackLayout layout() {
    return layout;
  }

  @Override
  public synchronized Map<String, Object> endpoints() {
    Map<String, Object> endpoints = new LinkedHashMap<>();
    endpoints.put(ReadyFile.BOOTSTRAP_SERVERS, bootstrapServers());
    endpoints.put(ReadyFile.SCHEMA_REGISTRY_URL, schemaRegistryUrl());
    endpoints.put(ReadyFile.ROUTER_METRICS_URL, routerMetricsUrl());
    endpoints.put(ReadyFile.ROUTER_METRICS_URLS, routerMetricsUrls);
    endpoints.put(ReadyFile.JDBC_URL, jdbcUrl());
    endpoints.put(ReadyFile.JDBC_USER, EmbeddedMariaDb.APP_USER);
    endpoints.put(ReadyFile.JDBC_PASSWORD, EmbeddedMariaDb.APP_PASSWORD);
    endpoints.put(ReadyFile.CAPTURE_ADMIN_URL, captureAdminUrl());
    endpoints.put(ReadyFile.CONNECT_URL, connectUrl());
    endpoints.put(ReadyFile.ICEBERG_CATALOG, catalog);
    endpoints.put(ReadyFile.WAREHOUSE, catalog.get("warehouse"));
    endpoints.put(ReadyFile.UPSERT_SINK_METRICS_URL, upsertSinkMetricsUrl());
    endpoints.put(ReadyFile.MONITOR_METRICS_URL, monitorMetricsUrl());
    endpoints.put(ReadyFile.ROUTER_CONFIG, options.routerConfig());
    endpoints.put(ReadyFile.SINK_CONFIG, options.sinkConfig());
    if (slots.get(PROMETHEUS) != null
        && slots.get(PROMETHEUS).component instanceof PrometheusComponent p) {
      endpoints.put(ReadyFile.PROMETHEUS_URL, p.url());
    }
    endpoints.put(ReadyFile.CONTROL_URL, control == null ? null : control.url());
    ProcessScale scale = options.scale();
    Map<String, Object> scaled = new LinkedHashMap<>();
    scaled.put("routers", scale.routers());
    scaled.put("connect_workers", scale.connectWorkers());
    scaled.put("sink_tasks", scale.sinkTasks());
    endpoints.put(ReadyFile.SCALE, scaled);
    Map<String, Object> components = new LinkedHashMap<>();
    for (Slot slot : slots.values()) {
      ComponentStatus s = status(slot);
      Map<String, Object> c = new LinkedHashMap<>();
      c.put("pid", s.pid());
      c.put("state", s.state());
      c.put("log", s.log());
      for (String action : List.of("stop", "kill", "start")) {
        c.put(action, "sluice stack " + action + " " + slot.name + readyFileFlag());
      }
      components.put(slot.name, c);
    }
    endpoints.put(ReadyFile.COMPONENTS, components);
    // The suffixes of the layout are those of the router config every router starts with.
    endpoints.put(ReadyFile.TOPICS, ReadyFile.topics(layout.topics()));
    return endpoints;
  }

  private String readyFileFlag() {
    return readyFile == null ? "" : " --ready-file " + readyFile.path().toAbsolutePath();
  }

  public String bootstrapServers() {
    return urls().bootstrapServers();
  }

  public String schemaRegistryUrl() {
    return urls().schemaRegistryUrl();
  }

  public String routerMetricsUrl() {
    return urls().routerMetricsUrl();
  }

  public String upsertSinkMetricsUrl() {
    return urls().upsertSinkMetricsUrl();
  }

  public String monitorMetricsUrl() {
    return urls().monitorMetricsUrl();
  }

  public String routerHealthUrl() {
    return urls().routerHealthUrl();
  }

  public String jdbcUrl() {
    return urls().jdbcUrl();
  }

  public String captureAdminUrl() {
    return urls().captureAdminUrl();
  }

  public String connectUrl() {
    return urls().connectUrl();
  }

  private ProcessUrls urls() {
    return new ProcessUrls(ports);
  }

  /** The control API's base URL. */
  public String controlUrl() {
    return control.url();
  }

  public StackPorts ports() {
    return ports;
  }

  private synchronized void publishReadyFile() {
    if (readyFile != null && control != null && !closed) {
      readyFile.write(endpoints());
    }
  }

  // --- lifecycle ------------------------------------------------------------------------------

  /** One supervisor per data dir: a lock the OS releases however this JVM ends. */
  private void lockDataDir(Path dataDir) {
    Path file = dataDir.resolve("processes").resolve("supervisor.lock");
    try {
      Files.createDirectories(file.getParent());
      lockChannel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
      FileLock lock = lockChannel.tryLock();
      if (lock == null) {
        lockChannel.close();
        lockChannel = null;
        throw new StackStartException(
            "another `sluice up --processes` runs on "
                + dataDir
                + " (it holds "
                + file
                + "); stop it first, or use another --data-dir");
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot lock " + file, e);
    }
  }

  /** Deletes the ready file and stops every component, the last started first. */
  @Override
  public synchronized void close() {
    closed = true;
    if (readyFile != null) {
      readyFile.delete();
    }
    if (watcher != null) {
      watcher.shutdownNow();
    }
    if (control != null) {
      control.close();
    }
    List<Slot> reversed = new ArrayList<>(slots.values());
    java.util.Collections.reverse(reversed);
    for (Slot slot : reversed) {
      if (slot.component.alive()) {
        try {
          int code = slot.component.stop();
          log.info("Stopped {} (exit code {})", slot.name, code);
        } catch (RuntimeException e) {
          log.warn("Stopping {} failed: {}", slot.name, e.toString());
        }
      }
      slot.state = ComponentStatus.STOPPED;
    }
    if (lockChannel != null) {
      try {
        lockChannel.close();
      } catch (IOException e) {
        log.warn("cannot release the data dir lock: {}", e.toString());
      }
    }
  }

  private void abortIfClosed() {
    if (closed) {
      throw new StackStartException("the stack was stopped while starting");
    }
  }

  private static Duration remaining(long deadlineNanos) {
    return Duration.ofNanos(Math.max(0, deadlineNanos - System.nanoTime()));
  }

  private Admin admin() {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers(),
            AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 10000));
  }
}
