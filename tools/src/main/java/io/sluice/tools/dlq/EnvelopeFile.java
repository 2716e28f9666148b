package io.sluice.tools.dlq;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.contract.TopicNames;
import io.sluice.tools.dlq.record.DlqEntry;
import io.sluice.tools.dlq.record.DlqRecords;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;

/**
 * A DLQ envelope v1 exported to a JSON file ({@code repair --from-file}) and the DLQ topic it
 * belongs to: the one the records of its {@code original_topic} are quarantined to, by the router's
 * {@link TopicNames}. Acting on that topic's ledger makes a repair from a file and one by id of the
 * same input skip each other, and needs no {@code --dlq-topic}.
 */
record EnvelopeFile(Path path, DlqEntry entry) {
  private static final String ORIGINAL_TOPIC = "original_topic";
  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Reads and parses {@code path}.
   *
   * @throws UncheckedIOException when the file cannot be read
   * @throws IllegalArgumentException naming the file when it is no envelope v1, or has no {@code
   *     original_topic} (saying what to add)
   */
  static EnvelopeFile read(Path path) {
    String json;
    try {
      json = Files.readString(path, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read envelope file " + path.toAbsolutePath(), e);
    }
    checkOriginalTopic(path, json);
    try {
      return new EnvelopeFile(path, DlqRecords.fromFile(json));
    } catch (IllegalArgumentException | DateTimeException e) {
      throw new IllegalArgumentException(
          "envelope file " + path.toAbsolutePath() + " is not a DLQ envelope v1: " + e.getMessage(),
          e);
    }
  }

  /** The topic the quarantined record was read from (and a repair produces to). */
  String originalTopic() {
    return entry.envelope().originalTopic();
  }

  /**
   * The DLQ topic of the original topic's records: {@code <original><dlq suffix>}, or for a clean
   * topic (an envelope of the upsert sink) its input's DLQ topic.
   */
  String dlqTopic(TopicNames names) {
    return names.dlqTopicOfRecordsIn(originalTopic());
  }

  /**
   * The envelope parser takes a JSON null for the text "null"; a repair would then derive DLQ topic
   * {@code null.dlq} and fail later, naming neither the file nor the field.
   */
  private static void checkOriginalTopic(Path path, String json) {
    JsonNode root;
    try {
      root = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      return; // DlqRecords.fromFile says it is not JSON
    }
    if (root == null || !root.isObject()) {
      return;
    }
    JsonNode topic = root.get(ORIGINAL_TOPIC);
    if (topic == null || !topic.isTextual() || topic.asText().isBlank()) {
      throw new IllegalArgumentException(
          "envelope file "
              + path.toAbsolutePath()
              + " has no "
              + ORIGINAL_TOPIC
              + (topic == null ? "" : " (it is " + topic + ")")
              + ": a repair produces to that topic and takes the DLQ topic and its ledger from it;"
              + " add \""
              + ORIGINAL_TOPIC
              + "\": \"<prefix>.<db>.<table>\", the topic the record was read from, to the file"
              + " (--dlq-topic names the ledger only, not where the repair goes)");
    }
  }
}
