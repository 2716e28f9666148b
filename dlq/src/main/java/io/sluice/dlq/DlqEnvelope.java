package io.sluice.dlq;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;

/**
 * DLQ envelope v1: the JSON value of a DLQ record (docs/design.md#dlq-envelope-v1). This class owns
 * the wire format; readers ignore fields they do not know. Byte fields are kept in their base64
 * form, as on the wire.
 *
 * @param dlqSchemaVersion always {@link #VERSION} when written by this class
 * @param quarantinedAt when the router judged the record, in microseconds precision
 * @param originalKeyBase64 null when the record had no key
 * @param originalValueBase64 null for a null value
 * @param errorType the exception class name describing the failure
 * @param errorCode the validation stage code ({@code ErrorCode} name)
 * @param schemaId the value's schema id when its header parsed, else null
 * @param keySchemaId the key's schema id when its header parsed, else null
 * @param originalHeaders the original record's headers, in order
 * @param originalValueSha256 lower-case hex sha256 of the original value bytes (null for null)
 * @param routerApplicationId the router's application id; for a sink, null
 * @param sinkConnector the Connect connector that quarantined the record; null when the router did
 * @param sinkTask the index of that connector's task; null when the router did
 * @param sinkTable the table the sink did not write the record to (the other sinks of the same
 *     input, such as the changelog sink, read it on their own and may hold it); null when the
 *     router quarantined it or the table is not known
 */
