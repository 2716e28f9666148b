package io.sluice.connect.upsert.maintenance;

import static io.sluice.connect.upsert.maintenance.Fakes.dataFile;
import static io.sluice.connect.upsert.maintenance.Fakes.dv;
import static io.sluice.connect.upsert.maintenance.Fakes.equalityDeletes;
import static io.sluice.connect.upsert.maintenance.Fakes.positionDeletes;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.connect.upsert.config.MaintenanceSettings;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.PartitionData;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;

/** What is due for a rewrite, and how files are grouped into rewrites ({@link RewritePlanner}). */
class MaintenancePlanTest {
  private static final long MB = 1024 * 1024;
  // 4 delete files, 3 small files (below 3/4 of 8 MB), deleted fraction 0.2, 8 MB target.
  private static final MaintenanceSettings SETTINGS =
      new MaintenanceSettings(4, 3, 0.2, 8 * MB, 10, 0, 604_800_000, 3_600_000, 60_000, 50, 1_000);
  private final RewritePlanner planner = new RewritePlanner(SETTINGS);

  @Test
  void aPartitionIsRewrittenWholeAtThePartitionWideDeleteThresholdAndNotBelow() {
    FileGroup below = group("b=0", 3);
    FileGroup at = group("b=1", 4);
    FileGroup above = group("b=2", 9);
    FileGroup mixed = group("b=3", 2);
    mixed.deleteFiles().add(positionDeletes(1, null));
    mixed.deleteFiles().add(positionDeletes(1, null));

    RewritePlanner.Plan plan = planner.plan(List.of(below, at, above, mixed));

    assertThat(plan.partitions()).containsExactly(above, at, mixed);
  }

  @Test
  void deletionVectorsAndFileScopedDeletesDoNotMakeAPartitionDueWhole() {
    FileGroup group = group("b=0", 1);
    for (int i = 0; i < 6; i++) {
      DataFile file = dataFile("f" + i, 7 * MB, 1000);
      group.dataFiles().add(file);
      group
          .deleteFiles()
          .add(i % 2 == 0 ? dv(2, file.location(), 1) : positionDeletes(2, file.location()));
    }

    assertThat(planner.plan(List.of(group)).isEmpty()).isTrue();
  }

  @Test
  void aCleanBigFileInADirtyPartitionIsNotRewritten() {
    FileGroup group = group("b=0", 0);
    DataFile clean = dataFile("clean", 7 * MB, 1000);
    DataFile dirty = dataFile("dirty", 7 * MB, 1000);
    DataFile lightlyDeleted = dataFile("light", 7 * MB, 1000);
    group.dataFiles().addAll(List.of(clean, dirty, lightlyDeleted));
    group.deleteFiles().add(dv(2, "dirty", 300));
    group.deleteFiles().add(dv(2, "light", 100));
    // Equality deletes below the threshold leave the partition to file rewrites.
    group.deleteFiles().add(equalityDeletes(2));

    RewritePlanner.Plan plan = planner.plan(List.of(group));

    assertThat(plan.partitions()).isEmpty();
    assertThat(plan.bins())
        .singleElement()
        .satisfies(b -> assertThat(b.dataFiles()).containsExactly(dirty));
  }

  @Test
  void aFileIsDirtyFromTheDeletedFractionOnAndNotBelow() {
    FileGroup group = group("b=0", 0);
    for (long deleted : new long[] {0, 199, 200, 1000}) {
      group.dataFiles().add(dataFile("deleted-" + deleted, 7 * MB, 1000));
      if (deleted > 0) {
        group.deleteFiles().add(dv(2, "deleted-" + deleted, deleted));
      }
    }

    assertThat(planner.plan(List.of(group)).bins())
        .flatExtracting(b -> b.dataFiles().stream().map(DataFile::location).toList())
        .containsExactlyInAnyOrder("deleted-200", "deleted-1000");
  }

  @Test
  void aFractionAboveOneRewritesNoFileForItsDeletesNotEvenAFullyDeletedOne() {
    FileGroup group = group("b=0", 0);
    group.dataFiles().add(dataFile("all-deleted", 7 * MB, 1000));
    group.deleteFiles().add(dv(2, "all-deleted", 1000));
    RewritePlanner off =
        new RewritePlanner(
            new MaintenanceSettings(
                4, 3, 2, 8 * MB, 10, 0, 604_800_000, 3_600_000, 60_000, 50, 1_000));

    assertThat(off.plan(List.of(group)).isEmpty()).isTrue();
    assertThat(planner.plan(List.of(group)).bins()).hasSize(1);
  }

