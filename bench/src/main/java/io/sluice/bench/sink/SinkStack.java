package io.sluice.bench.sink;

import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.EmbeddedConnect;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.connect.SinkWorkerProperties;
import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.server.DevSchemaRegistry;
import io.sluice.stack.StackTimings;
import io.sluice.stack.kafka.Topics;
import io.sluice.stack.workload.OrdersAvro;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Comparator;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a sink benchmark runs on: a fresh broker, dev registry, Connect worker and SQLite catalog in
 * a temporary directory, deleted again on {@link #close()}. Nothing is shared with {@code sluice
 * up}.
 */
public final class SinkStack implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SinkStack.class);

  private final Path dir;
  private final Deque<AutoCloseable> opened = new ArrayDeque<>();
  private EmbeddedKafka kafka;
  private DevSchemaRegistry registry;
  private Admin admin;
  private Map<String, String> catalog;
  private LakeCatalog lake;
  private EmbeddedConnect connect;

  private SinkStack(Path dir) {
    this.dir = dir;
  }

  /**
   * Starts the stack.
   *
   * @param name the temporary directory's prefix and the worker's group id
   * @param commitIntervalMs the sinks' commit interval: sink tasks commit their offsets (and the
   *     upsert sink checks its interval) at least this often
   */
  public static SinkStack start(String name, long commitIntervalMs, Consumer<String> progress) {
    SinkStack stack = new SinkStack(tempDir(name));
    try {
      stack.kafka = stack.opened(EmbeddedKafka.start(stack.dir.resolve("kafka")));
      stack.registry =
          stack.opened(DevSchemaRegistry.start(stack.kafka.bootstrapServers(), "127.0.0.1", 0));
      stack.admin = stack.opened(admin(stack.kafka.bootstrapServers()));
      stack.catalog = Catalogs.embedded(stack.dir.resolve("iceberg"));
      Files.createDirectories(stack.dir.resolve("iceberg").resolve("warehouse"));
      stack.lake = stack.opened(Catalogs.open(stack.catalog));
      long flushMs = Math.min(1000, commitIntervalMs);
      Map<String, String> worker =
          new HashMap<>(SinkWorkerProperties.of(StackTimings.SINK_TOPIC_REFRESH_MS));
      worker.put("offset.flush.interval.ms", String.valueOf(flushMs));
      stack.connect =
          stack.opened(EmbeddedConnect.start(stack.kafka.bootstrapServers(), name, 0, worker));
    } catch (IOException | RuntimeException e) {
      stack.close();
      throw e instanceof IOException io
          ? new UncheckedIOException("cannot prepare " + stack.dir, io)
          : (RuntimeException) e;
    }
    progress.accept(
        "broker "
            + stack.kafka.bootstrapServers()
            + ", registry "
            + stack.registry.url()
            + ", Connect "
            + stack.connect.url());
    return stack;
  }

  public String bootstrapServers() {
    return kafka.bootstrapServers();
  }

  public String registryUrl() {
    return registry.url();
  }

  public Admin admin() {
    return admin;
  }

  /** The catalog object the connectors get (as the ready file's {@code iceberg_catalog}). */
  public Map<String, String> catalog() {
    return catalog;
  }

  /** The same catalog, opened in this JVM. */
  public LakeCatalog lake() {
    return lake;
  }

  public ConnectRestClient connect() {
    return connect.client();
  }

  /** Creates {@code topic} unless it exists. */
  public void createTopic(String topic, int partitions) {
    Topics.ensure(admin, topic, partitions);
  }

  /** Registers the orders key and value schemas for {@code topic}. */
  public OrdersAvro registerOrders(String topic) {
    return OrdersAvro.register(HttpSchemaRegistryClient.create(registry.url()), topic);
  }

  /** A producer of raw bytes with acknowledgement from all replicas; the caller closes it. */
  public KafkaProducer<byte[], byte[]> producer() {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka.bootstrapServers(),
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.LINGER_MS_CONFIG,
            5,
            ProducerConfig.BATCH_SIZE_CONFIG,
            256 * 1024);
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  /** Stops everything in the reverse order of starting, then deletes the directory. */
  @Override
  public void close() {
    while (!opened.isEmpty()) {
      AutoCloseable component = opened.pop();
      try {
        component.close();
      } catch (Exception e) {
        log.warn("Could not stop {}: {}", component.getClass().getSimpleName(), e.toString());
      }
    }
    deleteRecursively(dir);
  }

  private <T extends AutoCloseable> T opened(T component) {
    opened.push(component);
    return component;
  }

  private static Admin admin(String bootstrapServers) {
    return Admin.create(
        Map.of(
            AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
            (int) TimeUnit.SECONDS.toMillis(30)));
  }

  private static Path tempDir(String name) {
    try {
      return Files.createTempDirectory(name + "-");
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create a temporary directory", e);
    }
  }

  private static void deleteRecursively(Path dir) {
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException e) {
      log.warn("Could not delete the benchmark's directory {}: {}", dir, e.toString());
    }
  }
}
