package io.sluice.deployment;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/** The parts of Prometheus' HTTP API (v1) that the tests ask: queries and label values. */
public final class PrometheusApi {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration TIMEOUT = Duration.ofSeconds(30);

  /**
   * One answer: {@code data} when Prometheus said {@code success}, else its {@code errorType:
   * error}.
   */
  public record Answer(boolean success, String error, JsonNode data) {}

  private final String url;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();

  public PrometheusApi(String url) {
    this.url = url;
  }

  /** {@code /api/v1/query} at the server's now. */
  public Answer query(String expr) {
    return post("/api/v1/query", Map.of("query", expr));
  }

  /**
   * {@code /api/v1/query_range}: a matrix, one value per step from {@code start} to {@code end}.
   */
  public Answer queryRange(String expr, Instant start, Instant end, Duration step) {
    Map<String, String> form = new LinkedHashMap<>();
    form.put("query", expr);
    form.put("start", seconds(start));
    form.put("end", seconds(end));
    form.put("step", seconds(step));
    return post("/api/v1/query_range", form);
  }

  /** {@code /api/v1/label/<label>/values}, of the series matching {@code match} when not null. */
  public Answer labelValues(String label, String match, Instant start, Instant end) {
    StringBuilder path =
        new StringBuilder("/api/v1/label/")
            .append(encode(label))
            .append("/values?start=")
            .append(seconds(start))
            .append("&end=")
            .append(seconds(end));
    if (match != null) {
      path.append("&match[]=").append(encode(match));
    }
    return send(HttpRequest.newBuilder(URI.create(url + path)).GET());
  }

  private Answer post(String path, Map<String, String> form) {
    String body =
        form.entrySet().stream()
            .map(e -> encode(e.getKey()) + "=" + encode(e.getValue()))
            .collect(Collectors.joining("&"));
    return send(
        HttpRequest.newBuilder(URI.create(url + path))
            .header("Content-Type", "application/x-www-form-urlencoded")
            .POST(HttpRequest.BodyPublishers.ofString(body)));
  }

  private Answer send(HttpRequest.Builder request) {
    try {
      HttpResponse<String> response =
          http.send(request.timeout(TIMEOUT).build(), HttpResponse.BodyHandlers.ofString());
      JsonNode json;
      try {
        json = JSON.readTree(response.body());
      } catch (IOException e) {
        return new Answer(false, "HTTP " + response.statusCode() + ": " + response.body(), null);
      }
      if ("success".equals(json.path("status").asText())) {
        return new Answer(true, null, json.path("data"));
      }
      return new Answer(
          false, json.path("errorType").asText() + ": " + json.path("error").asText(), null);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot reach Prometheus at " + url, e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while asking Prometheus", e);
    }
  }

  private static String seconds(Instant instant) {
    return String.format(
        java.util.Locale.ROOT, "%d.%03d", instant.getEpochSecond(), instant.getNano() / 1_000_000);
  }

  private static String seconds(Duration duration) {
    return String.format(java.util.Locale.ROOT, "%.3f", duration.toMillis() / 1000.0);
  }

  private static String encode(String value) {
    return URLEncoder.encode(value, StandardCharsets.UTF_8);
  }
}
