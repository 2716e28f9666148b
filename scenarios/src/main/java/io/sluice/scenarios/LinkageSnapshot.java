package io.sluice.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * A report's {@code *_offset_checkpoint_snapshot_linkage} object: where each stage of the pipeline
 * was at one moment ({@link Linkage} takes it). The top-level {@code consumer_group}, {@code topic}
 * and {@code kafka_offsets} are the router's stage, as the reference report had them.
 *
 * @param stages per stage name (router, upsert_sink, changelog_sink), in pipeline order
 * @param icebergSnapshotIds per table, its current snapshot id (null before its first commit)
 * @param icebergSnapshotOffsets per table, the Kafka offsets its snapshot summaries record, by
 *     summary key (parsed JSON where the value is JSON)
 * @param capturePosition the capture's {@code /offsets} answer, or {"error": ...}
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record LinkageSnapshot(
    String capturedAt,
    String consumerGroup,
    String topic,
    List<PartitionOffsets> kafkaOffsets,
    Map<String, StageOffsets> stages,
    String offsetsNote,
    RouterCommit routerCommit,
    Map<String, Long> icebergSnapshotIds,
    Map<String, Map<String, JsonNode>> icebergSnapshotOffsets,
    JsonNode capturePosition) {

  /** One input partition of a stage: the group's committed offset against the log end. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record PartitionOffsets(int partition, Long currentOffset, long logEndOffset, long lag) {}

  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record StageOffsets(
      String consumerGroup, String topic, List<PartitionOffsets> kafkaOffsets) {}

  /**
   * The router's committed offsets as its commit, where the reference report had a Flink
   * checkpoint; their sum only grows, so it serves as a commit id.
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  public record RouterCommit(
      String consumerGroup,
      Map<String, Long> committedOffsets,
      long commitId,
      String commitIdDefinition) {}
}
