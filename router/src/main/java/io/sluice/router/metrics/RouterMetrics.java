package io.sluice.router.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.sluice.router.validate.ErrorCode;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The router's own meters. Names are Micrometer's dotted form; the Prometheus registry renders them
 * as {@code sluice_router_records_validated_total{topic,result}}, {@code
 * sluice_router_records_quarantined_total{topic,error_code}}, {@code
 * sluice_router_registry_retries_total}, {@code sluice_router_thread_replacements_total} and {@code
 * sluice_router_processing_latency_seconds_{count,sum,max}}.
 */
public final class RouterMetrics {
  public static final String VALIDATED = "sluice.router.records.validated";
  public static final String QUARANTINED = "sluice.router.records.quarantined";
  public static final String REGISTRY_RETRIES = "sluice.router.registry.retries";
  public static final String THREAD_REPLACEMENTS = "sluice.router.thread.replacements";
  public static final String PROCESSING_LATENCY = "sluice.router.processing.latency";

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
  private final ConcurrentHashMap<String, Counter[]> validatedByTopic = new ConcurrentHashMap<>();
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
            .description("Time to validate and route one record, registry retries included")
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
    validatedByTopic.computeIfAbsent(topic, this::validatedCounters)[result.ordinal()].increment();
  }

  public void quarantined(String topic, ErrorCode code) {
    quarantined
        .computeIfAbsent(
            topic + '\u0000' + code.name(),
            k ->
                Counter.builder(QUARANTINED)
                    .description("Poison records written to the DLQ")
                    .tag("topic", topic)
                    .tag("error_code", code.name())
                    .register(registry))
        .increment();
  }

  public void registryRetry() {
    registryRetries.increment();
  }

  public void threadReplaced() {
    threadReplacements.increment();
  }

  public void processingLatency(long nanos) {
    latency.record(nanos, TimeUnit.NANOSECONDS);
  }

  private Counter[] validatedCounters(String topic) {
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
    return counters;
  }
}
