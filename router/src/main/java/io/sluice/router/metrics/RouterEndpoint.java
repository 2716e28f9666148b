package io.sluice.router.metrics;

import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.observe.Health;
import io.sluice.observe.HttpEndpoint;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.function.Supplier;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The router's HTTP endpoint: {@code GET /metrics} in the Prometheus text format and {@code GET
 * /health}: 200 {@code {"status":"RUNNING"}} while Kafka Streams is running or rebalancing, else
 * 503 with the state ({@code NOT_STARTED} before there is one).
 */
public final class RouterEndpoint {
  private RouterEndpoint() {}

  /**
   * Starts serving on {@code host:port} (0 = a free port).
   *
   * @param state the current Kafka Streams state, or null before it exists
   * @throws UncheckedIOException when the address cannot be bound
   */
  public static HttpEndpoint start(
      String host, int port, PrometheusMeterRegistry registry, Supplier<KafkaStreams.State> state) {
    try {
      return HttpEndpoint.builder("sluice-router-metrics")
          .metrics(registry)
          .health(() -> health(state.get()))
          .start(host, port);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot bind the metrics server to " + host + ":" + port, e);
    }
  }

  static Health health(KafkaStreams.State state) {
    boolean up = state == KafkaStreams.State.RUNNING || state == KafkaStreams.State.REBALANCING;
    return Health.status(up, up ? "RUNNING" : state == null ? "NOT_STARTED" : state.name());
  }
}