  @Test
  void aFileNamedByEnoughPositionDeleteFilesIsDirtyAndDvsDoNotCount() {
    FileGroup group = group("b=0", 0);
    group.dataFiles().add(dataFile("four", 7 * MB, 1000));
    group.dataFiles().add(dataFile("three", 7 * MB, 1000));
    for (int i = 0; i < 4; i++) {
      group.deleteFiles().add(positionDeletes(2 + i, "four"));
    }
    for (int i = 0; i < 3; i++) {
      group.deleteFiles().add(positionDeletes(2 + i, "three"));
    }
    RewritePlanner oneDeleteFile =
        new RewritePlanner(
            new MaintenanceSettings(
                1, 3, 0.2, 8 * MB, 10, 0, 604_800_000, 3_600_000, 60_000, 50, 1_000));
    FileGroup withDv = group("b=1", 0);
    withDv.dataFiles().add(dataFile("dv", 7 * MB, 1000));
    withDv.deleteFiles().add(dv(2, "dv", 1));

    assertThat(planner.plan(List.of(group)).bins())
        .singleElement()
        .satisfies(b -> assertThat(b.locations()).containsExactly("four"));
    assertThat(oneDeleteFile.plan(List.of(withDv)).bins()).isEmpty();
  }

  @Test
  void dirtyFilesAreBinPackedByLiveBytesIntoGroupsOfTheTargetSize() {
    FileGroup group = group("b=0", 0);
    // Live bytes 5, 4, 3 and 2 MB (half of each file deleted), one of 10 MB: first fit by
    // decreasing size into 8 MB bins gives {10}, {5, 3}, {4, 2}.
    for (long live : new long[] {5, 4, 3, 2, 10}) {
      group.dataFiles().add(dataFile("live-" + live, 2 * live * MB, 1000));
      group.deleteFiles().add(dv(2, "live-" + live, 500));
    }

    List<FileBin> bins = planner.plan(List.of(group)).bins();

    assertThat(bins)
        .extracting(FileBin::locations)
        .containsExactlyInAnyOrder(
            Set.of("live-10"), Set.of("live-5", "live-3"), Set.of("live-4", "live-2"));
    assertThat(bins).allSatisfy(b -> assertThat(b.deletedFraction()).isEqualTo(0.5));
    // The most deleted rows first.
    assertThat(bins.get(0).deletedRows()).isEqualTo(1000);
  }

  @Test
  void smallFilesAreMergedFromTheThresholdOnAndNotBelow() {
    FileGroup two = group("b=0", 0);
    FileGroup three = group("b=1", 0);
    for (int i = 0; i < 3; i++) {
      if (i < 2) {
        two.dataFiles().add(dataFile("two-" + i, MB));
      }
      three.dataFiles().add(dataFile("three-" + i, 4 * MB - 1));
    }
    FileGroup large = group("b=2", 0);
    for (int i = 0; i < 5; i++) {
      large.dataFiles().add(dataFile("large-" + i, 6 * MB));
    }
    assertThat(SETTINGS.smallFileBytes()).isEqualTo(6 * MB);

    List<FileBin> bins = planner.plan(List.of(two, three, large)).bins();

    // 12 MB of small files: a bin of two; the third, alone in its bin, is not copied.
    assertThat(bins).extracting(FileBin::group).containsOnly(three);
    assertThat(bins).flatExtracting(FileBin::files).hasSize(2);
  }

  @Test
  void aSmallPartitionMergesFewerSmallFilesThanALargeOne() {
    RewritePlanner defaults = withSmallFiles(8);
    // 300,000 rows: 1 + 300,000 x 0.1 / 10,000 = 4 small files are due, 3 are not.
    assertThat(defaults.smallFilesDue(300_000)).isEqualTo(4);
    assertThat(defaults.plan(List.of(alike("small-3", 3, 100_000))).bins()).isEmpty();
    assertThat(defaults.plan(List.of(alike("small-4", 4, 75_000))).bins())
        .singleElement()
        .satisfies(b -> assertThat(b.files()).hasSize(4));
    // 1,000,000 rows: rewrite.small-files (8), not fewer.
    assertThat(defaults.smallFilesDue(1_000_000)).isEqualTo(8);
    assertThat(defaults.plan(List.of(alike("large-7", 7, 150_000))).bins()).isEmpty();
    assertThat(defaults.plan(List.of(alike("large-8", 8, 125_000))).bins()).hasSize(1);
    // Never fewer than 3, nor more than the setting; a share of a larger setting.
    assertThat(defaults.smallFilesDue(0)).isEqualTo(3);
    assertThat(planner.smallFilesDue(10_000_000)).isEqualTo(3);
    assertThat(withSmallFiles(16).smallFilesDue(300_000)).isEqualTo(8);
    assertThat(withSmallFiles(Integer.MAX_VALUE).smallFilesDue(0))
        .as("merging turned off stays off in a small partition")
        .isGreaterThan(1_000_000);
  }

