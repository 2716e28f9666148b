package io.sluice.tools.dlq.repair;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The row a poison payload meant to write, as the json-intended-row strategy reads it: either
 * {@code {"intended_after": {...}, "intended_operation": "c|u|d", "repair_format": "..."}} or a
 * bare JSON row (operation {@code c}).
 *
 * @param operation the Debezium operation: c, u or d
 * @param row the row's columns as JSON (for d, the row that is deleted)
 * @param repairFormat the wrapper's {@code repair_format}, null for a bare row
 */
public record IntendedRow(String operation, JsonNode row, String repairFormat) {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Set<String> OPERATIONS = Set.of("c", "u", "d");

  /**
   * Decodes a payload.
   *
   * @throws RepairException when it is not UTF-8 JSON of one of the two shapes
   */
  public static IntendedRow parse(byte[] payload) {
    if (payload == null) {
      throw new RepairException("the payload is null: there is no intended row to repair");
    }
    JsonNode root;
    try {
      String text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(payload))
              .toString();
      root = JSON.readTree(text);
    } catch (CharacterCodingException e) {
      throw new RepairException(
          "the payload ("
              + payload.length
              + " bytes) is not UTF-8 text; the json-intended-row strategy needs JSON");
    } catch (JsonProcessingException e) {
      throw new RepairException(
          "the payload ("
              + payload.length
              + " bytes) is not JSON (line "
              + e.getLocation().getLineNr()
              + ", column "
              + e.getLocation().getColumnNr()
              + "); the json-intended-row strategy needs a JSON object");
    }
    if (root == null || !root.isObject()) {
      throw new RepairException(
          "the payload is JSON but not an object; expected {\"intended_after\": {...},"
              + " \"intended_operation\": \"c|u|d\"} or a bare row object");
    }
    if (!root.has("intended_after") && !root.has("intended_operation")) {
      return new IntendedRow("c", root, null);
    }
    return wrapped(root);
  }

  private static IntendedRow wrapped(JsonNode root) {
    JsonNode op = root.get("intended_operation");
    String operation;
    if (op == null || op.isNull()) {
      operation = "c";
    } else if (op.isTextual() && OPERATIONS.contains(op.textValue())) {
      operation = op.textValue();
    } else {
      throw new RepairException("intended_operation must be \"c\", \"u\" or \"d\"");
    }
    JsonNode row = root.get("intended_after");
    if ("d".equals(operation) && (row == null || row.isNull())) {
      row = root.get("intended_before");
    }
    if (row == null || !row.isObject()) {
      throw new RepairException(
          "intended_after must be a JSON object with the row's columns"
              + ("d".equals(operation) ? " (or intended_before, for a delete)" : ""));
    }
    JsonNode format = root.get("repair_format");
    return new IntendedRow(
        operation, row, format == null || format.isNull() ? null : format.asText());
  }
}
