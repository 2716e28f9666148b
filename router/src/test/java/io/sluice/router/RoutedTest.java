package io.sluice.router;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** TopologyTestDriver does not show partitions: the sink's partitioner and extractor, directly. */
class RoutedTest {

  @Test
  void partitionerKeepsTheInputPartition() {
    Routed routed = new Routed("t.clean", 2, new byte[] {1});
    assertThat(Routed.partitioner().partitions("t.clean", new byte[] {9}, routed, 3))
        .isEqualTo(Optional.of(Set.of(2)));
  }

  @Test
  void partitionerFoldsIntoSmallerOutputTopics() {
    Routed routed = new Routed("t.dlq", 5, new byte[] {1});
    assertThat(Routed.partitioner().partitions("t.dlq", null, routed, 3))
        .isEqualTo(Optional.of(Set.of(2)));
  }

  @Test
  void extractorPicksTheRoutedTopic() {
    Routed routed = new Routed("broker.cdc_lab.orders.dlq", 0, new byte[0]);
    assertThat(Routed.topicExtractor().extract(null, routed, null))
        .isEqualTo("broker.cdc_lab.orders.dlq");
  }

  @Test
  void serdeWritesOnlyTheBytes() {
    byte[] bytes = {0, 0, 0, 0, 1, 2, 3};
    assertThat(Routed.serde().serializer().serialize("t", new Routed("t", 1, bytes)))
        .isSameAs(bytes);
    assertThat(Routed.serde().serializer().serialize("t", new Routed("t", 1, null))).isNull();
  }

  @Test
  void serdeReadsAnInputValueUnroutedAndATombstoneAsNull() {
    byte[] bytes = {0, 0, 0, 0, 1, 2, 3};
    Routed read = Routed.serde().deserializer().deserialize("in", bytes);
    assertThat(read.bytes()).isSameAs(bytes);
    assertThat(read.topic()).isNull();
    assertThat(read.partition()).isEqualTo(-1);
    assertThat(Routed.serde().deserializer().deserialize("in", null)).isNull();

    read.routeTo("in.clean", 2);
    assertThat(read.topic()).isEqualTo("in.clean");
    assertThat(Routed.partitioner().partitions("in.clean", null, read, 3))
        .isEqualTo(Optional.of(Set.of(2)));
  }
}
