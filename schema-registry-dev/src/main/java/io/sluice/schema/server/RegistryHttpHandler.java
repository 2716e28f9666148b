package io.sluice.schema.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import io.sluice.schema.registry.InvalidSchemaException;
import io.sluice.schema.registry.RegistryException;
import io.sluice.schema.registry.SubjectVersion;
import io.sluice.schema.server.LogEntry.SchemaEntry;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Routes the Confluent REST subset that Sluice uses to {@link SchemaStore} and writes JSON answers;
 * errors as the Confluent body {@code {"error_code": N, "message": "..."}}.
 */
final class RegistryHttpHandler implements HttpHandler {
  static final String CONTENT_TYPE = "application/vnd.schemaregistry.v1+json";
  private static final Logger log = LoggerFactory.getLogger(RegistryHttpHandler.class);
  private static final int MAX_BODY_BYTES = 8 * 1024 * 1024;

  private final ObjectMapper json = new ObjectMapper();
  private final SchemaStore store;

  RegistryHttpHandler(SchemaStore store) {
    this.store = store;
  }

  @Override
  public void handle(HttpExchange exchange) throws IOException {
    String method = exchange.getRequestMethod();
    String rawPath = exchange.getRequestURI().getRawPath();
    try (exchange) {
      JsonNode answer;
      try {
        answer = route(method, segments(rawPath), exchange);
      } catch (RegistryException e) {
        respond(exchange, e.httpStatus(), error(e.errorCode(), e.getMessage()));
        return;
      } catch (RuntimeException e) {
        log.warn("{} {} failed", method, rawPath, e);
        respond(exchange, 500, error(500, "Internal Server Error"));
        return;
      }
      if (answer == null && method.equals("DELETE")) {
        respond(exchange, 405, error(405, "DELETE is not supported by the dev schema registry"));
      } else if (answer == null) {
        respond(exchange, 404, error(404, "HTTP 404 Not Found"));
      } else {
        respond(exchange, 200, answer);
      }
    }
  }

  /** The answer, or null when no route matches. */
  private JsonNode route(String method, List<String> path, HttpExchange exchange)
      throws IOException {
    int n = path.size();
    String first = n > 0 ? path.get(0) : "";
    boolean get = method.equals("GET");
    boolean post = method.equals("POST");
    boolean put = method.equals("PUT");
    if (n == 0 && get) {
      return json.createObjectNode();
    }
    if (first.equals("subjects")) {
      if (n == 1 && get) {
        return strings(store.subjects());
      }
      String subject = n > 1 ? path.get(1) : null;
      if (n == 2 && post) {
        return registered(store.lookup(subject, schemaText(exchange)));
      }
      if (n == 3 && path.get(2).equals("versions")) {
        if (post) {
          return json.createObjectNode().put("id", store.register(subject, schemaText(exchange)));
        }
        if (get) {
          ArrayNode versions = json.createArrayNode();
          store.versions(subject).forEach(versions::add);
          return versions;
        }
      }
      if (n == 4 && path.get(2).equals("versions") && get) {
        return registered(store.version(subject, path.get(3)));
      }
    }
    if (first.equals("schemas") && n == 2 && path.get(1).equals("types") && get) {
      return strings(List.of("AVRO"));
    }
    if (first.equals("schemas") && n >= 3 && path.get(1).equals("ids") && get) {
      int id = parseId(path.get(2));
      if (n == 3) {
        return json.createObjectNode().put("schema", store.schemaText(id));
      }
      if (n == 4 && path.get(3).equals("versions")) {
        return subjectVersions(store.usages(id));
      }
    }
    if (first.equals("compatibility")
        && n == 5
        && path.get(1).equals("subjects")
        && path.get(3).equals("versions")
        && post) {
      boolean compatible = store.isCompatible(path.get(2), path.get(4), schemaText(exchange));
      return json.createObjectNode().put("is_compatible", compatible);
    }
    if (first.equals("config") && n <= 2) {
      String subject = n == 2 ? path.get(1) : null;
      if (get) {
        boolean defaultToGlobal = query(exchange).contains("defaultToGlobal=true");
        CompatibilityLevel level =
            subject == null ? store.globalLevel() : store.subjectLevel(subject, defaultToGlobal);
        return json.createObjectNode().put("compatibilityLevel", level.name());
      }
      if (put) {
        JsonNode level = body(exchange).get("compatibility");
        CompatibilityLevel set = store.setLevel(subject, level == null ? null : level.asText());
        return json.createObjectNode().put("compatibility", set.name());
      }
    }
    return null;
  }

  private ObjectNode registered(SchemaEntry entry) {
    return json.createObjectNode()
        .put("subject", entry.subject())
        .put("version", entry.version())
        .put("id", entry.id())
        .put("schema", entry.schema());
  }

  private ArrayNode subjectVersions(List<SubjectVersion> usages) {
    ArrayNode array = json.createArrayNode();
    for (SubjectVersion usage : usages) {
      array.addObject().put("subject", usage.subject()).put("version", usage.version());
    }
    return array;
  }

  private ArrayNode strings(List<String> values) {
    ArrayNode array = json.createArrayNode();
    values.forEach(array::add);
    return array;
  }

  /** The {@code schema} of a registration-style body; only Avro without references. */
  private String schemaText(HttpExchange exchange) throws IOException {
    JsonNode body = body(exchange);
    String type = body.path("schemaType").asText("AVRO");
    if (!type.equals("AVRO")) {
      throw new InvalidSchemaException(
          "Invalid schema type " + type + ": this registry serves AVRO");
    }
    JsonNode references = body.get("references");
    if (references != null && references.size() > 0) {
      throw new InvalidSchemaException("Schema references are not supported by this registry");
    }
    JsonNode schema = body.get("schema");
    if (schema == null || !schema.isTextual()) {
      throw new InvalidSchemaException("Invalid schema: the body has no \"schema\" string");
    }
    return schema.textValue();
  }

  private JsonNode body(HttpExchange exchange) throws IOException {
    byte[] bytes;
    try (InputStream in = exchange.getRequestBody()) {
      bytes = in.readNBytes(MAX_BODY_BYTES + 1);
    }
    if (bytes.length > MAX_BODY_BYTES) {
      throw new RegistryException(
          413, 413, "Request body larger than " + MAX_BODY_BYTES + " bytes");
    }
    try {
      JsonNode node = json.readTree(bytes);
      if (node != null && node.isObject()) {
        return node;
      }
    } catch (IOException e) {
      // answered below
    }
    throw new RegistryException(400, 400, "Unrecognized request body: expected a JSON object");
  }

  private ObjectNode error(int errorCode, String message) {
    return json.createObjectNode().put("error_code", errorCode).put("message", message);
  }

  private void respond(HttpExchange exchange, int status, JsonNode body) throws IOException {
    byte[] bytes = json.writeValueAsBytes(body);
    exchange.getResponseHeaders().set("Content-Type", CONTENT_TYPE);
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }

  private static int parseId(String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw new RegistryException(404, 404, "HTTP 404 Not Found");
    }
  }

  private static String query(HttpExchange exchange) {
    String query = exchange.getRequestURI().getRawQuery();
    return query == null ? "" : query;
  }

  /** Decoded path segments; a literal '+' stays '+' (only %20 is a space in a path). */
  static List<String> segments(String rawPath) {
    List<String> result = new ArrayList<>();
    for (String part : rawPath.split("/")) {
      if (!part.isEmpty()) {
        result.add(URLDecoder.decode(part.replace("+", "%2B"), StandardCharsets.UTF_8));
      }
    }
    return result;
  }
}
