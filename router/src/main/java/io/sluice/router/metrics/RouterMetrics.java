package io.sluice.router.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.router.validate.ErrorCode;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

/**
 * The router's own meters. Names are Micrometer's dotted form; the Prometheus registry renders them
 * as {@code sluice_router_records_validated_total{topic,result}}, {@code
 * sluice_router_records_quarantined_total{topic,error_code}}, {@code
 * sluice_router_registry_retries_total}, {@code sluice_router_thread_replacements_total}, {@code
 * sluice_router_processing_latency_seconds_{count,sum,max}} and {@code
 * sluice_router_records_validated_ahead_total} (0 when validate.ahead is off).
 *
 * <p>The per-record path is cheap on purpose: a router adds little to what Kafka Streams spends on
 * a record, so a map lookup and two clock reads per record show in its throughput. Hence {@link
 * #validatedCounters(String)} hands out a topic's counters once, and the processing latency is
 * measured on a sample of the records (see {@link #LATENCY_SAMPLE_EVERY}).
 *
 * <p>When a topic is first seen, its quarantine counters are registered at 0 for every {@link
 * ErrorCode}: Prometheus's {@code rate()} and {@code increase()} need a sample before the first
 * poison record, or a series that appears at 1 shows no rate at all.
 */
public final class RouterMetrics {
  public static final String VALIDATED = "sluice.router.records.validated";
  public static final String QUARANTINED = "sluice.router.records.quarantined";
  public static final String REGISTRY_RETRIES = "sluice.router.registry.retries";
  public static final String THREAD_REPLACEMENTS = "sluice.router.thread.replacements";
  public static final String PROCESSING_LATENCY = "sluice.router.processing.latency";
  public static final String VALIDATED_AHEAD = "sluice.router.records.validated.ahead";

  /**
   * The processing latency is timed on one record in this many, and on every record that waited for
   * an unavailable registry (from its first failed registry call: the clock is read only then).
   */
  public static final int LATENCY_SAMPLE_EVERY = 16;

  /** {@code result} tag values. */
  public enum Result {
    VALID,
    TOMBSTONE,
    POISON;

    String tag() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  private final MeterRegistry registry;
  private final Counter registryRetries;
  private final Counter threadReplacements;
  private final Timer latency;
  private final ConcurrentHashMap<String, ValidatedCounters> validatedByTopic =
      new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, Counter> quarantined = new ConcurrentHashMap<>();

  public RouterMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.registryRetries =
        Counter.builder(REGISTRY_RETRIES)
            .description("Registry calls retried because the registry was unavailable")
            .register(registry);
    this.threadReplacements =
        Counter.builder(THREAD_REPLACEMENTS)
            .description("Stream threads replaced after an uncaught exception")
            .register(registry);
    this.latency =
        Timer.builder(PROCESSING_LATENCY)
            .description(
                "Time to validate and route one record, registry retries included; timed on one"
                    + " record in "
                    + LATENCY_SAMPLE_EVERY
                    + " (from its start) and on every record that waited for the registry (from"
                    + " its first failed registry call)")
            .register(registry);
  }

  /** Meters on a private in-memory registry (tests, tools). */
  public static RouterMetrics inMemory() {
    return new RouterMetrics(new SimpleMeterRegistry());
  }

  public MeterRegistry registry() {
    return registry;
  }

  public void validated(String topic, Result result) {
    validatedCounters(topic).increment(result);
  }

  /** The {@code records.validated} counters of one topic, to keep instead of looking them up. */
  public ValidatedCounters validatedCounters(String topic) {
    return validatedByTopic.computeIfAbsent(topic, this::newValidatedCounters);
  }

  /** One topic's {@code records.validated} counters, one per {@link Result}. */
  public static final class ValidatedCounters {
    private final Counter[] byResult;

    private ValidatedCounters(Counter[] byResult) {
      this.byResult = byResult;
    }

    public void increment(Result result) {
      byResult[result.ordinal()].increment();
    }
  }

  public void quarantined(String topic, ErrorCode code) {
    validatedCounters(topic);
    quarantinedCounter(topic, code).increment();
  }

  private Counter quarantinedCounter(String topic, ErrorCode code) {
    return quarantined.computeIfAbsent(
        topic + '\u0000' + code.name(),
        k ->
            Counter.builder(QUARANTINED)
                .description("Poison records written to the DLQ")
                .tag("topic", topic)
                .tag("error_code", code.name())
                .register(registry));
  }

  public void registryRetry() {
    registryRetries.increment();
  }

  public void threadReplaced() {
    threadReplacements.increment();
  }

  /**
   * Counts, with {@code taken} applied to {@code source}, the valid records the stream threads took
   * from the validate-ahead thread instead of scanning them (a share of the {@code valid} ones).
   * Micrometer holds {@code source} weakly: the caller must keep it.
   */
  public <T> void validatedAhead(T source, ToLongFunction<T> taken) {
    FunctionCounter.builder(VALIDATED_AHEAD, source, s -> taken.applyAsLong(s))
        .description("Valid records taken from the validate-ahead thread instead of scanned")
        .register(registry);
  }

  public void processingLatency(long nanos) {
    latency.record(nanos, TimeUnit.NANOSECONDS);
  }

  private ValidatedCounters newValidatedCounters(String topic) {
    Result[] results = Result.values();
    Counter[] counters = new Counter[results.length];
    for (Result result : results) {
      counters[result.ordinal()] =
          Counter.builder(VALIDATED)
              .description("Records validated, by result")
              .tag("topic", topic)
              .tag("result", result.tag())
              .register(registry);
    }
    for (ErrorCode code : ErrorCode.values()) {
      quarantinedCounter(topic, code);
    }
    return new ValidatedCounters(counters);
  }
}
