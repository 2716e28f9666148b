package io.sluice.tools.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

class ConsumerLagTest {
  private static final String CLEAN = "broker.cdc_lab.orders.clean";
  private static final TopicPartition P0 = new TopicPartition(CLEAN, 0);
  private static final TopicPartition P1 = new TopicPartition(CLEAN, 1);
  private static final TopicPartition P2 = new TopicPartition(CLEAN, 2);

  private final List<String> counted = new ArrayList<>();

  @Test
  void lagIsSummedOverATopicsPartitionsPerGroup() {
    Map<String, Map<TopicPartition, OffsetAndMetadata>> committed =
        Map.of(
            "sink",
            Map.of(P0, at(10), P1, at(0), P2, at(1000)),
            "router",
            Map.of(new TopicPartition("broker.cdc_lab.orders", 0), at(5)));
    Map<TopicPartition, Long> ends =
        Map.of(P0, 10L, P1, 2_000L, P2, 1000L, new TopicPartition("broker.cdc_lab.orders", 0), 5L);

    Map<GroupTopic, Long> lag = ConsumerLag.sum(committed, ends, this::noRecordsButCount);

    assertThat(lag)
        .containsExactly(
            Map.entry(new GroupTopic("router", "broker.cdc_lab.orders"), 0L),
            Map.entry(new GroupTopic("sink", CLEAN), 2_000L));
    assertThat(counted).as("gaps wider than COUNTED_GAP are offset differences").isEmpty();
  }

  @Test
  void aNarrowGapIsCountedSoATrailingCommitMarkerIsNoLag() {
    Map<String, Map<TopicPartition, OffsetAndMetadata>> committed =
        Map.of("connect-sluice-upsert-sink", Map.of(P0, at(41), P1, at(7)));
    Map<TopicPartition, Long> ends = Map.of(P0, 42L, P1, 12L);

    Map<GroupTopic, Long> lag =
        ConsumerLag.sum(
            committed, ends, (partition, from, to) -> partition.equals(P0) ? 0 : to - from - 2);

    assertThat(lag)
        .containsExactly(Map.entry(new GroupTopic("connect-sluice-upsert-sink", CLEAN), 3L));
  }

  @Test
  void aPartitionWithoutAnEndOrACommittedOffsetIsLeftOutAndAnOffsetPastTheEndIsNoLag() {
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    offsets.put(P0, null);
    offsets.put(P1, at(30));
    offsets.put(P2, at(9));
    Map<TopicPartition, Long> ends = Map.of(P0, 50L, P1, 20L);

    Map<GroupTopic, Long> lag =
        ConsumerLag.sum(Map.of("g", offsets), ends, this::noRecordsButCount);

    assertThat(lag).containsExactly(Map.entry(new GroupTopic("g", CLEAN), 0L));
    assertThat(counted).isEmpty();
  }

  private long noRecordsButCount(TopicPartition partition, long from, long to) {
    counted.add(partition + " " + from + ".." + to);
    return 0;
  }

  private static OffsetAndMetadata at(long offset) {
    return new OffsetAndMetadata(offset);
  }
}
