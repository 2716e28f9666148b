package io.sluice.router.topics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.router.topics.OutputTopics.Partitions;
import org.junit.jupiter.api.Test;

class OutputPartitionsTest {
  @Test
  void recordsKeepTheirInputPartitionWhenTheOutputsHaveAsManyOrMore() {
    Partitions partitions = new Partitions(3, 6);

    assertThat(partitions.cleanPartition(0)).isZero();
    assertThat(partitions.cleanPartition(2)).isEqualTo(2);
    assertThat(partitions.dlqPartition(2)).isEqualTo(2);
  }

  @Test
  void smallerOutputsTakeTheInputPartitionModuloTheirCount() {
    Partitions partitions = new Partitions(2, 1);

    assertThat(partitions.cleanPartition(1)).isEqualTo(1);
    assertThat(partitions.cleanPartition(2)).isZero();
    assertThat(partitions.cleanPartition(5)).isEqualTo(1);
    assertThat(partitions.dlqPartition(5)).isZero();
  }

  @Test
  void unknownCountsKeepTheInputPartition() {
    assertThat(Partitions.SAME_AS_INPUT.cleanPartition(7)).isEqualTo(7);
    assertThat(Partitions.SAME_AS_INPUT.dlqPartition(7)).isEqualTo(7);
  }

  @Test
  void negativeCountsAreRejected() {
    assertThatThrownBy(() -> new Partitions(-1, 3))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("clean -1");
  }
}