public record DlqEnvelope(
    int dlqSchemaVersion,
    Instant quarantinedAt,
    String originalTopic,
    int originalPartition,
    long originalOffset,
    long originalTimestampMs,
    String originalKeyBase64,
    String originalValueBase64,
    String errorType,
    String errorMessage,
    String errorCode,
    Integer schemaId,
    Integer keySchemaId,
    List<HeaderEntry> originalHeaders,
    String originalValueSha256,
    String routerApplicationId,
    String sinkConnector,
    Integer sinkTask,
    String sinkTable) {

  public static final int VERSION = 1;

  private static final DateTimeFormatter MICROS =
      DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSS'Z'").withZone(ZoneOffset.UTC);
  private static final JsonFactory JSON = new JsonFactory();
  private static final ObjectMapper READER = new ObjectMapper();

  /** One original header; {@code valueBase64} is null for a header with a null value. */
  public record HeaderEntry(String key, String valueBase64) {
    public byte[] value() {
      return valueBase64 == null ? null : Base64.getDecoder().decode(valueBase64);
    }
  }

  public DlqEnvelope {
    quarantinedAt = quarantinedAt.truncatedTo(ChronoUnit.MICROS);
    originalHeaders = List.copyOf(originalHeaders);
  }

  /** An envelope the router wrote: no sink fields. */
  public DlqEnvelope(
      int dlqSchemaVersion,
      Instant quarantinedAt,
      String originalTopic,
      int originalPartition,
      long originalOffset,
      long originalTimestampMs,
      String originalKeyBase64,
      String originalValueBase64,
      String errorType,
      String errorMessage,
      String errorCode,
      Integer schemaId,
      Integer keySchemaId,
      List<HeaderEntry> originalHeaders,
      String originalValueSha256,
      String routerApplicationId) {
    this(
        dlqSchemaVersion,
        quarantinedAt,
        originalTopic,
        originalPartition,
        originalOffset,
        originalTimestampMs,
        originalKeyBase64,
        originalValueBase64,
        errorType,
        errorMessage,
        errorCode,
        schemaId,
        keySchemaId,
        originalHeaders,
        originalValueSha256,
        routerApplicationId,
        null,
        null,
        null);
  }

  /** Whether a sink (not the router) quarantined the record. */
  public boolean quarantinedBySink() {
    return sinkConnector != null;
  }

  /** The original key bytes, or null. */
  public byte[] originalKey() {
    return originalKeyBase64 == null ? null : Base64.getDecoder().decode(originalKeyBase64);
  }

  /** The original value bytes, or null. */
  public byte[] originalValue() {
    return originalValueBase64 == null ? null : Base64.getDecoder().decode(originalValueBase64);
  }

  /**
   * The envelope as one JSON object in UTF-8, fields in the order of
   * docs/design.md#dlq-envelope-v1.
   */
  public byte[] toJsonBytes() {
    ByteArrayOutputStream out = new ByteArrayOutputStream(256 + lengthOf(originalValueBase64));
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      g.writeNumberField("dlq_schema_version", dlqSchemaVersion);
      g.writeStringField("quarantined_at", MICROS.format(quarantinedAt));
      g.writeStringField("original_topic", originalTopic);
      g.writeNumberField("original_partition", originalPartition);
      g.writeNumberField("original_offset", originalOffset);
      g.writeNumberField("original_timestamp_ms", originalTimestampMs);
      g.writeStringField("original_key_base64", originalKeyBase64);
      g.writeStringField("original_value_base64", originalValueBase64);
      g.writeStringField("error_type", errorType);
      g.writeStringField("error_message", errorMessage);
      g.writeStringField("error_code", errorCode);
      writeNullableInt(g, "schema_id", schemaId);
      writeNullableInt(g, "key_schema_id", keySchemaId);
      g.writeArrayFieldStart("original_headers");
      for (HeaderEntry header : originalHeaders) {
        g.writeStartObject();
        g.writeStringField("key", header.key());
        g.writeStringField("value_base64", header.valueBase64());
        g.writeEndObject();
      }
      g.writeEndArray();
      g.writeStringField("original_value_sha256", originalValueSha256);
      g.writeStringField("router_application_id", routerApplicationId);
      // Optional fields added within version 1: written only when set, so router envelopes stay
      // byte for byte what they were.
      if (sinkConnector != null) {
        g.writeStringField("sink_connector", sinkConnector);
      }
      if (sinkTask != null) {
        g.writeNumberField("sink_task", sinkTask);
      }
      if (sinkTable != null) {
        g.writeStringField("sink_table", sinkTable);
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot write DLQ envelope", e);
    }
    return out.toByteArray();
  }

  /** The envelope as a JSON string. */
  public String toJson() {
    return new String(toJsonBytes(), StandardCharsets.UTF_8);
  }

  /**
   * Parses an envelope. Unknown fields are ignored; optional fields may be missing.
   *
   * @throws IllegalArgumentException when the text is not a JSON object, a required field is
   *     missing, or the version is not {@link #VERSION}
   */
  public static DlqEnvelope fromJson(String json) {
    JsonNode root;
    try {
      root = READER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException("DLQ envelope is not JSON: " + e.getOriginalMessage(), e);
    }
    if (root == null || !root.isObject()) {
      throw new IllegalArgumentException("DLQ envelope is not a JSON object");
    }
    int version = required(root, "dlq_schema_version").asInt();
    if (version != VERSION) {
      throw new IllegalArgumentException(
          "DLQ envelope version " + version + " is not supported (expected " + VERSION + ")");
    }
    List<HeaderEntry> headers = new ArrayList<>();
    for (JsonNode header : root.path("original_headers")) {
      headers.add(new HeaderEntry(header.path("key").asText(), text(header, "value_base64")));
    }
    return new DlqEnvelope(
        version,
        Instant.parse(required(root, "quarantined_at").asText()),
        required(root, "original_topic").asText(),
        required(root, "original_partition").asInt(),
        required(root, "original_offset").asLong(),
        required(root, "original_timestamp_ms").asLong(),
        text(required(root, "original_key_base64")),
        text(required(root, "original_value_base64")),
        required(root, "error_type").asText(),
        required(root, "error_message").asText(),
        text(root, "error_code"),
        integer(root, "schema_id"),
        integer(root, "key_schema_id"),
        headers,
        text(root, "original_value_sha256"),
        text(root, "router_application_id"),
        text(root, "sink_connector"),
        integer(root, "sink_task"),
        text(root, "sink_table"));
  }

  /** Parses an envelope from UTF-8 bytes. */
  public static DlqEnvelope fromJson(byte[] json) {
    return fromJson(new String(json, StandardCharsets.UTF_8));
  }

  private static JsonNode required(JsonNode root, String field) {
    JsonNode node = root.get(field);
    if (node == null) {
      throw new IllegalArgumentException("DLQ envelope has no field '" + field + "'");
    }
    return node;
  }

  private static String text(JsonNode node) {
    return node == null || node.isNull() ? null : node.asText();
  }

  private static String text(JsonNode root, String field) {
    return text(root.get(field));
  }

  private static Integer integer(JsonNode root, String field) {
    JsonNode node = root.get(field);
    return node == null || node.isNull() ? null : node.asInt();
  }

  private static void writeNullableInt(JsonGenerator g, String field, Integer value)
      throws IOException {
    if (value == null) {
      g.writeNullField(field);
    } else {
      g.writeNumberField(field, value);
    }
  }

  private static int lengthOf(String s) {
    return s == null ? 0 : s.length();
  }
}
