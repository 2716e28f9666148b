package io.sluice.schema.registry;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * One JSON request to the registry and its answer, or a typed {@link RegistryException}. Every I/O
 * failure (refused connection, timeout, reset) becomes {@link RegistryUnavailableException}.
 */
final class RegistryTransport {
  static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final String ACCEPT =
      "application/vnd.schemaregistry.v1+json, application/vnd.schemaregistry+json; q=0.9,"
          + " application/json; q=0.5";

  private final String baseUrl;
  private final Duration requestTimeout;
  private final HttpClient http;
  private final ObjectMapper json;

  RegistryTransport(RegistryClientSettings settings, ObjectMapper json) {
    this.baseUrl = settings.url();
    this.requestTimeout = settings.requestTimeout();
    this.json = json;
    this.http =
        HttpClient.newBuilder()
            .connectTimeout(settings.connectTimeout())
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();
  }

  /** A path segment, percent-encoded (a space as %20, not '+'). */
  static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  JsonNode get(String path, String about) {
    return send("GET", path, null, about);
  }

  JsonNode post(String path, JsonNode body, String about) {
    return send("POST", path, body, about);
  }

  JsonNode put(String path, JsonNode body, String about) {
    return send("PUT", path, body, about);
  }

  private JsonNode send(String method, String path, JsonNode body, String about) {
    String request = method + " " + path + " (" + about + ")";
    HttpRequest.Builder builder =
        HttpRequest.newBuilder(URI.create(baseUrl + path))
            .timeout(requestTimeout)
            .header("Accept", ACCEPT);
    if (body == null) {
      builder.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      builder
          .header("Content-Type", CONTENT_TYPE)
          .method(method, HttpRequest.BodyPublishers.ofString(write(body), StandardCharsets.UTF_8));
    }
    HttpResponse<String> response;
    try {
      response =
          http.send(builder.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (HttpTimeoutException e) {
      throw new RegistryUnavailableException(
          0, request + ": no answer from " + baseUrl + " within " + requestTimeout, e);
    } catch (IOException e) {
      throw new RegistryUnavailableException(
          0, request + ": cannot reach " + baseUrl + ": " + describe(e), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new RegistryUnavailableException(0, request + ": interrupted", e);
    }
    int status = response.statusCode();
    if (status >= 200 && status < 300) {
      return parse(response.body(), status, request);
    }
    throw error(status, response.body(), request);
  }

  private JsonNode parse(String text, int status, String request) {
    try {
      return json.readTree(text);
    } catch (JsonProcessingException e) {
      // A proxy or some other server answering: not a registry, so not a verdict on the record.
      throw new RegistryUnavailableException(
          status, request + ": answer is not JSON (" + text.length() + " chars)", e);
    }
  }

  private RegistryException error(int status, String body, String request) {
    int errorCode = 0;
    String message = null;
    try {
      JsonNode node = json.readTree(body);
      if (node != null && node.isObject()) {
        errorCode = node.path("error_code").asInt(0);
        message = node.hasNonNull("message") ? node.get("message").asText() : null;
      }
    } catch (JsonProcessingException e) {
      // Not a Confluent error body (an HTML page from a proxy): the status alone decides.
    }
    return RegistryErrors.fromResponse(status, errorCode, message, request);
  }

  private String write(JsonNode body) {
    try {
      return json.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a JSON request body", e);
    }
  }

  private static String describe(IOException e) {
    String message = e.getMessage();
    return e.getClass().getSimpleName() + (message == null ? "" : " " + message);
  }
}
