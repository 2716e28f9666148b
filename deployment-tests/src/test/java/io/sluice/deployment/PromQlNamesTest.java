package io.sluice.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class PromQlNamesTest {
  @Test
  void namesTheMetricsButNotFunctionsLabelsOrVariables() {
    assertThat(
            PromQlNames.ofExpression(
                "sum by (topic, error_code) (rate(sluice_router_records_quarantined_total"
                    + "{topic=~\"$topic\",error_code!=\"x y\"}[$__rate_interval]))"))
        .containsExactly("sluice_router_records_quarantined_total");
  }

  @Test
  void findsEveryOperandOfABinaryExpression() {
    assertThat(
            PromQlNames.ofExpression(
                "sum(rate(a_sum[5m])) / sum(rate(a_count[5m])) * 60 - on (job) group_left"
                    + " (instance) up offset 1m"))
        .containsExactly("a_count", "a_sum", "up");
  }

  @Test
  void histogramQuantileKeepsTheBucketSeriesAndDropsTheLeGrouping() {
    assertThat(
            PromQlNames.ofExpression(
                "histogram_quantile(0.99, sum(rate(x_seconds_bucket[1m])) by (le, table))"))
        .containsExactly("x_seconds_bucket");
  }

  @Test
  void timeAndScalarsAreNotMetrics() {
    assertThat(PromQlNames.ofExpression("time() - max(last_commit_seconds) / 1e3"))
        .containsExactly("last_commit_seconds");
  }

  @Test
  void modifiersAreNotMetrics() {
    assertThat(PromQlNames.ofExpression("rate(x_total[5m] offset 1h) - y_total @ end()"))
        .containsExactly("x_total", "y_total");
  }

  @Test
  void variableQueriesNameTheirSelector() {
    assertThat(
            PromQlNames.ofVariableQuery(
                "label_values(sluice_router_records_validated_total, topic)"))
        .containsExactly("sluice_router_records_validated_total");
    assertThat(PromQlNames.ofVariableQuery("query_result(topk(3, foo_total))"))
        .containsExactly("foo_total");
  }

  @Test
  void anUnknownVariableQueryIsRefused() {
    assertThatThrownBy(() -> PromQlNames.ofVariableQuery("metrics(sluice_.*)"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "unsupported variable query (use label_values or query_result): metrics(sluice_.*)");
  }
}
