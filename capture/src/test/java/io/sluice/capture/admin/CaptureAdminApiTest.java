package io.sluice.capture.admin;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.sluice.capture.CaptureService;
import io.sluice.capture.config.CaptureConfig;
import io.sluice.observe.HttpEndpoint;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The admin API of a capture that was never started (state UNASSIGNED): no broker, no database. */
class CaptureAdminApiTest {
  private final CaptureService capture =
      new CaptureService(
          new CaptureConfig(
              Map.of(
                  "database.user", "cdc",
                  "bootstrap.servers", "127.0.0.1:9",
                  "schema.registry.url", "http://127.0.0.1:9")));
  private final PrometheusMeterRegistry meters =
      new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
  private final HttpEndpoint endpoint = CaptureAdminApi.start(capture, meters, "127.0.0.1", 0);
  private final HttpClient http = HttpClient.newHttpClient();

  @AfterEach
  void stop() {
    endpoint.close();
    meters.close();
    capture.close();
  }

  @Test
  void connectorsListTheCaptureAndItsStatusNamesTheWorker() throws Exception {
    assertThat(get("/connectors").body()).isEqualTo("[\"" + capture.name() + "\"]");

    HttpResponse<String> status = get("/connectors/" + capture.name() + "/status/");

    assertThat(status.statusCode()).isEqualTo(200);
    assertThat(status.headers().firstValue("Content-Type")).contains("application/json");
    assertThat(status.body())
        .startsWith("{\"name\":\"" + capture.name() + "\",\"streaming\":false,")
        .contains("\"state\":\"UNASSIGNED\",\"worker_id\":\"127.0.0.1:" + endpoint.port() + "\"");
  }

  @Test
  void pauseIsAcceptedWithoutABody() throws Exception {
    HttpResponse<String> pause = send("PUT", "/connectors/" + capture.name() + "/pause");

    assertThat(pause.statusCode()).isEqualTo(202);
    assertThat(pause.body()).isEmpty();
  }

  @Test
  void errorsHaveConnectsBody() throws Exception {
    HttpResponse<String> unknownConnector = get("/connectors/other/status");
    HttpResponse<String> unknownAction = send("DELETE", "/connectors/" + capture.name());
    HttpResponse<String> unknownPath = get("/nothing");

    assertThat(unknownConnector.statusCode()).isEqualTo(404);
    assertThat(unknownConnector.body()).contains("\"message\":\"Connector other not found\"");
    assertThat(unknownAction.statusCode()).isEqualTo(405);
    assertThat(unknownAction.body()).contains("\"error_code\":405");
    assertThat(unknownPath.statusCode()).isEqualTo(404);
    assertThat(unknownPath.body()).contains("\"message\":\"no such resource: /nothing\"");
  }

  @Test
  void metricsAndHealthAreServedBeside() throws Exception {
    meters.counter("sluice_capture_test").increment();

    HttpResponse<String> metrics = get("/metrics");
    HttpResponse<String> health = get("/health");

    assertThat(metrics.headers().firstValue("Content-Type"))
        .contains("text/plain; version=0.0.4; charset=utf-8");
    assertThat(metrics.body()).contains("sluice_capture_test_total 1.0");
    assertThat(health.statusCode()).isEqualTo(200);
    assertThat(health.body()).isEqualTo("{\"status\":\"UNASSIGNED\"}");
  }

  private HttpResponse<String> get(String path) throws IOException, InterruptedException {
    return send("GET", path);
  }

  private HttpResponse<String> send(String method, String path)
      throws IOException, InterruptedException {
    return http.send(
        HttpRequest.newBuilder(URI.create(endpoint.url() + path))
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build(),
        HttpResponse.BodyHandlers.ofString());
  }
}
