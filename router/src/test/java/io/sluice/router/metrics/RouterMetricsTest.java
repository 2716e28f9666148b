package io.sluice.router.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.router.validate.ErrorCode;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class RouterMetricsTest {
  private final RouterMetrics metrics = RouterMetrics.inMemory();

  @Test
  void aTopicsFirstRecordRegistersEveryQuarantineCounterAtZero() {
    metrics.validated("orders", RouterMetrics.Result.VALID);

    List<Counter> counters = quarantined("orders").counters().stream().toList();
    assertThat(counters).hasSize(ErrorCode.values().length);
    assertThat(counters).allSatisfy(c -> assertThat(c.count()).isZero());
    assertThat(quarantined("other").counters()).isEmpty();
  }

  @Test
  void aQuarantineCountsOnlyItsTopicAndCode() {
    metrics.quarantined("orders", ErrorCode.NOT_AVRO_WIRE_FORMAT);
    metrics.quarantined("orders", ErrorCode.NOT_AVRO_WIRE_FORMAT);

    assertThat(
            quarantined("orders")
                .tag("error_code", ErrorCode.NOT_AVRO_WIRE_FORMAT.name())
                .counter())
        .extracting(Counter::count)
        .isEqualTo(2.0);
    assertThat(quarantined("orders").counters().stream().mapToDouble(Counter::count).sum())
        .isEqualTo(2.0);
    assertThat(quarantined("orders").counters()).hasSize(ErrorCode.values().length);
  }

  @Test
  void recordsValidatedAheadAreReadFromTheirSourceOnEveryScrape() {
    PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    AtomicLong taken = new AtomicLong(5);
    new RouterMetrics(registry).validatedAhead(taken, AtomicLong::get);
    taken.set(7);

    assertThat(registry.scrape()).contains("sluice_router_records_validated_ahead_total 7.0");
  }

  private Search quarantined(String topic) {
    return metrics.registry().find(RouterMetrics.QUARANTINED).tag("topic", topic);
  }
}
