package io.sluice.scenarios;

import java.nio.file.Path;
import java.time.Instant;

/**
 * The report's sections about the run itself, known before its scenario starts.
 *
 * @param command the command line as typed
 * @param claimBoundary one line: what the run proves, and on what stack
 * @param logs the run's log file
 * @param stack the throwaway stack the run is on, whose folder a failed run keeps; null on a stack
 *     that was given ({@code --ready-file}, {@code --endpoint}), which stays as it is anyway
 */
public record RunHeader(
    String runId,
    Instant startedAt,
    String command,
    String gitSha,
    String failureClass,
    Environment environment,
    String claimBoundary,
    Path logs,
    StackFolder stack) {

  /**
   * Where a throwaway stack keeps everything: its folder, and in it the data dir and the logs of
   * its components ({@code <data dir>/logs}).
   */
  public record StackFolder(Path dir, Path logs) {}
}
