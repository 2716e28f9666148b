package io.sluice.schema.server;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A small schema registry for the embedded stack: the Confluent REST subset that Sluice uses
 * (register, lookup, schemas by id, versions, compatibility check, config), stored in the compacted
 * Kafka topic {@code _schemas} so ids and versions survive a restart. Avro only; BACKWARD
 * compatibility by default. Not for production: compose runs the real Confluent registry.
 */
public final class DevSchemaRegistry implements AutoCloseable {
  /** The Kafka topic that stores schemas and config. */
  public static final String TOPIC = "_schemas";

  private static final Logger log = LoggerFactory.getLogger(DevSchemaRegistry.class);
  private static final int HTTP_THREADS = 4;

  private static final String JDK_HTTP_SERVER_NODELAY = "sun.net.httpserver.nodelay";

  private final HttpServer server;
  private final ExecutorService executor;
  private final AutoCloseable storage;
  private final String url;
  private boolean closed;

  private DevSchemaRegistry(HttpServer server, ExecutorService executor, AutoCloseable storage) {
    this.server = server;
    this.executor = executor;
    this.storage = storage;
    String host = server.getAddress().getHostString();
    this.url =
        "http://"
            + (host.contains(":") ? "[" + host + "]" : host)
            + ":"
            + server.getAddress().getPort();
  }

  /**
   * Reads {@link #TOPIC} on {@code bootstrapServers} (creating it when missing) to rebuild the
   * registry, then serves HTTP on {@code host:port}.
   *
   * @param port the HTTP port, 0 for a free one
   */
  public static DevSchemaRegistry start(String bootstrapServers, String host, int port) {
    SchemaLog schemaLog = SchemaLog.open(bootstrapServers, TOPIC);
    try {
      RegistryState state = new RegistryState();
      long records = schemaLog.replay(state::apply);
      DevSchemaRegistry registry = serve(state, schemaLog::append, schemaLog, host, port);
      log.info(
          "dev schema registry on {} ({} records from {} on {}, {} subjects, max schema id {})",
          registry.url,
          records,
          TOPIC,
          bootstrapServers,
          state.subjects().size(),
          state.maxId());
      return registry;
    } catch (RuntimeException e) {
      schemaLog.close();
      throw e;
    }
  }

  /**
   * A registry that keeps everything in memory and forgets it on {@link #close()}: for unit tests
   * that need a real registry over HTTP but no broker.
   *
   * @param port the HTTP port, 0 for a free one
   */
  public static DevSchemaRegistry startInMemory(String host, int port) {
    DevSchemaRegistry registry = serve(new RegistryState(), entry -> {}, () -> {}, host, port);
    log.info("in-memory dev schema registry on {}", registry.url);
    return registry;
  }

  private static DevSchemaRegistry serve(
      RegistryState state,
      Consumer<LogEntry> durableLog,
      AutoCloseable storage,
      String host,
      int port) {
    HttpServer server;
    try {
      // Without TCP_NODELAY the JDK server's response waits for the client's delayed ACK on every
      // request after a connection's first (docs/benchmarks.md, Findings). Read once, when the
      // JVM's first HttpServer starts; a value set on the command line wins.
      System.getProperties().putIfAbsent(JDK_HTTP_SERVER_NODELAY, "true");
      server = HttpServer.create(new InetSocketAddress(host, port), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot serve the dev schema registry on " + host + ":" + port, e);
    }
    ExecutorService executor = Executors.newFixedThreadPool(HTTP_THREADS, threadFactory());
    server.createContext("/", new RegistryHttpHandler(new SchemaStore(state, durableLog)));
    server.setExecutor(executor);
    server.start();
    return new DevSchemaRegistry(server, executor, storage);
  }

  /** The base URL, e.g. {@code http://127.0.0.1:8081}. */
  public String url() {
    return url;
  }

  public int port() {
    return server.getAddress().getPort();
  }

  /** Stops serving and closes the Kafka clients; the topic (and so every schema) stays. */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    server.stop(0);
    executor.shutdownNow();
    try {
      storage.close();
    } catch (Exception e) {
      log.warn("closing the storage of the dev schema registry on {} failed", url, e);
    }
    log.info("dev schema registry on {} stopped", url);
  }

  private static ThreadFactory threadFactory() {
    AtomicInteger count = new AtomicInteger();
    return runnable -> {
      Thread thread = new Thread(runnable, "dev-schema-registry-" + count.incrementAndGet());
      thread.setDaemon(true);
      return thread;
    };
  }
}
