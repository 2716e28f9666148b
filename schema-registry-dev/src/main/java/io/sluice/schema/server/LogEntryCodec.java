package io.sluice.schema.server;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.schema.server.LogEntry.ConfigEntry;
import io.sluice.schema.server.LogEntry.SchemaEntry;
import java.nio.charset.StandardCharsets;

/**
 * The JSON key and value of a {@code _schemas} record. The key identifies what the record is about,
 * so compaction keeps the last record per (subject, version) and per config scope:
 *
 * <pre>
 * key   {"keytype":"SCHEMA","subject":"orders-value","version":2,"magic":1}
 * value {"subject":"orders-value","version":2,"id":7,"schema":"{...}","deleted":false}
 * key   {"keytype":"CONFIG","subject":null,"magic":1}
 * value {"compatibilityLevel":"BACKWARD"}
 * </pre>
 *
 * {@code magic} is the format version of the key.
 */
final class LogEntryCodec {
  static final int MAGIC = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  private LogEntryCodec() {}

  static byte[] key(LogEntry entry) {
    ObjectNode key = JSON.createObjectNode();
    if (entry instanceof SchemaEntry schema) {
      key.put("keytype", "SCHEMA")
          .put("subject", schema.subject())
          .put("version", schema.version());
    } else if (entry instanceof ConfigEntry config) {
      key.put("keytype", "CONFIG").put("subject", config.subject());
    }
    key.put("magic", MAGIC);
    return bytes(key);
  }

  static byte[] value(LogEntry entry) {
    ObjectNode value = JSON.createObjectNode();
    if (entry instanceof SchemaEntry schema) {
      value
          .put("subject", schema.subject())
          .put("version", schema.version())
          .put("id", schema.id())
          .put("schema", schema.schema())
          .put("deleted", false);
    } else if (entry instanceof ConfigEntry config) {
      value.put("compatibilityLevel", config.level().name());
    }
    return bytes(value);
  }

  /**
   * The entry of a record, or null for a record this registry does not use (a tombstone, a deleted
   * version, an unknown key type).
   *
   * @throws IllegalArgumentException when the record is not JSON of the expected shape
   */
  static LogEntry decode(byte[] keyBytes, byte[] valueBytes) {
    if (keyBytes == null || valueBytes == null) {
      return null;
    }
    JsonNode key = tree(keyBytes);
    JsonNode value = tree(valueBytes);
    String keyType = key.path("keytype").asText("");
    switch (keyType) {
      case "SCHEMA":
        if (value.path("deleted").asBoolean(false)) {
          return null;
        }
        return new SchemaEntry(
            text(value, "subject"),
            number(value, "version"),
            number(value, "id"),
            text(value, "schema"));
      case "CONFIG":
        JsonNode subject = key.get("subject");
        CompatibilityLevel level = CompatibilityLevel.parse(text(value, "compatibilityLevel"));
        if (level == null) {
          throw new IllegalArgumentException("unknown compatibilityLevel in a CONFIG record");
        }
        return new ConfigEntry(
            subject == null || subject.isNull() ? null : subject.asText(), level);
      default:
        return null;
    }
  }

  private static JsonNode tree(byte[] bytes) {
    try {
      JsonNode node = JSON.readTree(bytes);
      if (node == null || !node.isObject()) {
        throw new IllegalArgumentException(
            "expected a JSON object, got " + bytes.length + " bytes");
      }
      return node;
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("not JSON (" + bytes.length + " bytes)", e);
    }
  }

  private static String text(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isTextual()) {
      throw new IllegalArgumentException("missing text field '" + field + "'");
    }
    return value.textValue();
  }

  private static int number(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || !value.isIntegralNumber()) {
      throw new IllegalArgumentException("missing number field '" + field + "'");
    }
    return value.intValue();
  }

  private static byte[] bytes(JsonNode node) {
    try {
      return JSON.writeValueAsString(node).getBytes(StandardCharsets.UTF_8);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write a _schemas record", e);
    }
  }
}
