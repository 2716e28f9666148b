package io.sluice.connect.upsert.maintenance;

import static io.sluice.connect.upsert.maintenance.Fakes.snapshot;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.lake.offsets.SnapshotOffsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.Snapshot;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Which snapshots may expire ({@link SnapshotExpiry#expirable}); ancestries are newest first. */
class MaintenanceExpiryTest {
  private static final TopicPartition P0 = new TopicPartition("t", 0);
  private static final TopicPartition P1 = new TopicPartition("t", 1);
  private static final long NOW = 1_000_000;

  /** An offsets cutoff no snapshot is older than. */
  private static final long NO_HORIZON = Long.MIN_VALUE;

  @Test
  void beyondTheLastNAndOlderThanTheAgeTheyExpire() {
    List<Snapshot> ancestry = ancestry(10, 5, Map.of(P0, 1L, P1, 1L));
    assertThat(ids(SnapshotExpiry.expirable(ancestry, 3, NOW, NO_HORIZON)))
        .containsExactly(3L, 4L, 5L, 6L, 7L, 8L, 9L);
    assertThat(SnapshotExpiry.expirable(ancestry, 10, NOW, NO_HORIZON)).isEmpty();
  }

  @Test
  void theOldestSnapshotThatIsSomePartitionsNewestIsKeptWithEveryNewerOne() {
    List<Snapshot> ancestry = ancestry(10, 5, Map.of(P0, 1L));
    // Partition 1 was last committed (by another task) in snapshot 6.
    ancestry.set(6, snapshot(6, NOW - 6, SnapshotOffsets.toSummary("s", Map.of(P1, 4L))));
    assertThat(ids(SnapshotExpiry.expirable(ancestry, 2, NOW, NO_HORIZON)))
        .containsExactly(7L, 8L, 9L);
  }

  @Test
  void aPartitionNobodyRecordedWithinTheHorizonNoLongerKeepsSnapshots() {
    // Snapshot i was committed (i + 1) seconds ago; all name s's P0, and snapshot 6 is the last
    // that another connector name (the connector before its rename) recorded P1 in.
    List<Snapshot> ancestry = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ancestry.add(
          snapshot(i, NOW - 1_000 * (i + 1), SnapshotOffsets.toSummary("s", Map.of(P0, 10L - i))));
    }
    ancestry.set(6, snapshot(6, NOW - 7_000, SnapshotOffsets.toSummary("old", Map.of(P1, 4L))));

    assertThat(ids(SnapshotExpiry.expirable(ancestry, 2, NOW, NOW - 7_500)))
        .as("within the horizon")
        .containsExactly(7L, 8L, 9L);
    assertThat(ids(SnapshotExpiry.expirable(ancestry, 2, NOW, NOW - 6_500)))
        .as("past the horizon")
        .containsExactly(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    assertThat(ids(SnapshotExpiry.expirable(ancestry, 2, NOW, NOW)))
        .as("every entry past the horizon: the last ones kept all the same")
        .containsExactly(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
  }

  @Test
  void theConnectorsOwnSubscribedPartitionsKeepTheirSnapshotsPastTheHorizon() {
    // After an outage longer than the horizon, task 0 (P0) committed again and its maintenance
    // runs before task 1 recorded P1 again: P1's newest snapshot (6) must stay. P2's topic left
    // the subscription; its entry goes with the horizon.
    TopicPartition p2 = new TopicPartition("retired", 0);
    List<Snapshot> ancestry = new ArrayList<>();
    ancestry.add(snapshot(0, NOW, SnapshotOffsets.toSummary("s", Map.of(P0, 20L))));
    for (int i = 1; i < 10; i++) {
      ancestry.add(
          snapshot(i, NOW - 9_000_000 - i, SnapshotOffsets.toSummary("s", Map.of(P0, 10L - i))));
    }
    ancestry.set(
        6, snapshot(6, NOW - 9_000_006, SnapshotOffsets.toSummary("s", Map.of(P1, 4L, P0, 4L))));
    ancestry.set(
        8, snapshot(8, NOW - 9_000_008, SnapshotOffsets.toSummary("s", Map.of(p2, 7L, P0, 2L))));
    long horizon = NOW - 1_000_000;

    assertThat(ids(SnapshotExpiry.expirable(ancestry, 2, NOW, horizon)))
        .as("no entry kept past the horizon")
        .containsExactly(2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L);
    assertThat(
            ids(
                SnapshotExpiry.expirable(
                    ancestry, 2, NOW, horizon, (c, tp) -> c.equals("s") && tp.topic().equals("t"))))
        .as("the connector's own partitions of the topic it subscribes to kept")
        .containsExactly(7L, 8L, 9L);
  }

  @Test
  void snapshotsWithoutOffsetsNeedNothingBelowThem() {
    List<Snapshot> ancestry = new ArrayList<>();
    ancestry.add(snapshot(0, NOW - 1, Map.of("operation", "replace")));
    ancestry.add(snapshot(1, NOW - 2, SnapshotOffsets.toSummary("s", Map.of(P0, 9L))));
    for (int i = 2; i < 6; i++) {
      ancestry.add(snapshot(i, NOW - 1 - i, SnapshotOffsets.toSummary("s", Map.of(P0, 9L - i))));
    }
    assertThat(ids(SnapshotExpiry.expirable(ancestry, 1, NOW, NO_HORIZON)))
        .containsExactly(2L, 3L, 4L, 5L);
  }

  @Test
  void onlyASuffixOlderThanTheAgeExpiresEvenWhenClocksDisagree() {
    List<Snapshot> ancestry = ancestry(10, 1_000, Map.of(P0, 1L));
    // Snapshot 7's writer's clock runs ahead: it looks young, so it and everything newer stay.
    ancestry.set(7, snapshot(7, NOW + 60_000, SnapshotOffsets.toSummary("s", Map.of(P0, 1L))));
    assertThat(ids(SnapshotExpiry.expirable(ancestry, 1, NOW - 100, NO_HORIZON)))
        .containsExactly(8L, 9L);
  }

  /** {@code count} snapshots, ids 0 (newest) up, each naming {@code offsets}, a ms apart. */
  private static List<Snapshot> ancestry(
      int count, long ageOfNewest, Map<TopicPartition, Long> offsets) {
    List<Snapshot> ancestry = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      ancestry.add(snapshot(i, NOW - ageOfNewest - i - 1, SnapshotOffsets.toSummary("s", offsets)));
    }
    return ancestry;
  }

  private static List<Long> ids(List<Snapshot> snapshots) {
    return snapshots.stream().map(Snapshot::snapshotId).toList();
  }
}
