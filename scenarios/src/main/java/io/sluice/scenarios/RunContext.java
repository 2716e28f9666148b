package io.sluice.scenarios;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;

/**
 * One run of {@code sluice verify}, whatever its scenario: its id, its clock, where its report and
 * log go, how many rows of each side its reconciliations list ({@code --report-rows}), and where
 * the progress lines a person reads go.
 */
public record RunContext(
    String runId,
    Instant startedAt,
    Clock clock,
    Path reportFile,
    Path logFile,
    int reportRows,
    Consumer<String> progress) {
  private static final DateTimeFormatter RUN_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  /**
   * A run of {@code failureClass} with {@code seed}, starting now: its id is {@code <failure>-<UTC
   * time>-seed<seed>-<6 hex digits>}, its report {@code <reportDir>/<id>.json} and its log {@code
   * <reportDir>/<id>.log}. Creates {@code reportDir}.
   *
   * @param reportRows at most how many rows of each side a reconciliation lists (0: counts only)
   */
  public static RunContext start(
      String failureClass,
      int seed,
      Path reportDir,
      int reportRows,
      Clock clock,
      Consumer<String> progress)
      throws IOException {
    Instant started = clock.instant();
    String runId =
        failureClass
            + "-"
            + RUN_TIME.format(started)
            + "-seed"
            + seed
            + "-"
            + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(0, 6);
    Files.createDirectories(reportDir);
    return new RunContext(
        runId,
        started,
        clock,
        reportDir.resolve(runId + ".json").toAbsolutePath(),
        reportDir.resolve(runId + ".log").toAbsolutePath(),
        reportRows,
        progress);
  }
}
