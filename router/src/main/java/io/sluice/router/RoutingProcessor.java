package io.sluice.router;

import io.sluice.dlq.DlqRecordBuilder;
import io.sluice.dlq.Rejection;
import io.sluice.dlq.Sha256;
import io.sluice.router.config.TombstoneMode;
import io.sluice.router.metrics.RouterMetrics;
import io.sluice.router.metrics.RouterMetrics.Result;
import io.sluice.router.metrics.RouterMetrics.ValidatedCounters;
import io.sluice.router.prevalidate.Prevalidator;
import io.sluice.router.retry.RegistryRetry;
import io.sluice.router.topics.OutputTopics;
import io.sluice.router.topics.OutputTopics.Partitions;
import io.sluice.router.validate.Poison;
import io.sluice.router.validate.RecordValidator;
import io.sluice.router.validate.TopicValidator;
import io.sluice.router.validate.ValidationResult;
import io.sluice.schema.registry.RegistryUnavailableException;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.streams.processor.api.Processor;
import org.apache.kafka.streams.processor.api.ProcessorContext;
import org.apache.kafka.streams.processor.api.Record;
import org.apache.kafka.streams.processor.api.RecordMetadata;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates each input record and writes it, in its input partition, to the clean topic or, as a
 * DLQ record, to the DLQ topic ({@link TaskOutput}: within the task's transaction, no sink node).
 * Registry outages are retried here (never a DLQ record); past the bound the exception fails the
 * task.
 *
 * <p>A record the {@link Prevalidator} already found valid (the very value array) is not scanned
 * again; every other record is validated here.
 *
 * <p>Everything a record needs beyond validation is resolved once per topic ({@link Route}): the
 * router's throughput is measured against a pass-through, so per-record lookups show.
 */
final class RoutingProcessor implements Processor<byte[], byte[], Void, Void> {
  private static final Logger log = LoggerFactory.getLogger(RoutingProcessor.class);

  private final TopicRoles roles;
  private final TombstoneMode tombstones;
  private final RecordValidator validator;
  private final Prevalidator prevalidator;
  private final OutputTopics outputs;
  private final RouterMetrics metrics;
  private final RegistryRetry retry;
  private final DlqRecordBuilder dlq;
  private final String nodeName;
  private final Map<String, Route> routes = new HashMap<>();
  private Route lastRoute;
  private int untilTimed = 1;
  private ProcessorContext<Void, Void> context;
  private TaskOutput output;

  RoutingProcessor(
      TopicRoles roles,
      TombstoneMode tombstones,
      RecordValidator validator,
      Prevalidator prevalidator,
      OutputTopics outputs,
      RouterMetrics metrics,
      RegistryRetry retry,
      DlqRecordBuilder dlq,
      String nodeName) {
    this.roles = roles;
    this.tombstones = tombstones;
    this.validator = validator;
    this.prevalidator = prevalidator;
    this.outputs = outputs;
    this.metrics = metrics;
    this.retry = retry;
    this.dlq = dlq;
    this.nodeName = nodeName;
  }

  /**
   * One input topic: its validator, the verdicts found ahead, output topic names, their partition
   * counts and counters; all null when the topic is not an input.
   */
  private record Route(
      String input,
      TopicValidator validator,
      Prevalidator.TopicLanes prevalidated,
      String clean,
      String dlq,
      Partitions partitions,
      ValidatedCounters validated) {
    boolean ignored() {
      return clean == null;
    }
  }

  @Override
  public void init(ProcessorContext<Void, Void> context) {
    this.context = context;
    this.output = TaskOutput.of(context, nodeName);
  }

  @Override
  public void process(Record<byte[], byte[]> record) {
    RecordMetadata source =
        context
            .recordMetadata()
            .orElseThrow(() -> new IllegalStateException("record without source metadata"));
    Route route = route(source.topic());
    if (route.ignored()) {
      return;
    }
    // The clock is read only for the sampled records: at ~20 ns a read, two per record would cost
    // more than the whole latency metric is worth. A record the registry holds up is timed from
    // its first failed attempt.
    boolean timed = --untilTimed == 0;
    long start = timed ? retry.nanoTime() : 0;
    byte[] value = record.value();
    ValidationResult result;
    try {
      result =
          route.prevalidated().takeValid(source.partition(), source.offset(), value)
              ? ValidationResult.VALID
              : route.validator().validate(record.key(), value);
    } catch (RegistryUnavailableException e) {
      if (!timed) {
        timed = true;
        start = retry.nanoTime();
      }
      result =
          retry.retry(
              e,
              start,
              () -> route.validator().validate(record.key(), value),
              () -> describe(source));
    }
    int partition = source.partition();
    if (result instanceof Poison poison) {
      quarantine(record, value, source, route, poison);
    } else if (result == ValidationResult.TOMBSTONE) {
      route.validated().increment(Result.TOMBSTONE);
      if (tombstones == TombstoneMode.PASS) {
        toClean(route, partition, record);
      }
    } else {
      route.validated().increment(Result.VALID);
      toClean(route, partition, record);
    }
    if (timed) {
      untilTimed = RouterMetrics.LATENCY_SAMPLE_EVERY;
      metrics.processingLatency(retry.nanoTime() - start);
    }
  }

  /** The record as it came: same key, value, headers and timestamp. */
  private void toClean(Route route, int partition, Record<byte[], byte[]> record) {
    output.send(
        route.clean(),
        route.partitions().cleanPartition(partition),
        record.key(),
        record.value(),
        record.headers(),
        record.timestamp());
  }

  private void quarantine(
      Record<byte[], byte[]> record,
      byte[] value,
      RecordMetadata source,
      Route route,
      Poison poison) {
    DlqRecordBuilder.Original original =
        new DlqRecordBuilder.Original(
            source.topic(),
            source.partition(),
            source.offset(),
            record.timestamp(),
            record.key(),
            value,
            record.headers());
    log.warn(
        "Poison record {}-{}@{} ({}, value sha256 {}) goes to {}: {}",
        source.topic(),
        source.partition(),
        source.offset(),
        poison.code(),
        Sha256.hex(value),
        route.dlq(),
        poison.message());
    Rejection rejection = poison.rejection();
    route.validated().increment(Result.POISON);
    metrics.quarantined(source.topic(), poison.code());
    output.send(
        route.dlq(),
        route.partitions().dlqPartition(source.partition()),
        record.key(),
        dlq.value(original, rejection),
        dlq.headers(original, rejection),
        record.timestamp());
  }

  /** The route of {@code topic}; records come in runs per partition, so mostly the last one. */
  private Route route(String topic) {
    Route last = lastRoute;
    if (last != null && last.input().equals(topic)) {
      return last;
    }
    Route route = routes.computeIfAbsent(topic, this::newRoute);
    lastRoute = route;
    return route;
  }

  private Route newRoute(String topic) {
    if (!roles.isInput(topic)) {
      log.warn(
          "Topic {} matches the input pattern but is an output or internal topic; not routing it",
          topic);
      return new Route(topic, null, null, null, null, null, null);
    }
    Partitions partitions = outputs.ensure(topic);
    return new Route(
        topic,
        validator.forTopic(topic),
        prevalidator.lanes(topic),
        roles.cleanTopic(topic),
        roles.dlqTopic(topic),
        partitions,
        metrics.validatedCounters(topic));
  }

  private static String describe(RecordMetadata source) {
    return "record " + source.topic() + "-" + source.partition() + "@" + source.offset();
  }
}
