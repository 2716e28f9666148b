package io.sluice.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The capture's admin API (Kafka Connect's REST shape): pause, resume, status and the source
 * position of the last published change.
 */
public final class CaptureAdmin {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(10);

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final String connectorUrl;

  CaptureAdmin(String adminUrl, String captureName) {
    this.connectorUrl = adminUrl.replaceAll("/+$", "") + "/connectors/" + captureName;
  }

  public void pause() {
    put("pause");
  }

  public void resume() {
    put("resume");
  }

  /** {@code GET .../status}: {@code connector.state} and {@code streaming}, among others. */
  public JsonNode status() {
    return get("status");
  }

  /** The connector state of {@link #status()} (RUNNING, PAUSED, FAILED, ...). */
  public String state() {
    return status().path("connector").path("state").asText("UNKNOWN");
  }

  /** {@code GET .../offsets}: the binlog position or GTID set of the last published change. */
  public JsonNode offsets() {
    return get("offsets");
  }

  private void put(String action) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(connectorUrl + "/" + action))
            .timeout(TIMEOUT)
            .PUT(HttpRequest.BodyPublishers.noBody())
            .build();
    HttpResponse<String> response = send(request);
    if (response.statusCode() / 100 != 2) {
      throw new ScenarioFailure(
          "capture "
              + action
              + " at "
              + request.uri()
              + " answered "
              + response.statusCode()
              + ": "
              + response.body());
    }
  }

  private JsonNode get(String path) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(connectorUrl + "/" + path)).timeout(TIMEOUT).build();
    HttpResponse<String> response = send(request);
    if (response.statusCode() != 200) {
      throw new ScenarioFailure(
          "GET " + request.uri() + " answered " + response.statusCode() + ": " + response.body());
    }
    try {
      return JSON.readTree(response.body());
    } catch (IOException e) {
      throw new ScenarioFailure("GET " + request.uri() + " did not answer JSON", e);
    }
  }

  private HttpResponse<String> send(HttpRequest request) {
    try {
      return http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new ScenarioFailure(
          "capture admin API at " + request.uri() + " is unreachable: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScenarioFailure("interrupted while calling " + request.uri(), e);
    }
  }
}
