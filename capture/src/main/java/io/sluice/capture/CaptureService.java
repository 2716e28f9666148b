package io.sluice.capture;

import io.debezium.embedded.Connect;
import io.debezium.engine.DebeziumEngine;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.capture.admin.CaptureAdminApi;
import io.sluice.capture.config.CaptureConfig;
import io.sluice.capture.metrics.CaptureMetrics;
import io.sluice.capture.publish.AdminTopicEnsurer;
import io.sluice.capture.publish.AvroChangeEncoder;
import io.sluice.capture.publish.ChangeEncoder;
import io.sluice.capture.publish.ChangePublisher;
import io.sluice.observe.HttpEndpoint;
import io.sluice.schema.connect.ConnectAvroCodec;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Runs the Debezium embedded engine and publishes its change events to Kafka as Confluent-wire
 * Avro, with pause/resume/status through an admin API shaped like Kafka Connect's.
 */
public final class CaptureService implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(CaptureService.class);
  private static final int RESTARTS_IN_A_ROW = 3;
  private static final Duration FIRST_RESTART_DELAY = Duration.ofSeconds(1);

  private final CaptureConfig config;
  private final PauseGate gate = new PauseGate();
  private final RestartPolicy restarts = new RestartPolicy(RESTARTS_IN_A_ROW, FIRST_RESTART_DELAY);
  private final AtomicInteger engineRestarts = new AtomicInteger();
  private final Object engineLock = new Object();
  private final PrometheusMeterRegistry meters =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private volatile CaptureState state = CaptureState.UNASSIGNED;
  private volatile String failure;
  private volatile Map<String, ?> lastOffset;
  private volatile Map<String, ?> lastPartition;

  private KafkaProducer<byte[], byte[]> producer;
  private Admin admin;
  private ChangePublisher publisher;
  private DebeziumEngine<?> engine;
  private ScheduledThreadPoolExecutor executor;
  private HttpEndpoint adminServer;

  public CaptureService(CaptureConfig config) {
    this.config = config;
  }

  /** Starts the admin API and the engine; returns once the engine thread runs. */
  public synchronized void start() {
    String bootstrap = config.bootstrapServers();
    producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ProducerConfig.CLIENT_ID_CONFIG,
                config.name() + "-producer",
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.LINGER_MS_CONFIG,
                5),
            new ByteArraySerializer(),
            new ByteArraySerializer());
    admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
    CaptureMetrics metrics = new CaptureMetrics(meters, Clock.systemUTC());
    ChangeEncoder encoder =
        new AvroChangeEncoder(
            new ConnectAvroCodec(HttpSchemaRegistryClient.create(config.schemaRegistryUrl())));
    publisher =
        new ChangePublisher(
            producer,
            encoder,
            new AdminTopicEnsurer(admin, config.topicPartitions(), producer::partitionsFor),
            new ChangePublisher.Listener() {
              @Override
              public void beforeBatch() throws InterruptedException {
                gate.awaitOpen();
              }

              @Override
              public void published(SourceRecord record, RecordMetadata metadata) {
                restarts.progressed();
                metrics.published(record);
                lastOffset = record.sourceOffset();
                lastPartition = record.sourcePartition();
              }
            });
    adminServer = CaptureAdminApi.start(this, meters, config.adminHost(), config.adminPort());
    engine = newEngine();
    executor = new ScheduledThreadPoolExecutor(1, r -> new Thread(r, "capture-engine"));
    // close() cancels a restart still waiting for its delay.
    executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
    state = CaptureState.RUNNING;
    executor.execute(engine);
    log.info(
        "capture {} started ({}), admin API {}",
        config.name(),
        config.connectorClass(),
        adminUrl());
  }

  private DebeziumEngine<?> newEngine() {
    return DebeziumEngine.create(Connect.class)
        .using(config.engineProperties())
        .using(this::completed)
        .notifying(publisher)
        .build();
  }

  /** Called on the engine thread once an engine run has ended and the engine has stopped. */
  private void completed(boolean success, String message, Throwable error) {
    if (state == CaptureState.STOPPED) {
      return;
    }
    if (!success || error != null) {
      Optional<RestartPolicy.Restart> restart = restarts.afterFailure(error);
      if (restart.isPresent() && scheduleRestart(restart.get())) {
        return;
      }
      failure = message + (error == null ? "" : ": " + error);
      state = CaptureState.FAILED;
      log.error("capture {} failed: {}", config.name(), message, error);
    } else {
      state = CaptureState.STOPPED;
    }
  }

  /**
   * Starts a new engine after {@code restart}'s delay, on the engine thread once the failed run has
   * returned. The new engine reads the last committed source offset and re-emits from there.
   */
  private boolean scheduleRestart(RestartPolicy.Restart restart) {
    try {
      executor.schedule(
          this::runRestartedEngine, restart.delay().toMillis(), TimeUnit.MILLISECONDS);
    } catch (RejectedExecutionException e) {
      return false; // closing
    }
    engineRestarts.incrementAndGet();
    log.warn(
        "capture {} could not publish to {} ({}); restarting its engine from the last committed"
            + " source offset in {} ms, restart {} of {} in a row",
        config.name(),
        restart.topic(),
        restart.reason(),
        restart.delay().toMillis(),
        restart.attempt(),
        restart.of());
    return true;
  }

  private void runRestartedEngine() {
    try {
      // Records of the failed batch still in flight settle first, so none lands after a
      // re-emitted change of the same key.
      producer.flush();
      DebeziumEngine<?> next = newEngine();
      synchronized (engineLock) {
        if (state == CaptureState.STOPPED) {
          return;
        }
        engine = next;
      }
      log.info("capture {} engine restarted", config.name());
      next.run();
    } catch (RuntimeException e) {
      if (state != CaptureState.STOPPED) {
        failure = "restart failed: " + e;
        state = CaptureState.FAILED;
        log.error("capture {} could not restart its engine", config.name(), e);
      }
    }
  }

  /** How many times a failed engine was restarted since start. */
  public int engineRestarts() {
    return engineRestarts.get();
  }

  public String name() {
    return config.name();
  }

  public String adminUrl() {
    return adminServer.url();
  }

  public CaptureState state() {
    return state;
  }

  public Optional<String> failure() {
    return Optional.ofNullable(failure);
  }

  /** The source offset of the last change Kafka acknowledged (binlog file/pos or GTIDs). */
  public Map<String, ?> lastPublishedOffset() {
    return lastOffset;
  }

  public Map<String, ?> lastPublishedPartition() {
    return lastPartition;
  }

  /**
   * True once the connector has finished its snapshot and reads the binlog: from then on every
   * change arrives as a c/u/d event (changes committed earlier appear as snapshot reads). Read from
   * Debezium's own streaming metrics MBean.
   */
  public boolean isStreaming() {
    MBeanServer server = ManagementFactory.getPlatformMBeanServer();
    try {
      ObjectName pattern =
          new ObjectName(
              "debezium.*:type=connector-metrics,context=streaming,server="
                  + config.topicPrefix()
                  + ",*");
      for (ObjectName name : server.queryNames(pattern, null)) {
        if (Boolean.TRUE.equals(server.getAttribute(name, "Connected"))) {
          return true;
        }
      }
      return false;
    } catch (JMException e) {
      log.debug("cannot read Debezium streaming metrics", e);
      return false;
    }
  }

  public String scrapeMetrics() {
    return meters.scrape();
  }

  /** Stops publishing; the engine keeps its place and resumes from it. */
  public void pause() {
    if (state == CaptureState.RUNNING) {
      gate.pause();
      state = CaptureState.PAUSED;
      log.info("capture {} paused", config.name());
    }
  }

  public void resume() {
    if (state == CaptureState.PAUSED) {
      state = CaptureState.RUNNING;
      gate.resume();
      log.info("capture {} resumed", config.name());
    }
  }

  @Override
  public synchronized void close() {
    if (state == CaptureState.STOPPED && engine == null) {
      return;
    }
    state = CaptureState.STOPPED;
    gate.resume();
    DebeziumEngine<?> current;
    synchronized (engineLock) {
      current = engine;
    }
    try {
      if (current != null) {
        closeEngine(current);
      }
      if (executor != null) {
        executor.shutdown();
        if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
          log.warn("capture engine did not stop within 30 s");
          executor.shutdownNow();
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      synchronized (engineLock) {
        engine = null;
      }
      if (producer != null) {
        producer.close(Duration.ofSeconds(10));
      }
      if (admin != null) {
        admin.close(Duration.ofSeconds(5));
      }
      if (adminServer != null) {
        adminServer.close();
      }
      meters.close();
    }
    log.info("capture {} stopped", config.name());
  }

  private static void closeEngine(DebeziumEngine<?> engine) {
    try {
      engine.close();
    } catch (IOException e) {
      log.warn("error closing the Debezium engine", e);
    } catch (IllegalStateException e) {
      // The engine refuses a close once it has stopped (a failed run, or one awaiting a restart)
      // and while its tasks start.
      log.info("Debezium engine not closed: {}", e.getMessage());
    }
  }
}
