package io.sluice.router.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.search.Search;
import io.sluice.router.validate.ErrorCode;
import java.util.List;
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

  private Search quarantined(String topic) {
    return metrics.registry().find(RouterMetrics.QUARANTINED).tag("topic", topic);
  }
}
