package io.sluice.lake.offsets;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;

/**
 * The Kafka offsets an Iceberg commit covers, as stored in its snapshot summary (a wire format
 * Sluice owns, version {@value #VERSION}).
 *
 * <p>Summary entries: {@code sluice.offsets.<connector>} = a JSON object {@code
 * {"<topic>-<partition>": <next offset>, ...}} with the partitions of that commit only, and {@code
 * sluice.offsets-version} = {@code 1}. The offset of a partition is the one in the newest snapshot
 * of the table's ancestry that names the partition ({@link IcebergOffsets}).
 */
public final class SnapshotOffsets {
  /** Prefix of the per-connector summary key. */
  public static final String KEY_PREFIX = "sluice.offsets.";

  /** Summary key of the format version; no connector key can collide with it. */
  public static final String VERSION_KEY = "sluice.offsets-version";

  public static final int VERSION = 1;

  private static final ObjectMapper JSON = new ObjectMapper();

  private SnapshotOffsets() {}

  /** {@code sluice.offsets.<connector>}. */
  public static String key(String connector) {
    return KEY_PREFIX + connector;
  }

  /**
   * The connectors that recorded offsets in {@code summary} (none for a snapshot of another
   * writer).
   */
  public static Set<String> connectors(Map<String, String> summary) {
    Set<String> connectors = new TreeSet<>();
    if (summary != null) {
      summary.keySet().stream()
          .filter(k -> k.startsWith(KEY_PREFIX))
          .forEach(k -> connectors.add(k.substring(KEY_PREFIX.length())));
    }
    return connectors;
  }

  /** The summary entries recording {@code offsets} (next offset to read, per partition). */
  public static Map<String, String> toSummary(String connector, Map<TopicPartition, Long> offsets) {
    Map<String, String> summary = new LinkedHashMap<>();
    summary.put(key(connector), encode(offsets));
    summary.put(VERSION_KEY, String.valueOf(VERSION));
    return summary;
  }

  /**
   * The offsets {@code connector} recorded in a snapshot summary, empty when it recorded none.
   *
   * @throws IllegalStateException when the entry has an unknown version or is not valid JSON
   */
  public static Optional<Map<TopicPartition, Long>> fromSummary(
      Map<String, String> summary, String connector) {
    if (summary == null) {
      return Optional.empty();
    }
    String json = summary.get(key(connector));
    if (json == null) {
      return Optional.empty();
    }
    String version = summary.get(VERSION_KEY);
    if (!String.valueOf(VERSION).equals(version)) {
      throw new IllegalStateException(
          "snapshot summary "
              + key(connector)
              + " has offsets format version "
              + version
              + "; this Sluice reads version "
              + VERSION);
    }
    return Optional.of(decode(json));
  }

  /** {@code {"<topic>-<partition>": offset}}, sorted by topic then partition. */
  public static String encode(Map<TopicPartition, Long> offsets) {
    ObjectNode node = JSON.createObjectNode();
    offsets.entrySet().stream()
        .sorted(
            Map.Entry.comparingByKey(
                Comparator.comparing(TopicPartition::topic)
                    .thenComparingInt(TopicPartition::partition)))
        .forEach(e -> node.put(e.getKey().topic() + "-" + e.getKey().partition(), e.getValue()));
    return node.toString();
  }

  /**
   * Parses {@link #encode}'s output.
   *
   * @throws IllegalStateException naming the bad entry
   */
  public static Map<TopicPartition, Long> decode(String json) {
    JsonNode node;
    try {
      node = JSON.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("offsets in snapshot summary are not JSON", e);
    }
    if (node == null || !node.isObject()) {
      throw new IllegalStateException("offsets in snapshot summary are not a JSON object");
    }
    Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
    var fields = node.fields();
    while (fields.hasNext()) {
      var field = fields.next();
      String name = field.getKey();
      int dash = name.lastIndexOf('-');
      if (dash <= 0
          || !field.getValue().canConvertToLong()
          || !field.getValue().isIntegralNumber()) {
        throw new IllegalStateException("bad offsets entry '" + name + "' in snapshot summary");
      }
      int partition;
      try {
        partition = Integer.parseInt(name.substring(dash + 1));
      } catch (NumberFormatException e) {
        throw new IllegalStateException("bad partition in offsets entry '" + name + "'", e);
      }
      offsets.put(
          new TopicPartition(name.substring(0, dash), partition), field.getValue().asLong());
    }
    return offsets;
  }
}
