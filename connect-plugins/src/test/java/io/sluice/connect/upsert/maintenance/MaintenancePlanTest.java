package io.sluice.connect.upsert.maintenance;

import static io.sluice.connect.upsert.maintenance.Fakes.dataFile;
import static io.sluice.connect.upsert.maintenance.Fakes.equalityDeletes;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.connect.upsert.config.MaintenanceSettings;
import java.util.List;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** When a partition is due for a rewrite ({@link RewritePlanner}). */
class MaintenancePlanTest {
  private static final long MB = 1024 * 1024;
  // 4 delete files, 3 small files (below 3/4 of 8 MB), 8 MB target.
  private static final MaintenanceSettings SETTINGS =
      new MaintenanceSettings(4, 3, 8 * MB, 10, 0, 3_600_000, 60_000, 50, 1_000);
  private final RewritePlanner planner = new RewritePlanner(SETTINGS);

  @Test
  void aPartitionIsDueAtTheDeleteFileThresholdAndNotBelow() {
    FileGroup below = group("b=0", 3, 1);
    FileGroup at = group("b=1", 4, 1);
    FileGroup above = group("b=2", 9, 1);
    assertThat(planner.due(List.of(below, at, above))).containsExactly(above, at);
  }

  @Test
  void aPartitionIsDueAtTheSmallFileThreshold() {
    FileGroup small = group("b=0", 0, 0);
    for (int i = 0; i < 3; i++) {
      small.dataFiles().add(dataFile("small-" + i, 6 * MB - 1));
    }
    FileGroup large = group("b=1", 0, 0);
    for (int i = 0; i < 5; i++) {
      large.dataFiles().add(dataFile("large-" + i, 6 * MB));
    }
    assertThat(SETTINGS.smallFileBytes()).isEqualTo(6 * MB);
    assertThat(planner.due(List.of(small, large))).containsExactly(small);
  }

  @Test
  void aPartitionOfOneCompactedFileAndNoDeletesIsNeverDue() {
    FileGroup compacted = group("b=0", 0, 1);
    assertThat(planner.due(List.of(compacted))).isEmpty();
  }

  private static FileGroup group(String name, int deleteFiles, int smallDataFiles) {
    FileGroup group = new FileGroup(0, new PartitionData(Types.StructType.of()), name);
    for (int i = 0; i < deleteFiles; i++) {
      group.deleteFiles().add(equalityDeletes(i + 1));
    }
    for (int i = 0; i < smallDataFiles; i++) {
      group.dataFiles().add(dataFile(name + "-" + i, 1024));
    }
    return group;
  }
}
