package io.sluice.scenarios;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Whether the router runs, from its metrics endpoint: {@code /health} answers 200 {@code
 * {"status":"RUNNING"}} while Kafka Streams runs, and the stream-thread replacement counter says
 * whether a thread died on the way.
 */
public final class RouterProbe {
  private static final Duration TIMEOUT = Duration.ofSeconds(10);
  private static final String REPLACEMENTS = "sluice_router_thread_replacements_total";
  private static final String REGISTRY_RETRIES = "sluice_router_registry_retries_total";

  private final HttpClient http = HttpClient.newBuilder().connectTimeout(TIMEOUT).build();
  private final String metricsUrl;
  private final String healthUrl;

  RouterProbe(String metricsUrl) {
    this.metricsUrl = metricsUrl;
    this.healthUrl = metricsUrl.replaceAll("/metrics/*$", "") + "/health";
  }

  /** The status {@code /health} reports ("RUNNING" when up), or "UNREACHABLE: ...". */
  public String health() {
    try {
      HttpResponse<String> response = get(healthUrl);
      String body = response.body();
      int at = body.indexOf("\"status\":\"");
      if (at < 0) {
        return "HTTP " + response.statusCode();
      }
      int from = at + "\"status\":\"".length();
      return body.substring(from, body.indexOf('"', from));
    } catch (IOException e) {
      return "UNREACHABLE: " + e.getMessage();
    }
  }

  /** Stream threads the router replaced after a failure so far (0 when it reports none). */
  public long threadReplacements() {
    return counter(REPLACEMENTS);
  }

  /** Registry calls the router retried because the registry was unavailable, so far. */
  public long registryRetries() {
    return counter(REGISTRY_RETRIES);
  }

  /** The sum of a counter's series in the router's metrics (0 when it reports none). */
  private long counter(String name) {
    try {
      double total = 0;
      for (String line : get(metricsUrl).body().split("\n")) {
        if (line.startsWith(name)) {
          total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
        }
      }
      return (long) total;
    } catch (IOException e) {
      throw new ScenarioFailure("router metrics at " + metricsUrl + " are unreachable", e);
    }
  }

  private HttpResponse<String> get(String url) throws IOException {
    try {
      return http.send(
          HttpRequest.newBuilder(URI.create(url)).timeout(TIMEOUT).build(),
          HttpResponse.BodyHandlers.ofString());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScenarioFailure("interrupted while calling " + url, e);
    }
  }
}
