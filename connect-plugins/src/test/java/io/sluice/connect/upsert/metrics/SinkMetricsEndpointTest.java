package io.sluice.connect.upsert.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.apache.kafka.common.config.ConfigException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class SinkMetricsEndpointTest {
  private static final String HOST = "127.0.0.1";
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void noEndpointLeftBehind() {
    assertThat(SinkMetricsEndpoint.url()).as("every test closes its leases").isEmpty();
  }

  @Test
  void theFirstLeaseStartsTheEndpointAndTheLastStopsIt() throws Exception {
    SinkMetricsEndpoint.Lease first = SinkMetricsEndpoint.acquire(HOST, 0);
    String url = SinkMetricsEndpoint.url().orElseThrow();
    int port = URI.create(url).getPort();
    assertThat(url).isEqualTo("http://127.0.0.1:" + port + "/metrics");
    SinkMetricsEndpoint.Lease samePort = SinkMetricsEndpoint.acquire(HOST, port);
    SinkMetricsEndpoint.Lease anyPort = SinkMetricsEndpoint.acquire(HOST, 0);
    assertThat(samePort.meters()).isSameAs(first.meters()).isSameAs(anyPort.meters());

    samePort.meters().table("orders-upsert", "cdc_lab.orders_current").received(null);
    first.close();
    first.close();
    assertThat(scrape(url))
        .as("one lease closed twice gives back one share")
        .contains(
            "sluice_sink_records_total{connector=\"orders-upsert\",op=\"tombstone\","
                + "table=\"cdc_lab.orders_current\"} 1.0");
    samePort.close();
    assertThat(SinkMetricsEndpoint.url()).contains(url);
    anyPort.close();

    assertThat(SinkMetricsEndpoint.url()).isEmpty();
    assertThatThrownBy(() -> new Socket(HOST, port).close())
        .isInstanceOf(ConnectException.class)
        .hasMessageContaining("Connection refused");
  }

  @Test
  void aRestartedEndpointKeepsThePortPickedForZeroWithFreshMeters() throws Exception {
    String url;
    try (SinkMetricsEndpoint.Lease lease = SinkMetricsEndpoint.acquire(HOST, 0)) {
      url = SinkMetricsEndpoint.url().orElseThrow();
      lease.meters().table("orders-upsert", "cdc_lab.orders_current").received(null);
    }
    try (SinkMetricsEndpoint.Lease lease = SinkMetricsEndpoint.acquire(HOST, 0)) {
      assertThat(SinkMetricsEndpoint.url()).contains(url);
      assertThat(scrape(url)).doesNotContain("sluice_sink_records_total");
    }
  }

  @Test
  void anotherPortOrHostWhileTheEndpointRunsIsRefusedNamingBoth() {
    try (SinkMetricsEndpoint.Lease lease = SinkMetricsEndpoint.acquire(HOST, 0)) {
      String url = SinkMetricsEndpoint.url().orElseThrow();
      int port = URI.create(url).getPort();
      int other = port == 65535 ? port - 1 : port + 1;
      assertThatThrownBy(() -> SinkMetricsEndpoint.acquire(HOST, other))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("metrics.host=127.0.0.1 metrics.port=" + other)
          .hasMessageContaining("already serve " + url + " (metrics.host=127.0.0.1 metrics.port=0)")
          .hasMessageContaining("give all its upsert sinks the same metrics.host and metrics.port");
      assertThatThrownBy(() -> SinkMetricsEndpoint.acquire("0.0.0.0", port))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("metrics.host=0.0.0.0 metrics.port=" + port)
          .hasMessageContaining("already serve " + url);
    }
  }

  @Test
  void aTakenPortFailsNamingTheKeys() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> SinkMetricsEndpoint.acquire(HOST, port))
          .isInstanceOf(org.apache.kafka.connect.errors.ConnectException.class)
          .hasMessageContaining(
              "cannot serve the upsert sink's metrics on 127.0.0.1:"
                  + port
                  + " (metrics.host, metrics.port)");
    }
  }

  @Test
  void aNegativePortGivesMetersThatRecordNothingAndNoEndpoint() {
    try (SinkMetricsEndpoint.Lease lease = SinkMetricsEndpoint.acquire(HOST, -1)) {
      TableMeters table = lease.meters().table("orders-upsert", "cdc_lab.orders_current");
      table.received(null);
      table.commitFailed();
      assertThat(SinkMetricsEndpoint.url()).isEmpty();
      assertThat(
              lease.meters().registry().get(SinkMeters.RECORDS).counters().stream()
                  .mapToDouble(c -> c.count())
                  .sum())
          .isZero();
    }
  }

  @Test
  void onlyMetricsIsServed() throws Exception {
    try (SinkMetricsEndpoint.Lease lease = SinkMetricsEndpoint.acquire(HOST, 0)) {
      String url = SinkMetricsEndpoint.url().orElseThrow();
      HttpResponse<String> other =
          http.send(
              HttpRequest.newBuilder(URI.create(url.replace("/metrics", "/health"))).build(),
              HttpResponse.BodyHandlers.ofString());
      assertThat(other.statusCode()).isEqualTo(404);
    }
  }

  private String scrape(String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        http.send(
            HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).isEqualTo(200);
    assertThat(response.headers().firstValue("Content-Type"))
        .contains("text/plain; version=0.0.4; charset=utf-8");
    return response.body();
  }
}
