package io.sluice.lab.verify;

import java.nio.file.Path;
import java.time.Instant;

/**
 * The report's sections about the run itself, known before its scenario starts.
 *
 * @param command the command line as typed
 * @param claimBoundary one line: what the run proves, and on what stack
 * @param logs the run's log file
 */
public record RunHeader(
    String runId,
    Instant startedAt,
    String command,
    String gitSha,
    String failureClass,
    Environment environment,
    String claimBoundary,
    Path logs) {}
