package io.sluice.bench.maintenance;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.sluice.bench.sink.SnapshotTally;
import java.util.Map;
import org.junit.jupiter.api.Test;

class WriteAmplificationTest {
  @Test
  void writtenBytesOverChangesTimesTheCompactedBytesOfARow() {
    SnapshotTally.Totals written =
        new SnapshotTally.Totals(60, 33_000_000, 0, 0, Map.of("merge", 50L));

    // 110,000 changes; the compacted copy: 1,194,000 bytes for 9,950 rows, 120 bytes a row.
    WriteAmplification a = WriteAmplification.of(written, 110_000, 1_194_000, 9_950);

    assertThat(a.bytesPerRow()).isCloseTo(120.0, within(1e-9));
    assertThat(a.ratio()).isCloseTo(33_000_000 / (110_000 * 120.0), within(1e-9));
    assertThat(a.ratio()).isCloseTo(2.5, within(1e-9));
    assertThat(a.writtenBytes()).isEqualTo(33_000_000);
    assertThat(a.snapshots()).isEqualTo(60);
    assertThat(a.changedRecords()).isEqualTo(110_000);
    assertThat(a.lowerBound()).isFalse();
  }

  @Test
  void missingSnapshotsMakeItALowerBound() {
    assertThat(
            WriteAmplification.of(new SnapshotTally.Totals(5, 100, 1, 0, Map.of()), 10, 10, 1)
                .lowerBound())
        .isTrue();
    WriteAmplification unseen =
        WriteAmplification.of(new SnapshotTally.Totals(5, 100, 0, 2, Map.of()), 10, 10, 1);
    assertThat(unseen.lowerBound()).isTrue();
    assertThat(unseen.unseenSnapshots()).isEqualTo(2);
  }

  @Test
  void withoutACompactedRowThereIsNoRatio() {
    WriteAmplification a =
        WriteAmplification.of(new SnapshotTally.Totals(3, 5_000, 0, 0, Map.of()), 100, 0, 0);

    assertThat(a.bytesPerRow()).isZero();
    assertThat(a.ratio()).isZero();
    assertThat(WriteAmplification.of(SnapshotTally.Totals.NONE, 0, 1_000, 10).ratio()).isZero();
  }
}
