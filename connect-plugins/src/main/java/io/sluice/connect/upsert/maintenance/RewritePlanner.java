package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.config.MaintenanceConfig;
import io.sluice.connect.upsert.config.MaintenanceSettings;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * What of a table is due for a rewrite, by the thresholds of the settings, sized by what changed. A
 * partition with {@code rewrite.delete-files} deletes that may apply to any of its files (equality
 * deletes, position deletes of several files) is rewritten whole: nothing less removes them. In
 * every other partition only data files are rewritten that are dirty (deleted fraction at least
 * {@code rewrite.deleted-fraction}, or named by {@code rewrite.delete-files} position-delete files
 * that are not DVs) or small and merged with other small ones; a clean large file is never
 * rewritten because its partition is dirty.
 */
final class RewritePlanner {
  /**
   * A small clean file joins a merge while its live bytes are at most this many times those of the
   * smaller files already taken. Merging a file with files much smaller than itself rewrites its
   * bytes for little gain: a table below the target size is all small files, and merging them all
   * rewrites the whole table every few commits (write amplification 22-29 in {@code
   * MaintenanceAmplificationTest}'s model, 7-8 with 2; with 1, 70-90 files pile up).
   */
  static final double SMALL_FILE_GROWTH = 2;

  /**
   * At most this many small files (twice {@code rewrite.small-files}) are merged by one pass. When
   * every file is small and alike (a table filling at tens of thousands of rows a second, one file
   * per commit), the growth rule takes them all, and one pass would rewrite the whole table: at 10M
   * keys such passes did not finish while the sink wrote (docs/benchmarks.md). Merged a few at a
   * time, the files form levels, each rewritten about once per level.
   */
  int mostSmallFiles() {
    return 2 * settings.rewriteSmallFiles();
  }

  /**
   * What one more data file costs a full scan, in rows: opening it, its footer, a reader for each
   * column, its DV or delete files. Measured with {@code ScanAnatomy#atScale} (Iceberg's generic
   * reader, 300,000 rows of the benchmark's seven columns): 0.9-1.7 ms a file, what 5,000-10,000
   * rows cost.
   */
  static final long FILE_COST_ROWS = 10_000;

  /**
   * One small file per this many live rows costs a scan about a tenth more ({@link #FILE_COST_ROWS}
   * a file): at the default {@code rewrite.small-files}, a partition merges its small files once it
   * has 1 + rows / this many ({@link #smallFilesDue}).
   */
  static final long ROWS_PER_SMALL_FILE = FILE_COST_ROWS * 10;

  private final MaintenanceSettings settings;

  /** The rewrites a pass commits: whole partitions first, then bins of files. */
  record Plan(List<FileGroup> partitions, List<FileBin> bins) {
    boolean isEmpty() {
      return partitions.isEmpty() && bins.isEmpty();
    }
  }

  RewritePlanner(MaintenanceSettings settings) {
    this.settings = settings;
  }

  /**
   * Whether a pass must read the data manifests, given the partitions' delete files and the
   * snapshot summary's total of data files: some partition is due whole (its rewrite needs its data
   * files), some delete file names one data file (its deleted fraction needs the file's row count),
   * or the table has enough data files that some partition could have reached the small-file
   * threshold (at its lowest, that of a small partition: {@link #smallFilesDue}).
   */
  boolean needsDataFiles(Collection<FileGroup> groups, long totalDataFiles) {
    return groups.stream()
            .anyMatch(
                g ->
                    isDueWhole(g)
                        || g.deleteFiles().stream().anyMatch(ContentFileUtil::isFileScoped))
        || totalDataFiles >= fewestSmallFilesDue();
  }

  /**
   * The partitions due whole, those with the most partition-wide deletes first, and the bins of the
   * other partitions, those with the most deleted rows first.
   */
  Plan plan(Collection<FileGroup> groups) {
    List<FileGroup> whole =
        groups.stream()
            .filter(this::isDueWhole)
            .sorted(Comparator.comparingLong(FileGroup::partitionWideDeleteFiles).reversed())
            .toList();
    List<FileBin> bins =
        groups.stream()
            .filter(g -> !isDueWhole(g))
            .flatMap(g -> bins(g).stream())
            .sorted(Comparator.comparingLong(FileBin::deletedRows).reversed())
            .toList();
    return new Plan(whole, bins);
  }

