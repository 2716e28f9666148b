package io.sluice.schema.registry;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * Reads fields out of registry answers. A missing or mistyped field is {@link
 * RegistryUnavailableException}: whatever answered did not give a usable answer, which says nothing
 * about any record.
 */
final class Answers {
  private Answers() {}

  static JsonNode requireArray(JsonNode answer, String request) {
    if (!answer.isArray()) {
      throw malformed(request, "a JSON array");
    }
    return answer;
  }

  static int requireInt(JsonNode answer, String field, String request) {
    JsonNode value = answer.get(field);
    if (value == null || !value.isIntegralNumber() || !value.canConvertToInt()) {
      throw malformed(request, field);
    }
    return value.intValue();
  }

  static String requireText(JsonNode answer, String field, String request) {
    JsonNode value = answer.get(field);
    if (value == null || !value.isTextual()) {
      throw malformed(request, field);
    }
    return value.textValue();
  }

  static RegistryUnavailableException malformed(String request, String expected) {
    // Not a verdict on any record: the registry (or whatever answered) did not give a usable
    // answer.
    return new RegistryUnavailableException(
        200, request + ": answer lacks " + expected + "; is the URL a schema registry?", null);
  }
}
