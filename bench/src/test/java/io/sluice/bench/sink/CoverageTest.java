package io.sluice.bench.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class CoverageTest {
  @Test
  void aRecordIsVisibleFromTheFirstCommitPastItsOffset() {
    Coverage coverage = new Coverage();
    coverage.add(1_000, Map.of(0, 10L, 1, 5L));
    coverage.add(2_000, Map.of(0, 25L));
    coverage.add(3_000, Map.of(1, 12L, 0, 25L));

    assertThat(coverage.visibleAt(0, 0)).isEqualTo(1_000);
    assertThat(coverage.visibleAt(0, 9)).isEqualTo(1_000);
    assertThat(coverage.visibleAt(0, 10)).isEqualTo(2_000);
    assertThat(coverage.visibleAt(0, 24)).isEqualTo(2_000);
    assertThat(coverage.visibleAt(0, 25)).isEqualTo(-1);
    assertThat(coverage.visibleAt(1, 5)).isEqualTo(3_000);
    assertThat(coverage.visibleAt(2, 0)).as("partition never committed").isEqualTo(-1);
    assertThat(coverage.snapshots()).isEqualTo(3);
  }

  @Test
  void offsetsThatGoBackChangeNothing() {
    Coverage coverage = new Coverage();
    coverage.add(1_000, Map.of(0, 10L));
    coverage.add(2_000, Map.of(0, 4L));

    assertThat(coverage.visibleAt(0, 5)).isEqualTo(1_000);
  }

  @Test
  void allRecordsAreVisibleWhenTheLastPartitionCatchesUp() {
    Coverage coverage = new Coverage();
    Map<Integer, Long> ends = Map.of(0, 10L, 1, 5L, 2, 0L);
    coverage.add(1_000, Map.of(0, 10L));
    assertThat(coverage.allVisibleAt(ends)).isEqualTo(-1);
    assertThat(coverage.visibleRecords(Map.of(), ends)).isEqualTo(10);

    coverage.add(1_500, Map.of(1, 3L));
    coverage.add(2_000, Map.of(1, 7L));

    assertThat(coverage.allVisibleAt(ends)).isEqualTo(2_000);
    assertThat(coverage.visibleRecords(Map.of(), ends)).isEqualTo(15);
    assertThat(coverage.visibleRecords(Map.of(0, 8L, 1, 5L), Map.of(0, 12L, 1, 9L)))
        .as("records of a later phase only")
        .isEqualTo(2 + 2);
  }
}
