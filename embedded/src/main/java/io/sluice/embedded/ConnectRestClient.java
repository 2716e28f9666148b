package io.sluice.embedded;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
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
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A small client of the Kafka Connect REST API (any worker: the embedded one or a real one). Every
 * non-2xx answer becomes a {@link ConnectRestException} carrying the status and Connect's message.
 *
 * <p>A request the worker turns down because its group is rebalancing (409, or 500 "a rebalance is
 * expected": what a restarted worker answers for a moment while it rejoins with its connectors) is
 * sent again, for up to a minute; only then is that answer thrown.
 */
public final class ConnectRestClient {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(30);
  private static final Duration REBALANCE_WAIT = Duration.ofSeconds(60);
  private static final Duration REBALANCE_PAUSE = Duration.ofMillis(250);

  private final String url;
  private final HttpClient http;
  private final Duration rebalanceWait;

  /** A client of the worker at {@code url}, e.g. {@code http://127.0.0.1:8083}. */
  public ConnectRestClient(String url) {
    this(url, REBALANCE_WAIT);
  }

  ConnectRestClient(String url, Duration rebalanceWait) {
    this.url = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    this.http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    this.rebalanceWait = rebalanceWait;
  }

  /** State of a connector and its tasks, as {@code GET /connectors/<name>/status} reports it. */
  public record ConnectorStatus(String state, List<TaskStatus> tasks) {
    /** True when the connector and at least one task run, and no task is in another state. */
    public boolean running() {
      return in("RUNNING");
    }

    /** True when the connector and at least one task are in {@code wanted}, and no task is not. */
    public boolean in(String wanted) {
      return wanted.equals(state)
          && !tasks.isEmpty()
          && tasks.stream().allMatch(t -> wanted.equals(t.state()));
    }
  }

  /**
   * One task's status.
   *
   * @param trace the stack trace of a FAILED task, else null
   * @param workerId the worker running it ({@code host:port} of its REST API)
   */
  public record TaskStatus(int id, String state, String trace, String workerId) {}

  /**
   * True once the worker finished starting: joined its group and read the config topic ({@code GET
   * /health} answers 200; it answers 503 before).
   */
  public boolean healthy() {
    try {
      send("GET", "/health", null);
      return true;
    } catch (ConnectRestException e) {
      return false;
    }
  }

  /** Names of the connectors. */
  public List<String> connectors() {
    return read(send("GET", "/connectors", null), new TypeReference<List<String>>() {});
  }

  /** Creates or reconfigures {@code name} ({@code PUT /connectors/<name>/config}). */
  public void putConnector(String name, Map<String, String> config) {
    send("PUT", "/connectors/" + encode(name) + "/config", config);
  }

  /** The connector's configuration as the worker stores it. */
  public Map<String, String> connectorConfig(String name) {
    return read(
        send("GET", "/connectors/" + encode(name) + "/config", null),
        new TypeReference<Map<String, String>>() {});
  }

  public ConnectorStatus status(String name) {
    JsonNode node = tree(send("GET", "/connectors/" + encode(name) + "/status", null));
    List<TaskStatus> tasks = new ArrayList<>();
    for (JsonNode task : node.path("tasks")) {
      tasks.add(
          new TaskStatus(
              task.path("id").asInt(),
              task.path("state").asText(),
              task.hasNonNull("trace") ? task.get("trace").asText() : null,
              task.path("worker_id").asText(null)));
    }
    return new ConnectorStatus(node.path("connector").path("state").asText(), tasks);
  }

  /**
   * Waits until the connector and all its tasks are RUNNING.
   *
   * @throws IllegalStateException when a task FAILED (with its trace) or the wait timed out
   */
  public ConnectorStatus awaitRunning(String name, Duration timeout) {
    return awaitState(name, "RUNNING", timeout);
  }

  /**
   * Waits until the connector and all its tasks are in {@code state} (RUNNING, PAUSED, STOPPED).
   *
   * @throws IllegalStateException when a task FAILED (with its trace) or the wait timed out
   */
  public ConnectorStatus awaitState(String name, String state, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    ConnectorStatus last = null;
    while (System.nanoTime() < deadline) {
      try {
        last = status(name);
      } catch (ConnectRestException e) {
        if (e.status() != 404) {
          throw e;
        }
      }
      if (last != null) {
        if (last.in(state)) {
          return last;
        }
        for (TaskStatus task : last.tasks()) {
          if ("FAILED".equals(task.state())) {
            throw new IllegalStateException(
                "task " + task.id() + " of connector " + name + " FAILED: " + task.trace());
          }
        }
      }
      pause(Duration.ofMillis(100));
    }
    throw new IllegalStateException(
        "connector " + name + " not " + state + " after " + timeout + "; last status " + last);
  }

  /** Restarts one task ({@code POST /connectors/<name>/tasks/<id>/restart}). */
  public void restartTask(String name, int task) {
    send("POST", "/connectors/" + encode(name) + "/tasks/" + task + "/restart", null);
  }

  public void pauseConnector(String name) {
    send("PUT", "/connectors/" + encode(name) + "/pause", null);
  }

  public void resumeConnector(String name) {
    send("PUT", "/connectors/" + encode(name) + "/resume", null);
  }

  /** Stops the connector and its tasks; offsets can then be altered or reset. */
  public void stopConnector(String name) {
    send("PUT", "/connectors/" + encode(name) + "/stop", null);
  }

  public void deleteConnector(String name) {
    send("DELETE", "/connectors/" + encode(name), null);
  }

  /** The offsets Connect holds for the connector ({@code GET /connectors/<name>/offsets}). */
  public JsonNode offsets(String name) {
    return tree(send("GET", "/connectors/" + encode(name) + "/offsets", null));
  }

  /** Deletes the offsets Connect holds for a STOPPED connector. */
  public void resetOffsets(String name) {
    send("DELETE", "/connectors/" + encode(name) + "/offsets", null);
  }

  /**
   * Validates {@code config} against a connector plugin without creating anything ({@code PUT
   * /connector-plugins/<class>/config/validate}).
   *
   * @return the error messages per key, only keys that have errors
   */
  public Map<String, List<String>> validate(String connectorClass, Map<String, String> config) {
    JsonNode node =
        tree(
            send(
                "PUT",
                "/connector-plugins/" + encode(connectorClass) + "/config/validate",
                config));
    Map<String, List<String>> errors = new LinkedHashMap<>();
    for (JsonNode entry : node.path("configs")) {
      JsonNode value = entry.path("value");
      List<String> messages = new ArrayList<>();
      value.path("errors").forEach(m -> messages.add(m.asText()));
      if (!messages.isEmpty()) {
        errors.put(value.path("name").asText(), messages);
      }
    }
    return errors;
  }

  private String send(String method, String path, Object body) {
    long deadline = System.nanoTime() + rebalanceWait.toNanos();
    while (true) {
      try {
        return sendOnce(method, path, body);
      } catch (ConnectRestException e) {
        if (!e.rebalancing() || System.nanoTime() > deadline) {
          throw e;
        }
        pause(REBALANCE_PAUSE);
      }
    }
  }

  private String sendOnce(String method, String path, Object body) {
    HttpRequest.Builder request =
        HttpRequest.newBuilder(URI.create(url + path))
            .timeout(REQUEST_TIMEOUT)
            .header("Accept", "application/json");
    if (body == null) {
      request.method(method, HttpRequest.BodyPublishers.noBody());
    } else {
      request.header("Content-Type", "application/json");
      request.method(method, HttpRequest.BodyPublishers.ofString(write(body)));
    }
    HttpResponse<String> response;
    try {
      response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new UncheckedIOException(method + " " + url + path + " failed", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted: " + method + " " + url + path, e);
    }
    if (response.statusCode() / 100 != 2) {
      String message = message(response.body());
      throw new ConnectRestException(
          response.statusCode(),
          method + " " + path + ": " + message,
          message.toLowerCase(Locale.ROOT).contains("rebalance"));
    }
    return response.body();
  }

  private static String message(String body) {
    try {
      JsonNode node = JSON.readTree(body);
      return node.hasNonNull("message") ? node.get("message").asText() : body;
    } catch (JsonProcessingException e) {
      return body;
    }
  }

  private static String write(Object body) {
    try {
      return JSON.writeValueAsString(body);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("cannot write request body as JSON", e);
    }
  }

  private static JsonNode tree(String body) {
    try {
      return JSON.readTree(body);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Connect answered invalid JSON", e);
    }
  }

  private static <T> T read(String body, TypeReference<T> type) {
    try {
      return JSON.readValue(body, type);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("Connect answered unexpected JSON", e);
    }
  }

  private static String encode(String segment) {
    return URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static void pause(Duration duration) {
    try {
      Thread.sleep(duration.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for Connect", e);
    }
  }

  /** A non-2xx answer of the Connect REST API. */
  public static final class ConnectRestException extends RuntimeException {
    private final int status;
    private final boolean saysRebalance;

    ConnectRestException(int status, String message, boolean saysRebalance) {
      super("HTTP " + status + " " + message);
      this.status = status;
      this.saysRebalance = saysRebalance;
    }

    public int status() {
      return status;
    }

    /** True when the worker turned the request down only because its group is rebalancing. */
    public boolean rebalancing() {
      return (status == 409 || status == 500) && saysRebalance;
    }
  }
}
