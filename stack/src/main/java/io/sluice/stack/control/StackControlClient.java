package io.sluice.stack.control;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * A client of a supervisor's control API ({@link StackControlServer}), at the ready file's {@code
 * control_url}. Errors of the API come back as {@link StackController.ControlException} with its
 * status and message; an unreachable supervisor as an {@link java.io.UncheckedIOException}.
 */
public final class StackControlClient implements StackController {
  /** A start waits for the component to answer, which takes a JVM's start-up and more. */
  private static final Duration ACTION_TIMEOUT = Duration.ofMinutes(3);

  private final String url;
  private final HttpClient http =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
  private final ObjectMapper json =
      new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

  public StackControlClient(String url) {
    this.url = url.replaceAll("/+$", "");
  }

  public String url() {
    return url;
  }

  @Override
  public List<ComponentStatus> status() {
    JsonNode body = call("GET", "/components");
    return json.convertValue(body.path("components"), new TypeReference<>() {});
  }

  /** One component's status. */
  public ComponentStatus status(String component) {
    return json.convertValue(call("GET", "/components/" + component), ComponentStatus.class);
  }

  @Override
  public ComponentStatus kill(String component) {
    return action(component, "kill");
  }

  @Override
  public ComponentStatus stop(String component) {
    return action(component, "stop");
  }

  @Override
  public ComponentStatus start(String component) {
    return action(component, "start");
  }

  @Override
  public List<ComponentStatus> crash() {
    JsonNode body = call("POST", StackControlServer.CRASH);
    return json.convertValue(body.path("components"), new TypeReference<>() {});
  }

  private ComponentStatus action(String component, String action) {
    return json.convertValue(
        call("POST", "/components/" + component + "/" + action), ComponentStatus.class);
  }

  private JsonNode call(String method, String path) {
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(url + path))
            .timeout(ACTION_TIMEOUT)
            .method(method, HttpRequest.BodyPublishers.noBody())
            .build();
    HttpResponse<String> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new java.io.UncheckedIOException(
          "the stack's control API at " + url + " does not answer (is the stack up?)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted calling " + method + " " + url + path, e);
    }
    JsonNode body;
    try {
      body = json.readTree(response.body());
    } catch (IOException e) {
      throw new StackController.ControlException(
          response.statusCode(), method + " " + path + " answered no JSON: " + response.body());
    }
    if (response.statusCode() != 200) {
      throw new StackController.ControlException(
          response.statusCode(), body.path("error").asText(response.body()));
    }
    return body;
  }
}
