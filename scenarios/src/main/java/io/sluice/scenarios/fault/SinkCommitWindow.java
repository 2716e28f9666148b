package io.sluice.scenarios.fault;

import io.sluice.lake.offsets.SnapshotOffsets;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.stack.StackLayout;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.kafka.common.TopicPartition;

/**
 * sink-crash's aim: the moment right after the upsert sink committed to Iceberg, and whether a kill
 * then fell before Connect committed the same offsets to Kafka.
 */
final class SinkCommitWindow {
  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration SNAPSHOT_POLL = Duration.ofMillis(20);
  private static final String UPSERT_GROUP = "connect-" + StackLayout.DEFAULT.upsertSink();

  private final ScenarioStack stack;

  SinkCommitWindow(ScenarioStack stack) {
    this.stack = stack;
  }

  /** Waits for the upsert sink's next commit to the orders table, and returns its snapshot. */
  Snapshot awaitNewSnapshot() {
    Snapshot first = stack.currentSnapshot(ScenarioStack.CURRENT_TABLE);
    long firstId = first == null ? -1 : first.snapshotId();
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Snapshot now = stack.currentSnapshot(ScenarioStack.CURRENT_TABLE);
      if (now != null && now.snapshotId() != firstId) {
        return now;
      }
      FaultSteps.pause(SNAPSHOT_POLL);
    }
    throw new ScenarioFailure(
        "no new snapshot of "
            + ScenarioStack.CURRENT_TABLE
            + " within "
            + STEP_TIMEOUT.toSeconds()
            + " s");
  }

  /**
   * True when {@code snapshot} records an offset of a partition beyond the one the sink's group has
   * committed in Kafka: the worker died between the two commits.
   */
  boolean beyondConnectCommit(Snapshot snapshot) {
    Map<TopicPartition, Long> inSnapshot =
        SnapshotOffsets.fromSummary(snapshot.summary(), StackLayout.DEFAULT.upsertSink())
            .orElse(Map.of());
    Map<TopicPartition, Long> committed = new HashMap<>();
    inSnapshot.keySet().stream()
        .map(TopicPartition::topic)
        .distinct()
        .forEach(topic -> committed.putAll(stack.committed(UPSERT_GROUP, topic)));
    return inSnapshot.entrySet().stream()
        .anyMatch(e -> e.getValue() > committed.getOrDefault(e.getKey(), -1L));
  }
}
