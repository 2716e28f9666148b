package io.sluice.bench.maintenance;

/** The samples as the table of progress lines printed while a mode runs. */
final class SampleTable {
  static final String HEADER =
      String.format(
          "%-4s %7s %8s %9s %6s %7s %7s %9s %9s %6s %6s",
          "mode",
          "commits",
          "time s",
          "rows",
          "data",
          "eq-del",
          "pos-del",
          "scan cpu",
          "compact",
          "ratio",
          "wall");

  private SampleTable() {}

  /** One sample's line, under {@link #HEADER}. */
  static String row(Mode mode, Sample s) {
    return String.format(
        "%-4s %7d %8.1f %,9d %6d %7d %7d %9.1f %9.1f %6.2f %6.2f",
        mode.label(),
        s.commits(),
        s.elapsedMs() / 1000.0,
        s.rows(),
        s.files().dataFiles(),
        s.files().equalityDeleteFiles(),
        s.files().positionDeleteFiles(),
        s.scanMs(),
        s.compactedScanMs(),
        s.ratio(),
        s.wallRatio());
  }
}
