package io.sluice.scenarios.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Locale;

/**
 * What {@code sluice verify --all} ran: one row per failure class, printed as a table and written
 * as {@code <report dir>/matrix-<run>.json} ({@code matrix_version} 1).
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
record MatrixReport(int matrixVersion, String runId, boolean passed, List<Run> runs) {
  static final int VERSION = 1;
  private static final DateTimeFormatter RUN_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  /** One class's run. */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  record Run(
      String failureClass,
      boolean passed,
      long checksHeld,
      int checks,
      double seconds,
      String report) {}

  static MatrixReport of(List<Run> runs, Clock clock) {
    return new MatrixReport(
        VERSION,
        "matrix-" + RUN_TIME.format(clock.instant()),
        runs.stream().allMatch(Run::passed),
        List.copyOf(runs));
  }

  void print(PrintWriter out) {
    out.println();
    out.printf("%-16s %-7s %-7s %8s  %s%n", "CLASS", "PASSED", "CHECKS", "TIME", "REPORT");
    for (Run r : runs) {
      out.printf(
          Locale.ROOT,
          "%-16s %-7s %-7s %7.1fs  %s%n",
          r.failureClass(),
          r.passed() ? "yes" : "NO",
          r.checksHeld() + "/" + r.checks(),
          r.seconds(),
          r.report());
    }
    out.printf(
        "%s: %d of %d classes passed%n",
        passed ? "PASSED" : "FAILED", runs.stream().filter(Run::passed).count(), runs.size());
  }

  /** Writes {@code <dir>/<run id>.json}; returns its path. */
  Path write(Path dir) throws IOException {
    Files.createDirectories(dir);
    Path file = dir.resolve(runId + ".json").toAbsolutePath();
    new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValue(file.toFile(), this);
    return file;
  }
}
