package io.sluice.connect.upsert.maintenance;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;

/** Data files of one partition that one rewrite replaces by new files of their live rows. */
record FileBin(FileGroup group, List<DataFileDeletes> files) {

  /**
   * Packs {@code files} of {@code group} into bins of at most {@code capacity} live bytes (a file
   * of more is a bin of its own), first fit by decreasing size, so that each bin's rows fill about
   * one file of the target size. A bin of one file that {@code worthAlone} rejects is dropped:
   * rewriting a small clean file on its own only copies it.
   */
  static List<FileBin> pack(
      FileGroup group,
      List<DataFileDeletes> files,
      long capacity,
      Predicate<DataFileDeletes> worthAlone) {
    List<List<DataFileDeletes>> bins = new ArrayList<>();
    List<Long> sizes = new ArrayList<>();
    List<DataFileDeletes> largestFirst =
        files.stream()
            .sorted(Comparator.comparingLong(DataFileDeletes::liveBytes).reversed())
            .toList();
    for (DataFileDeletes file : largestFirst) {
      int bin = 0;
      while (bin < bins.size() && sizes.get(bin) + file.liveBytes() > capacity) {
        bin++;
      }
      if (bin == bins.size()) {
        bins.add(new ArrayList<>());
        sizes.add(0L);
      }
      bins.get(bin).add(file);
      sizes.set(bin, sizes.get(bin) + file.liveBytes());
    }
    return bins.stream()
        .filter(b -> b.size() > 1 || worthAlone.test(b.get(0)))
        .map(b -> new FileBin(group, List.copyOf(b)))
        .toList();
  }

  List<DataFile> dataFiles() {
    return files.stream().map(DataFileDeletes::file).toList();
  }

  Set<String> locations() {
    return files.stream().map(f -> f.file().location()).collect(Collectors.toSet());
  }

  long fileBytes() {
    return files.stream().mapToLong(f -> f.file().fileSizeInBytes()).sum();
  }

  long liveBytes() {
    return files.stream().mapToLong(DataFileDeletes::liveBytes).sum();
  }

  long rows() {
    return files.stream().mapToLong(f -> f.file().recordCount()).sum();
  }

  long deletedRows() {
    return files.stream().mapToLong(DataFileDeletes::deletedRows).sum();
  }

  /** Deleted rows over rows, of all the bin's files together. */
  double deletedFraction() {
    return rows() == 0 ? 0 : (double) deletedRows() / rows();
  }
}
