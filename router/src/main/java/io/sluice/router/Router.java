package io.sluice.router;

import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.contract.TopicNames;
import io.sluice.observe.HttpEndpoint;
import io.sluice.router.config.RouterConfig;
import io.sluice.router.metrics.RouterEndpoint;
import io.sluice.router.metrics.RouterMetrics;
import io.sluice.router.prevalidate.PrevalidatingClientSupplier;
import io.sluice.router.prevalidate.Prevalidator;
import io.sluice.router.retry.RetryClock;
import io.sluice.router.topics.AdminOutputTopics;
import io.sluice.router.validate.RecordValidator;
import io.sluice.router.validate.ValidationRules;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.registry.SchemaRegistryClient;
import java.time.Clock;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.StreamsUncaughtExceptionHandler.StreamThreadExceptionResponse;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The running router: wires the registry client, output-topic creation, metrics and Kafka Streams
 * around {@link RouterTopology}. A failed stream thread is replaced, so its tasks restart from the
 * last committed offset.
 */
public final class Router implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Router.class);
  private static final Duration ADMIN_TIMEOUT = Duration.ofSeconds(30);

  private final RouterConfig config;
  private SchemaRegistryClient registry;
  private Admin admin;
  private PrometheusMeterRegistry meters;
  private KafkaStreamsMetrics streamsMetrics;
  private HttpEndpoint server;
  private Prevalidator prevalidator = Prevalidator.disabled();
  private volatile KafkaStreams streams;
  private boolean started;
  private boolean closed;

  public Router(RouterConfig config) {
    this.config = config;
  }

  /**
   * Starts the router and returns; records flow once Kafka Streams reaches RUNNING.
   *
   * @throws IllegalStateException when called twice
   */
  public synchronized void start() {
    if (started) {
      throw new IllegalStateException("router already started");
    }
    started = true;
    // Built once: Kafka Streams logs every value of a StreamsConfig it is given.
    StreamsConfig streamsConfig = new StreamsConfig(RouterTopology.streamsConfig(config));
    registry = HttpSchemaRegistryClient.create(config.schemaRegistryUrl());
    admin = Admin.create(streamsConfig.getAdminConfigs(config.applicationId() + "-topics"));
    meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    RouterMetrics metrics = new RouterMetrics(meters);
    AdminOutputTopics outputs =
        new AdminOutputTopics(
            admin, config.topicNames(), config.replicationFactor(), ADMIN_TIMEOUT);
    ensureOutputsOfExistingInputs(outputs);
    RecordValidator validator = new RecordValidator(registry, ValidationRules.from(config));
    int processors = Runtime.getRuntime().availableProcessors();
    boolean validateAhead = config.validateAhead(processors);
    log.info(
        "{} ({}={}, {} available processors)",
        validateAhead
            ? "Validating ahead of the stream threads on a background thread"
            : "Validating on the stream threads only",
        RouterConfig.VALIDATE_AHEAD_CONFIG,
        config.getString(RouterConfig.VALIDATE_AHEAD_CONFIG),
        processors);
    if (validateAhead) {
      prevalidator =
          Prevalidator.start(
              validator,
              TopicRoles.from(config)::isInput,
              config.applicationId() + "-validate-ahead",
              Prevalidator.recordsAhead(streamsConfig, config.applicationId()));
    }
    // The router holds the prevalidator, which Micrometer would not. Registered when off too (it
    // stays at 0), so that dashboards show a rate of 0 rather than no data.
    metrics.validatedAhead(prevalidator, Prevalidator::recordsTaken);
    Topology topology =
        RouterTopology.build(
            new StreamsBuilder(),
            config,
            validator,
            outputs,
            metrics,
            RetryClock.SYSTEM,
            Clock.systemUTC(),
            prevalidator);
    streams =
        new KafkaStreams(topology, streamsConfig, new PrevalidatingClientSupplier(prevalidator));
    streams.setUncaughtExceptionHandler(
        e -> {
          log.error(
              "Stream thread failed; replacing it (its tasks restart from the last committed"
                  + " offset)",
              e);
          metrics.threadReplaced();
          return StreamThreadExceptionResponse.REPLACE_THREAD;
        });
    streams.setStateListener((next, previous) -> log.info("Router state {} -> {}", previous, next));
    server = RouterEndpoint.start(config.metricsHost(), config.metricsPort(), meters, this::state);
    streams.start();
    // Binding registers a meter per Kafka client metric: done while the stream threads join the
    // group rather than before they start.
    streamsMetrics = new KafkaStreamsMetrics(streams);
    streamsMetrics.bindTo(meters);
    log.info(
        "Router {} started: inputs {}, {} guarantee, metrics {}",
        config.applicationId(),
        config.inputTopicPattern(),
        config.processingGuarantee(),
        metricsUrl());
  }

  // Creating outputs before the first transaction keeps topic creation (and the producer's wait
  // for the new topic's metadata) out of the processing path; new inputs are still handled on
  // their first record.
  private void ensureOutputsOfExistingInputs(AdminOutputTopics outputs) {
    TopicRoles roles = TopicRoles.from(config);
    Set<String> topics;
    try {
      topics = admin.listTopics().names().get(ADMIN_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException | TimeoutException e) {
      log.warn(
          "Could not list topics at start ({}); outputs are created on first records",
          e.toString());
      return;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    topics.stream().filter(roles::isInput).sorted().forEach(outputs::ensure);
  }

  /** The names of the topics this router writes (its suffixes), as the ready file records them. */
  public TopicNames topicNames() {
    return config.topicNames();
  }

  /** {@code http://host:port/metrics}. */
  public synchronized String metricsUrl() {
    return baseUrl() + "/metrics";
  }

  /** {@code http://host:port/health}. */
  public synchronized String healthUrl() {
    return baseUrl() + "/health";
  }

  /** The Kafka Streams state, or null before {@link #start()}. */
  public KafkaStreams.State state() {
    KafkaStreams current = streams;
    return current == null ? null : current.state();
  }

  /**
   * Stops Kafka Streams (bounded by {@code close.timeout.ms}), the validate-ahead thread and the
   * metrics server.
   */
  @Override
  public synchronized void close() {
    if (closed) {
      return;
    }
    closed = true;
    if (streams != null) {
      // Leaving the group lets a restarted router take its partitions at once instead of waiting
      // for the old member's session to time out.
      boolean stopped =
          streams.close(
              new KafkaStreams.CloseOptions()
                  .timeout(Duration.ofMillis(config.closeTimeoutMs()))
                  .leaveGroup(true));
      if (!stopped) {
        log.warn("Kafka Streams did not stop within {} ms", config.closeTimeoutMs());
      }
    }
    prevalidator.close();
    if (streamsMetrics != null) {
      streamsMetrics.close();
    }
    if (server != null) {
      server.close();
    }
    if (admin != null) {
      admin.close(Duration.ofSeconds(5));
    }
    if (registry instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        log.warn("Closing the registry client failed: {}", e.toString());
      }
    }
    if (meters != null) {
      meters.close();
    }
    log.info("Router {} stopped", config.applicationId());
  }

  private String baseUrl() {
    if (server == null) {
      throw new IllegalStateException("router not started");
    }
    return server.url();
  }
}
