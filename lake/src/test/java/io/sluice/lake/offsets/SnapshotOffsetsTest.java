package io.sluice.lake.offsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The offsets-in-snapshot-summary wire format, version 1, against a fixed fixture. */
class SnapshotOffsetsTest {
  private static final Map<TopicPartition, Long> OFFSETS =
      Map.of(
          new TopicPartition("broker.cdc_lab.orders.clean", 2), 7L,
          new TopicPartition("my-topic-with-dashes", 10), 1_000_000_000_000L,
          new TopicPartition("broker.cdc_lab.orders.clean", 0), 42L);

  @Test
  void encodesTheFixtureExactlyAndDecodesItBack() throws IOException {
    String fixture = fixture();
    assertThat(SnapshotOffsets.encode(OFFSETS)).isEqualTo(fixture);
    assertThat(SnapshotOffsets.decode(fixture)).isEqualTo(OFFSETS);
  }

  @Test
  void summaryEntriesCarryTheConnectorAndTheVersion() throws IOException {
    Map<String, String> summary =
        new LinkedHashMap<>(SnapshotOffsets.toSummary("orders-sink", OFFSETS));
    assertThat(summary)
        .containsEntry("sluice.offsets.orders-sink", fixture())
        .containsEntry("sluice.offsets-version", "1")
        .hasSize(2);
    summary.put("added-records", "3");
    assertThat(SnapshotOffsets.fromSummary(summary, "orders-sink")).contains(OFFSETS);
    assertThat(SnapshotOffsets.fromSummary(summary, "other")).isEmpty();
    assertThat(SnapshotOffsets.fromSummary(null, "orders-sink")).isEmpty();
  }

  @Test
  void unknownVersionIsRefused() {
    Map<String, String> summary =
        Map.of("sluice.offsets.s", "{\"t-0\":1}", "sluice.offsets-version", "2");
    assertThatThrownBy(() -> SnapshotOffsets.fromSummary(summary, "s"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("offsets format version 2; this Sluice reads version 1");
  }

  @Test
  void malformedEntriesAreRefused() {
    assertThatThrownBy(() -> SnapshotOffsets.decode("{\"nopartition\":1}"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("bad offsets entry 'nopartition'");
    assertThatThrownBy(() -> SnapshotOffsets.decode("{\"t-x\":1}"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("bad partition in offsets entry 't-x'");
    assertThatThrownBy(() -> SnapshotOffsets.decode("{\"t-0\":\"1\"}"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("bad offsets entry 't-0'");
    assertThatThrownBy(() -> SnapshotOffsets.decode("[1]"))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("not a JSON object");
  }

  private static String fixture() throws IOException {
    try (InputStream in =
        SnapshotOffsetsTest.class.getResourceAsStream("/fixtures/snapshot-offsets-v1.json")) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
