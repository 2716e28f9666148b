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

  private static Snapshot snapshot(Map<String, String> summary) {
    return (Snapshot)
        Proxy.newProxyInstance(
            Snapshot.class.getClassLoader(),
            new Class<?>[] {Snapshot.class},
            (proxy, method, args) -> {
              if (method.getName().equals("summary")) {
                return summary;
              }
              throw new UnsupportedOperationException(method.getName());
            });
  }
}
