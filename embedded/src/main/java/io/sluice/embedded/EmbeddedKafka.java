package io.sluice.embedded;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import kafka.server.KafkaConfig;
import kafka.server.KafkaRaftServer;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A single-node KRaft Kafka broker (broker and controller in one process) listening on loopback.
 * Replication factor 1 everywhere so transactions (exactly_once_v2) work on one node. The log
 * directory survives a restart: topics, offsets and transactions are kept.
 */
public final class EmbeddedKafka implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedKafka.class);
  private static final int NODE_ID = 1;
  private static final String CONTROLLER_LISTENER = "CONTROLLER";

  private final Path logDir;
  private final int brokerPort;
  private final KafkaRaftServer server;
  private boolean stopped;

  private EmbeddedKafka(Path logDir, int brokerPort, KafkaRaftServer server) {
    this.logDir = logDir;
    this.brokerPort = brokerPort;
    this.server = server;
  }

  /**
   * Formats {@code logDir} when it is new, then starts the broker.
   *
   * @param brokerPort client port on 127.0.0.1, 0 to pick a free one
   * @param controllerPort controller port on 127.0.0.1, 0 to pick a free one
   */
  public static EmbeddedKafka start(Path logDir, int brokerPort, int controllerPort) {
    int port = brokerPort == 0 ? FreePort.pick() : brokerPort;
    int cport = controllerPort == 0 ? FreePort.pickOtherThan(List.of(port)) : controllerPort;
    try {
      Files.createDirectories(logDir);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create Kafka log dir " + logDir, e);
    }
    KafkaConfig config = new KafkaConfig(brokerProperties(logDir, port, cport), false);
    format(logDir);
    KafkaRaftServer server = new KafkaRaftServer(config, Time.SYSTEM);
    server.startup();
    log.info("Kafka broker started on 127.0.0.1:{} (log dir {})", port, logDir);
    return new EmbeddedKafka(logDir, port, server);
  }

  /** Starts a broker on free ports. */
  public static EmbeddedKafka start(Path logDir) {
    return start(logDir, 0, 0);
  }

  public String bootstrapServers() {
    return "127.0.0.1:" + brokerPort;
  }

  public int port() {
    return brokerPort;
  }

  public Path logDir() {
    return logDir;
  }

  /** Stops the broker and waits for it; the log dir is kept. */
  @Override
  public synchronized void close() {
    if (stopped) {
      return;
    }
    stopped = true;
    server.shutdown();
    server.awaitShutdown();
    log.info("Kafka broker on 127.0.0.1:{} stopped", brokerPort);
  }

  private static void format(Path logDir) {
    if (Files.exists(logDir.resolve("meta.properties"))) {
      return;
    }
    try {
      new Formatter()
          .setNodeId(NODE_ID)
          .setClusterId(Uuid.randomUuid().toString())
          .setDirectories(List.of(logDir.toString()))
          .setMetadataLogDirectory(logDir.toString())
          .setControllerListenerName(CONTROLLER_LISTENER)
          .setReleaseVersion(MetadataVersion.LATEST_PRODUCTION)
          .setIgnoreFormatted(true)
          .setPrintStream(new java.io.PrintStream(java.io.OutputStream.nullOutputStream()))
          .run();
    } catch (Exception e) {
      throw new IllegalStateException("cannot format Kafka log dir " + logDir, e);
    }
  }

  static Properties brokerProperties(Path logDir, int port, int controllerPort) {
    Properties p = new Properties();
    p.put("process.roles", "broker,controller");
    p.put("node.id", String.valueOf(NODE_ID));
    p.put("controller.quorum.voters", NODE_ID + "@127.0.0.1:" + controllerPort);
    p.put("controller.listener.names", CONTROLLER_LISTENER);
    p.put(
        "listeners",
        "PLAINTEXT://127.0.0.1:"
            + port
            + ","
            + CONTROLLER_LISTENER
            + "://127.0.0.1:"
            + controllerPort);
    p.put("advertised.listeners", "PLAINTEXT://127.0.0.1:" + port);
    p.put("listener.security.protocol.map", "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT");
    p.put("inter.broker.listener.name", "PLAINTEXT");
    p.put("log.dirs", logDir.toString());
    p.put("metadata.log.dir", logDir.toString());
    p.put("num.partitions", "1");
    p.put("default.replication.factor", "1");
    p.put("offsets.topic.replication.factor", "1");
    p.put("offsets.topic.num.partitions", "3");
    p.put("transaction.state.log.replication.factor", "1");
    p.put("transaction.state.log.min.isr", "1");
    p.put("transaction.state.log.num.partitions", "3");
    p.put("share.coordinator.state.topic.replication.factor", "1");
    p.put("share.coordinator.state.topic.min.isr", "1");
    p.put("min.insync.replicas", "1");
    p.put("group.initial.rebalance.delay.ms", "0");
    // The default 128 MB dedupe buffer costs heap for nothing on a laptop-sized broker.
    p.put("log.cleaner.dedupe.buffer.size", "4194304");
    // Topics are created on purpose (the router creates .clean/.dlq with the input's partitions).
    p.put("auto.create.topics.enable", "false");
    p.put("transaction.abort.timed.out.transaction.cleanup.interval.ms", "5000");
    return p;
  }
}
