package io.sluice.embedded;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.connect.cli.ConnectDistributed;
import org.apache.kafka.connect.runtime.Connect;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A distributed Kafka Connect worker in this JVM: REST on 127.0.0.1, internal topics with
 * replication factor 1, plugins found on the classpath through their {@code META-INF/services}
 * files ({@code plugin.discovery=service_load}, no {@code plugin.path}), connector client overrides
 * refused ({@code connector.client.config.override.policy=None}). Connectors keep running across a
 * restart of the worker with the same group id: their configs and offsets live in the internal
 * topics {@code <groupId>-configs}, {@code -offsets} and {@code -status}.
 */
public final class EmbeddedConnect implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedConnect.class);
  private static final Duration START_TIMEOUT = Duration.ofSeconds(60);

  /** The thread of Kafka Connect's own shutdown hook (Connect.ShutdownHook, Kafka 4.1). */
  public static final String CONNECT_SHUTDOWN_HOOK = "connect-shutdown-hook";

  private static final Duration HOOK_WAIT = Duration.ofSeconds(30);

  private final Connect<?> connect;
  private final String url;
  private final ConnectRestClient client;
  private boolean stopped;

  private EmbeddedConnect(Connect<?> connect, String url) {
    this.connect = connect;
    this.url = url;
    this.client = new ConnectRestClient(url);
  }

  /**
   * Starts a worker and returns once it is healthy ({@code GET /health}) and its REST API answers
   * {@code GET /connectors}.
   *
   * @param restPort REST port on 127.0.0.1, 0 to pick a free one
   */
  public static EmbeddedConnect start(String bootstrapServers, String groupId, int restPort) {
    return start(bootstrapServers, groupId, restPort, Map.of());
  }

  /**
   * As {@link #start(String, String, int)}, with {@code overrides} applied last to the worker
   * properties (for example {@code offset.flush.interval.ms}).
   */
  public static EmbeddedConnect start(
      String bootstrapServers, String groupId, int restPort, Map<String, String> overrides) {
    int port = restPort == 0 ? FreePort.pick() : restPort;
    Map<String, String> props = workerProperties(bootstrapServers, groupId, port);
    props.putAll(overrides);
    Connect<?> connect = new ConnectDistributed().startConnect(props);
    EmbeddedConnect worker = new EmbeddedConnect(connect, "http://127.0.0.1:" + port);
    try {
      worker.awaitRest();
    } catch (RuntimeException e) {
      worker.close();
      throw e;
    }
    log.info("Connect worker {} started, REST on {}", groupId, worker.url);
    return worker;
  }

  private void awaitRest() {
    long deadline = System.nanoTime() + START_TIMEOUT.toNanos();
    RuntimeException last = null;
    while (System.nanoTime() < deadline) {
      try {
        // /health turns 200 only after the herder joined the group and read the config topic;
        // GET /connectors answers earlier, from an empty view.
        if (client.healthy()) {
          client.connectors();
          return;
        }
      } catch (RuntimeException e) {
        last = e;
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException("interrupted while waiting for Connect on " + url, e);
      }
    }
    throw new IllegalStateException(
        "Connect worker did not answer GET /connectors on " + url + " within " + START_TIMEOUT,
        last);
  }

  /** Base URL of the REST API, e.g. {@code http://127.0.0.1:8083}. */
  public String url() {
    return url;
  }

  /** A client of this worker's REST API. */
  public ConnectRestClient client() {
    return client;
  }

  /** Stops the worker (connectors stay configured in the internal topics). */
  @Override
  public synchronized void close() {
    if (stopped) {
      return;
    }
    stopped = true;
    connect.stop();
    connect.awaitStop();
    awaitConnectsOwnShutdownHook();
    log.info("Connect worker on {} stopped", url);
  }

  /**
   * {@code Connect.start()} registers a JVM shutdown hook of its own that stops the worker too. On
   * Ctrl-C or SIGTERM it runs beside the stack's hook, and then our {@code stop()} returns at once
   * (and releases {@code awaitStop()}) while that hook is still stopping connectors and tasks. A
   * broker stopped at that point left them blocked on Kafka metadata and {@code sluice up} hung for
   * minutes: wait for that hook (its thread name, {@value #CONNECT_SHUTDOWN_HOOK}, is Kafka's).
   */
  private static void awaitConnectsOwnShutdownHook() {
    for (Thread thread : Thread.getAllStackTraces().keySet()) {
      if (thread.getName().equals(CONNECT_SHUTDOWN_HOOK) && thread != Thread.currentThread()) {
        try {
          thread.join(HOOK_WAIT.toMillis());
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
        if (thread.isAlive()) {
          log.warn(
              "Kafka Connect's shutdown hook still runs after {} s; stopping the rest anyway",
              HOOK_WAIT.toSeconds());
        }
      }
    }
  }

  static Map<String, String> workerProperties(String bootstrapServers, String groupId, int port) {
    Map<String, String> p = new HashMap<>();
    p.put("bootstrap.servers", bootstrapServers);
    p.put("group.id", groupId);
    p.put("listeners", "http://127.0.0.1:" + port);
    p.put("rest.advertised.host.name", "127.0.0.1");
    p.put("rest.advertised.port", String.valueOf(port));
    p.put("config.storage.topic", groupId + "-configs");
    p.put("offset.storage.topic", groupId + "-offsets");
    p.put("status.storage.topic", groupId + "-status");
    p.put("config.storage.replication.factor", "1");
    p.put("offset.storage.replication.factor", "1");
    p.put("status.storage.replication.factor", "1");
    p.put("offset.storage.partitions", "3");
    p.put("status.storage.partitions", "1");
    p.put("key.converter", "org.apache.kafka.connect.json.JsonConverter");
    p.put("value.converter", "org.apache.kafka.connect.json.JsonConverter");
    // Scanning the classpath for plugins costs ~3 s per start; the service files are enough.
    p.put("plugin.discovery", "service_load");
    // Sink tasks hand their offsets to Connect (preCommit) this often; it also bounds how long an
    // idle sink task waits between two put() calls.
    p.put("offset.flush.interval.ms", "1000");
    p.put("scheduled.rebalance.max.delay.ms", "0");
    // The REST API has no authentication: no connector may point its clients elsewhere
    // (consumer.override.* and the like), as in compose. Kafka 4.1's default is All.
    p.put("connector.client.config.override.policy", "None");
    return p;
  }
}
