package io.sluice.lake.offsets;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Proxy;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class IcebergOffsetsTest {
  private static final TopicPartition P0 = new TopicPartition("t", 0);
  private static final TopicPartition P1 = new TopicPartition("t", 1);

  @Test
  void newestSnapshotNamingAPartitionWins() {
    List<Snapshot> newestFirst =
        List.of(
            snapshot(Map.of("other", "x")),
            snapshot(SnapshotOffsets.toSummary("s", Map.of(P0, 30L))),
            snapshot(SnapshotOffsets.toSummary("other-connector", Map.of(P1, 99L))),
            snapshot(SnapshotOffsets.toSummary("s", Map.of(P0, 20L, P1, 15L))),
            snapshot(SnapshotOffsets.toSummary("s", Map.of(P1, 5L))));
    assertThat(IcebergOffsets.find(newestFirst, "s", null)).isEqualTo(Map.of(P0, 30L, P1, 15L));
    assertThat(IcebergOffsets.find(newestFirst, "s", Set.of(P1))).isEqualTo(Map.of(P1, 15L));
    assertThat(IcebergOffsets.find(newestFirst, "s", Set.of(new TopicPartition("t", 7)))).isEmpty();
    assertThat(IcebergOffsets.find(List.of(), "s", null)).isEmpty();
  }

  @Test
  void snapshotsWithoutOffsetsAreWalkedPast() {
    // A rewrite, manifest rewrite or expiry in between records no offsets.
    List<Snapshot> newestFirst =
        List.of(
            snapshot(Map.of("operation", "replace")),
            snapshot(SnapshotOffsets.toSummary("s", Map.of(P0, 8L))),
            snapshot(Map.of()),
            snapshot(null),
            snapshot(SnapshotOffsets.toSummary("s", Map.of(P1, 4L))));
    assertThat(IcebergOffsets.find(newestFirst, "s", Set.of(P0, P1)))
        .isEqualTo(Map.of(P0, 8L, P1, 4L));
  }

  @Test
  void oldestNeededIsTheOldestSnapshotThatIsSomePartitionsNewest() {
    List<Snapshot> newestFirst =
        List.of(
            snapshot(SnapshotOffsets.toSummary("s", Map.of(P0, 30L))),
            snapshot(Map.of("operation", "replace")),
            snapshot(SnapshotOffsets.toSummary("other", Map.of(P1, 99L))),
            snapshot(SnapshotOffsets.toSummary("s", Map.of(P0, 20L, P1, 15L))),
            snapshot(SnapshotOffsets.toSummary("s", Map.of(P1, 5L))),
            snapshot(Map.of()));
    // s/P1 is last named at index 3; index 4 only repeats older offsets.
    assertThat(IcebergOffsets.oldestNeeded(newestFirst)).isEqualTo(3);
    assertThat(IcebergOffsets.oldestNeeded(newestFirst.subList(0, 3))).isEqualTo(2);
    assertThat(IcebergOffsets.oldestNeeded(List.of(snapshot(Map.of())))).isEqualTo(-1);
  }

  @Test
  void anEntryWhoseNewestSnapshotIsOlderThanTheHorizonNoLongerCounts() {
    // Snapshot i was committed at 1,000 - 100 i; "old" (a renamed connector) last wrote at 500.
    List<Snapshot> newestFirst =
        List.of(
            snapshot(10, 1_000, SnapshotOffsets.toSummary("s", Map.of(P0, 30L, P1, 9L))),
            snapshot(11, 900, SnapshotOffsets.toSummary("s", Map.of(P0, 20L, P1, 8L))),
            snapshot(12, 800, Map.of("operation", "replace")),
            snapshot(13, 700, SnapshotOffsets.toSummary("s", Map.of(P0, 10L))),
            snapshot(14, 600, SnapshotOffsets.toSummary("s", Map.of(P1, 5L))),
            snapshot(15, 500, SnapshotOffsets.toSummary("old", Map.of(P0, 7L, P1, 3L))),
            snapshot(16, 400, SnapshotOffsets.toSummary("old", Map.of(P0, 6L))));

    assertThat(IcebergOffsets.oldestNeeded(newestFirst)).isEqualTo(5);
    assertThat(IcebergOffsets.oldestNeeded(newestFirst, 500)).as("at the horizon").isEqualTo(5);
    assertThat(IcebergOffsets.retired(newestFirst, 500)).isEmpty();
    assertThat(IcebergOffsets.oldestNeeded(newestFirst, 501)).isEqualTo(0);
    assertThat(IcebergOffsets.retired(newestFirst, 501))
        .containsExactlyInAnyOrder(
            new IcebergOffsets.Retired("old", P0, 15, 500),
            new IcebergOffsets.Retired("old", P1, 15, 500));
    // Only the newest snapshot naming an entry dates it: s's older mentions do not retire it.
    assertThat(IcebergOffsets.oldestNeeded(newestFirst, 950)).isEqualTo(0);
    assertThat(IcebergOffsets.retired(newestFirst, 950)).hasSize(2);
    assertThat(IcebergOffsets.oldestNeeded(newestFirst, 1_001)).isEqualTo(-1);
    assertThat(IcebergOffsets.retired(newestFirst, 1_001))
        .extracting(IcebergOffsets.Retired::connector)
        .containsExactly("s", "s", "old", "old");
  }

  @Test
  void anUnreadableSnapshotCountsUntilItIsOlderThanTheHorizon() {
    List<Snapshot> newestFirst =
        List.of(
            snapshot(1, 1_000, SnapshotOffsets.toSummary("s", Map.of(P0, 30L))),
            snapshot(2, 500, Map.of("sluice.offsets.s", "{}", "sluice.offsets-version", "9")));
    assertThat(IcebergOffsets.oldestNeeded(newestFirst, 500)).isEqualTo(1);
    assertThat(IcebergOffsets.oldestNeeded(newestFirst, 501)).isEqualTo(0);
    assertThat(IcebergOffsets.retired(newestFirst, 501)).as("no partition to name").isEmpty();
  }

  @Test
  void aSnapshotWhoseOffsetsCannotBeReadCountsAsNeeded() {
    List<Snapshot> newestFirst =
        List.of(
            snapshot(SnapshotOffsets.toSummary("s", Map.of(P0, 30L, P1, 3L))),
            snapshot(Map.of("sluice.offsets.s", "{}", "sluice.offsets-version", "9")));
    assertThat(IcebergOffsets.oldestNeeded(newestFirst)).isEqualTo(1);
  }

  private static Snapshot snapshot(Map<String, String> summary) {
    return snapshot(0, 0, summary);
  }

  private static Snapshot snapshot(long id, long timestampMillis, Map<String, String> summary) {
    return (Snapshot)
        Proxy.newProxyInstance(
            Snapshot.class.getClassLoader(),
            new Class<?>[] {Snapshot.class},
            (proxy, method, args) ->
                switch (method.getName()) {
                  case "summary" -> summary;
                  case "snapshotId" -> id;
                  case "timestampMillis" -> timestampMillis;
                  default -> throw new UnsupportedOperationException(method.getName());
                });
  }
}
