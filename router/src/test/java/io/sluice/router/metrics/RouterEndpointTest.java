package io.sluice.router.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.observe.HttpEndpoint;
import io.sluice.router.validate.ErrorCode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.streams.KafkaStreams;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class RouterEndpointTest {
  private final PrometheusMeterRegistry registry =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final AtomicReference<KafkaStreams.State> state = new AtomicReference<>();
  private final HttpEndpoint server = RouterEndpoint.start("127.0.0.1", 0, registry, state::get);
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() {
    server.close();
    registry.close();
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  @Test
  void metricsUseTheSluicePrometheusNames() throws Exception {
    RouterMetrics metrics = new RouterMetrics(registry);
    metrics.validated("t", RouterMetrics.Result.VALID);
    metrics.validated("t", RouterMetrics.Result.VALID);
    metrics.validated("t", RouterMetrics.Result.POISON);
    metrics.quarantined("t", ErrorCode.NOT_AVRO_WIRE_FORMAT);
    metrics.registryRetry();
    metrics.processingLatency(1_500_000);

    HttpResponse<String> response = get("/metrics");
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .contains("text/plain; version=0.0.4; charset=utf-8");
    assertThat(response.body())
        .contains("sluice_router_records_validated_total{result=\"valid\",topic=\"t\"} 2.0")
        .contains("sluice_router_records_validated_total{result=\"poison\",topic=\"t\"} 1.0")
        .contains(
            "sluice_router_records_quarantined_total{error_code=\"NOT_AVRO_WIRE_FORMAT\",topic=\"t\"} 1.0")
        .contains("sluice_router_registry_retries_total 1.0")
        .contains("sluice_router_processing_latency_seconds_count 1");
  }

  @Test
  void healthIsUpWhileRunningOrRebalancing() throws Exception {
    assertThat(get("/health").statusCode()).isEqualTo(503);
    assertThat(get("/health").body()).isEqualTo("{\"status\":\"NOT_STARTED\"}");
    state.set(KafkaStreams.State.RUNNING);
    assertThat(get("/health").statusCode()).isEqualTo(200);
    assertThat(get("/health").body()).isEqualTo("{\"status\":\"RUNNING\"}");
    state.set(KafkaStreams.State.REBALANCING);
    assertThat(get("/health").statusCode()).isEqualTo(200);
    state.set(KafkaStreams.State.ERROR);
    assertThat(get("/health").statusCode()).isEqualTo(503);
    assertThat(get("/health").body()).isEqualTo("{\"status\":\"ERROR\"}");
  }

  @Test
  void otherPathsAre404() throws Exception {
    assertThat(get("/metricsx").statusCode()).isEqualTo(404);
    assertThat(get("/metrics/x").statusCode()).isEqualTo(404);
  }
}
