package io.sluice.tools.dlq.ledger;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.tools.dlq.kafka.Coordinates;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Locale;

/**
 * One ledger record (version 1): a DLQ record that was replayed or repaired, and what was produced
 * for it. The JSON value of a record of {@code <dlq>.repairs}; this class owns that format.
 *
 * @param strategy the repair strategy, null for a replay
 * @param dlq the DLQ record handled; null when the envelope came from a file
 * @param original where the poison record was in its original topic
 * @param produced where the replayed or repaired record landed
 * @param forced true when the stale-write guard was overridden with --force
 * @param valueSha256 lower-case hex sha256 of the produced value
 */
public record LedgerEntry(
    Action action,
    String strategy,
    Instant handledAt,
    Coordinates dlq,
    Coordinates original,
    Coordinates produced,
    boolean forced,
    String valueSha256) {

  public static final int VERSION = 1;
  private static final ObjectMapper JSON = new ObjectMapper();

  /** What was done with a DLQ record. */
  public enum Action {
    REPLAY,
    REPAIR;

    /** The lower-case name, as in the JSON and in messages ("replay", "repair"). */
    public String label() {
      return name().toLowerCase(Locale.ROOT);
    }

    /** "replayed" or "repaired". */
    public String pastTense() {
      return label() + "ed";
    }
  }

  /** The entry as UTF-8 JSON. */
  public byte[] toJsonBytes() {
    ObjectNode root = JSON.createObjectNode();
    root.put("ledger_version", VERSION);
    root.put("action", action.label());
    root.put("strategy", strategy);
    root.put("handled_at", handledAt.toString());
    root.set("dlq", coordinates(dlq));
    root.set("original", coordinates(original));
    root.set("produced", coordinates(produced));
    root.put("forced", forced);
    root.put("value_sha256", valueSha256);
    return root.toString().getBytes(StandardCharsets.UTF_8);
  }

  /**
   * Parses a ledger value.
   *
   * @throws IllegalArgumentException when it is not ledger JSON of version {@link #VERSION}
   */
  public static LedgerEntry fromJson(byte[] json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
    } catch (java.io.IOException e) {
      throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("not a JSON object");
    }
    int version = root.path("ledger_version").asInt(-1);
    if (version != VERSION) {
      throw new IllegalArgumentException(
          "ledger_version " + root.path("ledger_version") + " is not supported (expected 1)");
    }
    return new LedgerEntry(
        Action.valueOf(required(root, "action").asText().toUpperCase(Locale.ROOT)),
        text(root.get("strategy")),
        Instant.parse(required(root, "handled_at").asText()),
        coordinates(root.get("dlq")),
        coordinates(required(root, "original")),
        coordinates(required(root, "produced")),
        root.path("forced").asBoolean(false),
        text(root.get("value_sha256")));
  }

  private static JsonNode coordinates(Coordinates at) {
    if (at == null) {
      return JSON.nullNode();
    }
    ObjectNode node = JSON.createObjectNode();
    node.put("topic", at.topic());
    node.put("partition", at.partition());
    node.put("offset", at.offset());
    return node;
  }

  private static Coordinates coordinates(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    return new Coordinates(
        required(node, "topic").asText(),
        required(node, "partition").asInt(),
        required(node, "offset").asLong());
  }

  private static JsonNode required(JsonNode node, String field) {
    JsonNode value = node.get(field);
    if (value == null || value.isNull()) {
      throw new IllegalArgumentException("field '" + field + "' is missing");
    }
    return value;
  }

  private static String text(JsonNode node) {
    return node == null || node.isNull() ? null : node.asText();
  }
}
