package io.sluice.router;

import io.sluice.dlq.DlqRecordBuilder;
import io.sluice.router.config.RouterConfig;
import io.sluice.router.metrics.RouterMetrics;
import io.sluice.router.prevalidate.Prevalidator;
import io.sluice.router.retry.RegistryRetry;
import io.sluice.router.retry.RetryClock;
import io.sluice.router.topics.OutputTopics;
import io.sluice.router.validate.RecordValidator;
import java.time.Clock;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.errors.LogAndFailExceptionHandler;
import org.apache.kafka.streams.errors.LogAndFailProcessingExceptionHandler;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;

/**
 * The router's topology, as a pure builder: every topic matching the input pattern → one processor
 * that validates each record and writes it to {@code <topic>.clean} or {@code <topic>.dlq} in the
 * input partition, through the task's record collector ({@link TaskOutput}). Keys and values stay
 * bytes end to end, never re-encoded. Tests drive this same method through {@code
 * TopologyTestDriver}.
 */
public final class RouterTopology {
  /** Producer max.request.size default: DLQ envelopes are larger than their input record. */
  static final int MAX_REQUEST_SIZE = 8 * 1024 * 1024;

  /**
   * Producer batch.size default (Kafka's is 16 KiB). A stream thread runs its tasks in turn, so a
   * router writes each output partition in bursts; with 16 KiB batches the batch that fills in one
   * partition sends the others' half-empty batches along, so the router makes more produce requests
   * than a pass-through that spreads its records by key. Under exactly_once_v2 records are visible
   * only once their transaction commits (every 100 ms), so larger batches cost no latency a reader
   * can see; under at_least_once Kafka Streams' linger.ms (100 ms) bounds a batch's wait whatever
   * its size. The default keeps produce requests even across partitions; figures in
   * docs/benchmarks.md.
   */
  static final int BATCH_SIZE = 64 * 1024;

  /** The processor node: it names the router's output records in Kafka Streams' metrics. */
  static final String PROCESSOR_NAME = "sluice-validate";

  private RouterTopology() {}

  /** Builds the topology with the system clocks. */
  public static Topology build(
      StreamsBuilder builder,
      RouterConfig config,
      RecordValidator validator,
      OutputTopics outputs,
      RouterMetrics metrics) {
    return build(
        builder, config, validator, outputs, metrics, RetryClock.SYSTEM, Clock.systemUTC());
  }

  /**
   * Builds the topology.
   *
   * @param retryClock waits between registry retries
   * @param wallClock stamps {@code quarantined_at} in DLQ envelopes
   */
  public static Topology build(
      StreamsBuilder builder,
      RouterConfig config,
      RecordValidator validator,
      OutputTopics outputs,
      RouterMetrics metrics,
      RetryClock retryClock,
      Clock wallClock) {
    return build(
        builder,
        config,
        validator,
        outputs,
        metrics,
        retryClock,
        wallClock,
        Prevalidator.disabled());
  }

  /** Builds the topology; processors take the verdicts {@code prevalidator} found ahead. */
  static Topology build(
      StreamsBuilder builder,
      RouterConfig config,
      RecordValidator validator,
      OutputTopics outputs,
      RouterMetrics metrics,
      RetryClock retryClock,
      Clock wallClock,
      Prevalidator prevalidator) {
    TopicRoles roles = TopicRoles.from(config);
    DlqRecordBuilder dlq =
        new DlqRecordBuilder(config.dlqFormat(), config.applicationId(), wallClock);
    builder.stream(
            roles.inputPattern(),
            Consumed.with(Serdes.ByteArray(), Serdes.ByteArray()).withName("sluice-inputs"))
        .process(
            () ->
                new RoutingProcessor(
                    roles,
                    config.tombstones(),
                    validator,
                    prevalidator,
                    outputs,
                    metrics,
                    new RegistryRetry(
                        config.registryRetryBackoffMs(),
                        config.registryRetryBackoffMaxMs(),
                        config.registryRetryTimeoutMs(),
                        retryClock,
                        metrics::registryRetry),
                    dlq,
                    PROCESSOR_NAME),
            Named.as(PROCESSOR_NAME));
    return builder.build();
  }

  /**
   * The Kafka Streams properties: the router's keys, the defaults it needs, then every {@code
   * streams.*} override.
   */
  public static Properties streamsConfig(RouterConfig config) {
    Properties props = new Properties();
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, config.applicationId());
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    props.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, config.processingGuarantee());
    if (config.stateDir() != null) {
      props.put(StreamsConfig.STATE_DIR_CONFIG, config.stateDir());
    }
    props.put(StreamsConfig.DEFAULT_KEY_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class.getName());
    props.put(
        StreamsConfig.DEFAULT_VALUE_SERDE_CLASS_CONFIG, Serdes.ByteArraySerde.class.getName());
    // Never skip a record on an exception: the task fails and restarts from the last commit.
    props.put(
        StreamsConfig.PROCESSING_EXCEPTION_HANDLER_CLASS_CONFIG,
        LogAndFailProcessingExceptionHandler.class.getName());
    props.put(
        StreamsConfig.DESERIALIZATION_EXCEPTION_HANDLER_CLASS_CONFIG,
        LogAndFailExceptionHandler.class.getName());
    props.put(
        StreamsConfig.consumerPrefix(ConsumerConfig.METADATA_MAX_AGE_CONFIG),
        String.valueOf(config.topicRefreshIntervalMs()));
    props.put(
        StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
        String.valueOf(MAX_REQUEST_SIZE));
    props.put(
        StreamsConfig.producerPrefix(ProducerConfig.BATCH_SIZE_CONFIG), String.valueOf(BATCH_SIZE));
    if (config.exactlyOnce()) {
      props.put(
          StreamsConfig.producerPrefix(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG),
          String.valueOf(config.transactionTimeoutMs()));
    }
    config.streamsOverrides().forEach(props::put);
    return props;
  }
}
