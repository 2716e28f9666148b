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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
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

  private final CaptureConfig config;
  private final PauseGate gate = new PauseGate();
  private final PrometheusMeterRegistry meters =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private volatile CaptureState state = CaptureState.UNASSIGNED;
  private volatile String failure;
  private volatile Map<String, ?> lastOffset;
  private volatile Map<String, ?> lastPartition;

  private KafkaProducer<byte[], byte[]> producer;
  private Admin admin;
  private DebeziumEngine<?> engine;
  private ExecutorService executor;
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
    ChangePublisher publisher =
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
                metrics.published(record);
                lastOffset = record.sourceOffset();
                lastPartition = record.sourcePartition();
              }
            });
    adminServer = CaptureAdminApi.start(this, meters, config.adminHost(), config.adminPort());
    engine =
        DebeziumEngine.create(Connect.class)
            .using(config.engineProperties())
            .using(this::completed)
            .notifying(publisher)
            .build();
    executor = Executors.newSingleThreadExecutor(r -> new Thread(r, "capture-engine"));
    state = CaptureState.RUNNING;
    executor.execute(engine);
    log.info(
        "capture {} started ({}), admin API {}",
        config.name(),
        config.connectorClass(),
        adminUrl());
  }

  private void completed(boolean success, String message, Throwable error) {
    if (state == CaptureState.STOPPED) {
      return;
    }
    if (!success || error != null) {
      failure = message + (error == null ? "" : ": " + error);
      state = CaptureState.FAILED;
      log.error("capture {} failed: {}", config.name(), message, error);
    } else {
      state = CaptureState.STOPPED;
    }
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
    try {
      if (engine != null) {
        engine.close();
      }
      if (executor != null) {
        executor.shutdown();
        if (!executor.awaitTermination(30, TimeUnit.SECONDS)) {
          log.warn("capture engine did not stop within 30 s");
          executor.shutdownNow();
        }
      }
    } catch (IOException e) {
      log.warn("error closing the Debezium engine", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      engine = null;
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
}