  private boolean isDueWhole(FileGroup group) {
    return group.partitionWideDeleteFiles() >= settings.rewriteDeleteFiles();
  }

  private List<FileBin> bins(FileGroup group) {
    List<DataFileDeletes> files = group.filesWithDeletes();
    // Disjoint: the small files merged are clean ones.
    List<DataFileDeletes> selected = new ArrayList<>(files.stream().filter(this::isDirty).toList());
    selected.addAll(smallFilesToMerge(files));
    return FileBin.pack(group, selected, settings.targetFileSizeBytes(), this::isDirty);
  }

  /** A file worth rewriting for its deletes alone. */
  private boolean isDirty(DataFileDeletes file) {
    if (file.deletedRows() > 0 && file.deletedFraction() >= settings.rewriteDeletedFraction()) {
      return true;
    }
    // v2: each position-delete file is one more file every read of this file opens. A DV is
    // merged at each commit, so there is one at most.
    long positionDeleteFiles =
        file.deletes().stream().filter(d -> !ContentFileUtil.isDV(d)).count();
    return positionDeleteFiles >= settings.rewriteDeleteFiles();
  }

  /**
   * How many small files a partition of {@code liveRows} may hold before they are merged: {@code
   * rewrite.small-files} in a large partition, a share of it in a smaller one, never fewer than 3.
   * The share is (1 + rows / {@link #ROWS_PER_SMALL_FILE}) over the default setting (8): with the
   * default, 4 small files at 300,000 rows (where 8 files cost a scan about a quarter more than
   * one), 8 from 700,000 rows on. A file costs what {@link #FILE_COST_ROWS} rows do whatever the
   * partition's size, so the smaller the partition, the more each one weighs. A setting of {@link
   * Integer#MAX_VALUE} (no merging, as for a hand-off to Spark) stays out of reach at any size.
   */
  /** The fewest small files that can be due in any partition: {@link #smallFilesDue} of none. */
  int fewestSmallFilesDue() {
    return smallFilesDue(0);
  }

  int smallFilesDue(long liveRows) {
    int most = settings.rewriteSmallFiles();
    double share =
        Math.min(
            1.0,
            (1.0 + (double) liveRows / ROWS_PER_SMALL_FILE)
                / MaintenanceConfig.REWRITE_SMALL_FILES_DEFAULT);
    long due = Math.min(most, (long) Math.ceil(most * share));
    return (int) Math.max(Math.min(3, most), due);
  }

  /**
   * Once the partition has {@link #smallFilesDue} small files: its clean small files from the
   * smallest up, while each holds at most {@link #SMALL_FILE_GROWTH} times the live bytes of those
   * before it (starting over from a file that a single smaller one cannot take), and at most {@link
   * #mostSmallFiles()}; none unless two.
   */
  private List<DataFileDeletes> smallFilesToMerge(List<DataFileDeletes> files) {
    List<DataFileDeletes> small =
        files.stream().filter(f -> f.file().fileSizeInBytes() < settings.smallFileBytes()).toList();
    long liveRows = files.stream().mapToLong(DataFileDeletes::liveRows).sum();
    if (small.size() < smallFilesDue(liveRows)) {
      return List.of();
    }
    List<DataFileDeletes> taken = new ArrayList<>();
    long takenBytes = 0;
    for (DataFileDeletes file :
        small.stream()
            .filter(f -> !isDirty(f))
            .sorted(Comparator.comparingLong(DataFileDeletes::liveBytes))
            .toList()) {
      if (taken.size() == mostSmallFiles()) {
        break;
      }
      if (!taken.isEmpty() && file.liveBytes() > SMALL_FILE_GROWTH * takenBytes) {
        if (taken.size() >= 2) {
          break;
        }
        // One much smaller file alone: merging starts from this one instead, so that a single
        // tiny file never keeps a row of alike files from being merged.
        taken.clear();
        takenBytes = 0;
      }
      taken.add(file);
      takenBytes += file.liveBytes();
    }
    return taken.size() < 2 ? List.of() : taken;
  }
}