  private static RewritePlanner withSmallFiles(int smallFiles) {
    return new RewritePlanner(
        new MaintenanceSettings(
            4, smallFiles, 0.2, 8 * MB, 10, 0, 604_800_000, 3_600_000, 60_000, 50, 1_000));
  }

  /** A partition of {@code files} alike small files of {@code rows} rows each. */
  private static FileGroup alike(String name, int files, long rows) {
    FileGroup group = group(name, 0);
    for (int i = 0; i < files; i++) {
      group.dataFiles().add(dataFile(name + "-" + i, MB + i, rows));
    }
    return group;
  }

  @Test
  void aLargerSmallFileIsNotRewrittenForTheSakeOfAFewTinyOnes() {
    FileGroup group = group("b=0", 0);
    for (int i = 0; i < 3; i++) {
      group.dataFiles().add(dataFile("commit-" + i, 100 * 1024));
    }
    group.dataFiles().add(dataFile("merged-600k", 600 * 1024));
    group.dataFiles().add(dataFile("compacted", 5 * MB));

    List<FileBin> bins = planner.plan(List.of(group)).bins();

    // 600 KB is at most twice the 300 KB before it; 5 MB is more than twice 900 KB.
    assertThat(bins)
        .singleElement()
        .satisfies(
            b ->
                assertThat(b.locations())
                    .containsExactlyInAnyOrder("commit-0", "commit-1", "commit-2", "merged-600k"));
  }

  @Test
  void aPassMergesAtMostTwiceTheThresholdOfAlikeSmallFiles() {
    FileGroup group = group("b=0", 0);
    for (int i = 0; i < 50; i++) {
      group.dataFiles().add(dataFile("commit-" + i, 100 * 1024 + i));
    }

    List<FileBin> bins = planner.plan(List.of(group)).bins();

    // The smallest ones, 2 x rewrite.small-files (3) of them, not all 50 in one pass.
    assertThat(bins)
        .singleElement()
        .satisfies(
            b ->
                assertThat(b.locations())
                    .containsExactlyInAnyOrder(
                        "commit-0", "commit-1", "commit-2", "commit-3", "commit-4", "commit-5"));
  }

  @Test
  void oneTinyFileDoesNotKeepAlikeSmallFilesFromBeingMerged() {
    FileGroup group = group("b=0", 0);
    group.dataFiles().add(dataFile("tiny", 1024));
    for (int i = 0; i < 4; i++) {
      group.dataFiles().add(dataFile("commit-" + i, 500 * 1024 + i));
    }

    List<FileBin> bins = planner.plan(List.of(group)).bins();

    // The 500 KB files are more than twice the tiny one: they merge among themselves.
    assertThat(bins)
        .singleElement()
        .satisfies(
            b ->
                assertThat(b.locations())
                    .containsExactlyInAnyOrder("commit-0", "commit-1", "commit-2", "commit-3"));
  }

  @Test
  void aPartitionOfOneCompactedFileAndNoDeletesIsNeverDue() {
    FileGroup compacted = group("b=0", 0);
    compacted.dataFiles().add(dataFile("compacted", 1024));
    assertThat(planner.plan(List.of(compacted)).isEmpty()).isTrue();
  }

  @Test
  void dataManifestsAreReadWhenADeleteNamesOneFileOrAPartitionIsDueWhole() {
    FileGroup fewEqualityDeletes = group("b=0", 3);
    FileGroup withDv = group("b=1", 0);
    withDv.deleteFiles().add(dv(2, "f", 1));
    FileGroup dueWhole = group("b=2", 4);

    assertThat(planner.needsDataFiles(List.of(fewEqualityDeletes), 2)).isFalse();
    assertThat(planner.needsDataFiles(List.of(fewEqualityDeletes), 3)).isTrue();
    assertThat(planner.needsDataFiles(List.of(withDv), 2)).isTrue();
    assertThat(planner.needsDataFiles(List.of(dueWhole), 2)).isTrue();
    // Small files alone: a small partition may be due at 3 of them, whatever the setting (8).
    RewritePlanner defaults = withSmallFiles(8);
    FileGroup clean = group("b=3", 0);
    assertThat(defaults.needsDataFiles(List.of(clean), 2)).isFalse();
    assertThat(defaults.needsDataFiles(List.of(clean), 3)).isTrue();
    assertThat(withSmallFiles(Integer.MAX_VALUE).needsDataFiles(List.of(clean), 1_000)).isFalse();
  }

  private static FileGroup group(String name, int equalityDeleteFiles) {
    FileGroup group = new FileGroup(0, new PartitionData(Types.StructType.of()), name);
    for (int i = 0; i < equalityDeleteFiles; i++) {
      group.deleteFiles().add(equalityDeletes(i + 1));
    }
    return group;
  }
}
