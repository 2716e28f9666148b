package io.sluice.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import io.sluice.lake.LakeCatalog;
import io.sluice.lake.offsets.IcebergOffsets;
import java.io.IOException;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicPartition;

/**
 * Takes the report's {@code *_offset_checkpoint_snapshot_linkage} objects ({@link
 * LinkageSnapshot}): where each stage of the pipeline is at one moment. Per stage (router, upsert
 * sink, changelog sink) the consumer group's committed offsets against the last stable offsets of
 * its input topic; the router's committed offsets as its commit ({@code router_commit}, where the
 * reference report had a Flink checkpoint); the Iceberg snapshot ids of both tables with the Kafka
 * offsets their summaries record; and the capture's source position.
 */
final class Linkage {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String APACHE_OFFSETS_PREFIX = "kafka.connect.offsets.";

  /** A consumer of the pipeline: its name in the report, group and input topic. */
  record Stage(String name, String consumerGroup, String topic) {}

  private final Admin admin;
  private final LakeCatalog lake;
  private final CaptureAdmin capture;
  private final List<Stage> stages;
  private final String upsertConnector;
  private final List<String> tables;
  private final Clock clock;

  /**
   * @param stages the router first (its stage also fills the top-level keys), then the sinks
   * @param tables the Iceberg tables ({@code namespace.table}) whose snapshots are linked
   * @param clock what {@code captured_at} reads
   */
  Linkage(
      Admin admin,
      LakeCatalog lake,
      CaptureAdmin capture,
      List<Stage> stages,
      String upsertConnector,
      List<String> tables,
      Clock clock) {
    this.admin = admin;
    this.lake = lake;
    this.capture = capture;
    this.stages = List.copyOf(stages);
    this.upsertConnector = upsertConnector;
    this.tables = List.copyOf(tables);
    this.clock = clock;
  }

  /** The linkage as it is now. */
  LinkageSnapshot now() {
    Map<String, LinkageSnapshot.StageOffsets> perStage = new LinkedHashMap<>();
    for (Stage stage : stages) {
      perStage.put(
          stage.name(),
          new LinkageSnapshot.StageOffsets(
              stage.consumerGroup(), stage.topic(), kafkaOffsets(stage)));
    }
    Stage router = stages.get(0);
    String capturedAt = clock.instant().toString();
    Map<String, Long> snapshotIds = new LinkedHashMap<>();
    Map<String, Map<String, JsonNode>> snapshotOffsets = new LinkedHashMap<>();
    for (String qualified : tables) {
      Table table = lake.table(qualified);
      Snapshot current = table.currentSnapshot();
      snapshotIds.put(qualified, current == null ? null : current.snapshotId());
      snapshotOffsets.put(qualified, recordedOffsets(table, current));
    }
    return new LinkageSnapshot(
        capturedAt,
        router.consumerGroup(),
        router.topic(),
        perStage.get(router.name()).kafkaOffsets(),
        perStage,
        "log_end_offset is the last stable offset (read_committed); on a transactional topic"
            + " (the router writes the clean topic in transactions) a caught-up consumer shows lag 1"
            + " per partition: the commit marker, not a record",
        routerCommit(router),
        snapshotIds,
        snapshotOffsets,
        capturePosition());
  }

  /** The router's committed offsets and their sum, which only grows: a commit id. */
  static LinkageSnapshot.RouterCommit routerCommitOf(
      String group, Map<TopicPartition, Long> committed) {
    Map<String, Long> offsets = new TreeMap<>();
    committed.forEach((tp, offset) -> offsets.put(tp.topic() + "-" + tp.partition(), offset));
    return new LinkageSnapshot.RouterCommit(
        group,
        offsets,
        committed.values().stream().mapToLong(Long::longValue).sum(),
        "sum of the committed offsets of the router's input partitions");
  }

  /** The committed offsets of {@code group} on {@code topic}'s partitions (absent: none). */
  Map<TopicPartition, Long> committed(String group, String topic) {
    Map<TopicPartition, OffsetAndMetadata> all =
        get(admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(), group);
    Map<TopicPartition, Long> offsets = new HashMap<>();
    all.forEach(
        (tp, offset) -> {
          if (tp.topic().equals(topic) && offset != null) {
            offsets.put(tp, offset.offset());
          }
        });
    return offsets;
  }

  private LinkageSnapshot.RouterCommit routerCommit(Stage router) {
    return routerCommitOf(
        router.consumerGroup(), committed(router.consumerGroup(), router.topic()));
  }

  private List<LinkageSnapshot.PartitionOffsets> kafkaOffsets(Stage stage) {
    Map<TopicPartition, Long> committed = committed(stage.consumerGroup(), stage.topic());
    List<LinkageSnapshot.PartitionOffsets> rows = new ArrayList<>();
    endOffsets(stage.topic())
        .forEach(
            (partition, end) -> {
              Long current = committed.get(new TopicPartition(stage.topic(), partition));
              rows.add(
                  new LinkageSnapshot.PartitionOffsets(
                      partition, current, end, end - (current == null ? 0 : current)));
            });
    return rows;
  }

  /** The last stable offset of each partition of {@code topic}, by partition, in order. */
  Map<Integer, Long> endOffsets(String topic) {
    int partitions =
        get(admin.describeTopics(List.of(topic)).allTopicNames(), topic)
            .get(topic)
            .partitions()
            .size();
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (int p = 0; p < partitions; p++) {
      latest.put(new TopicPartition(topic, p), OffsetSpec.latest());
    }
    Map<TopicPartition, ListOffsetsResultInfo> ends =
        get(
            admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all(),
            topic);
    Map<Integer, Long> byPartition = new TreeMap<>();
    ends.forEach((tp, info) -> byPartition.put(tp.partition(), info.offset()));
    return byPartition;
  }

  private Map<String, JsonNode> recordedOffsets(Table table, Snapshot current) {
    Map<String, JsonNode> recorded = new LinkedHashMap<>();
    if (current == null) {
      return recorded;
    }
    Map<String, Long> upsert = new TreeMap<>();
    IcebergOffsets.all(table, upsertConnector)
        .forEach((tp, offset) -> upsert.put(tp.topic() + "-" + tp.partition(), offset));
    if (!upsert.isEmpty()) {
      recorded.put("sluice.offsets." + upsertConnector, JSON.valueToTree(upsert));
    }
    new TreeMap<>(current.summary())
        .forEach(
            (key, value) -> {
              if (key.startsWith(APACHE_OFFSETS_PREFIX)) {
                recorded.put(key, parsed(value));
              }
            });
    return recorded;
  }

  private JsonNode capturePosition() {
    try {
      return capture.offsets();
    } catch (ScenarioFailure e) {
      return JSON.createObjectNode().put("error", e.getMessage());
    }
  }

  private static JsonNode parsed(String value) {
    try {
      JsonNode node = JSON.readTree(value);
      return node == null ? TextNode.valueOf(value) : node;
    } catch (IOException e) {
      return TextNode.valueOf(value);
    }
  }

  private static <T> T get(KafkaFuture<T> future, String about) {
    try {
      return future.get();
    } catch (ExecutionException e) {
      throw new ScenarioFailure(
          "Kafka request about " + about + " failed: " + e.getCause().getMessage(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScenarioFailure("interrupted during a Kafka request about " + about, e);
    }
  }
}
