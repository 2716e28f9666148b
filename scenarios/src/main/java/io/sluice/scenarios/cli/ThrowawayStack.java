package io.sluice.scenarios.cli;

import io.sluice.scenarios.RunHeader.StackFolder;
import io.sluice.scenarios.ScenarioEndpoints;
import io.sluice.stack.ProcessScale;
import io.sluice.stack.Stack;
import io.sluice.stack.StackOptions;
import io.sluice.stack.logging.CommandLog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stack {@code sluice verify} starts for its runs when it is given none: the one-JVM embedded
 * stack, or the process stack for classes that fault one of its processes. It lives in a folder of
 * its own ({@link #folder()}: the data dir, and in it the components' logs and the stack's own log
 * {@code logs/sluice-up.log}), which the command removes after runs that passed and keeps as the
 * evidence of a run that failed. A stack that did not start is kept as its reason ({@link
 * #failure()}), so every run reports it.
 */
final class ThrowawayStack implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ThrowawayStack.class);
  private static final DateTimeFormatter FOLDER_TIME =
      DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC);

  private final StackFolder folder;
  private final AutoCloseable stack;
  private final ScenarioEndpoints endpoints;
  private final String failure;
  private final CommandLog stackLog;
  private final Consumer<String> progress;

  ThrowawayStack(
      StackFolder folder,
      AutoCloseable stack,
      ScenarioEndpoints endpoints,
      String failure,
      CommandLog stackLog,
      Consumer<String> progress) {
    this.folder = folder;
    this.stack = stack;
    this.endpoints = endpoints;
    this.failure = failure;
    this.stackLog = stackLog;
    this.progress = progress;
  }

  /**
   * A new folder for a throwaway stack under {@code reportDir}, beside the reports of its runs:
   * {@code stack-<UTC time>-<6 hex digits>}.
   */
  static Path newFolder(Path reportDir, Clock clock) throws IOException {
    String name =
        "stack-"
            + FOLDER_TIME.format(clock.instant())
            + "-"
            + HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextInt()).substring(0, 6);
    return Files.createDirectories(reportDir.toAbsolutePath().resolve(name));
  }

  /** Where a stack in {@code dir} keeps its data and its logs. */
  static StackFolder folderOf(Path dir) {
    Path data = dir.toAbsolutePath().resolve("data");
    return new StackFolder(dir.toAbsolutePath(), data.resolve(StackOptions.LOG_FILE).getParent());
  }

  /**
   * Starts a stack with its data dir in {@code dir}; every line the logging lets through while it
   * runs also goes to {@code <data dir>/logs/sluice-up.log}, as with {@code sluice up}.
   *
   * @param processes the process stack to start at this scale, or null for the embedded stack
   */
  static ThrowawayStack start(Path dir, ProcessScale processes, Consumer<String> progress) {
    String kind =
        processes == null
            ? "embedded"
            : processes.equals(ProcessScale.SINGLE) ? "process" : "scaled-out process";
    progress.accept("[stack] starting a throwaway " + kind + " stack in " + dir);
    StackFolder folder = folderOf(dir);
    StackOptions options = StackOptions.in(dir.resolve("data")).withScale(processes);
    CommandLog stackLog = CommandLog.open(options.dataDir().resolve(StackOptions.LOG_FILE), true);
    Stack stack;
    try {
      stack = Stack.start(options, processes != null);
    } catch (RuntimeException e) {
      // start() stopped whatever had started; the data dir and the logs stay.
      log.warn("the {} stack did not start", kind, e);
      return new ThrowawayStack(
          folder,
          null,
          null,
          "the " + kind + " stack did not start: " + e.getMessage(),
          stackLog,
          progress);
    }
    ThrowawayStack running = new ThrowawayStack(folder, stack, null, null, stackLog, progress);
    try {
      return new ThrowawayStack(
          folder,
          stack,
          ScenarioEndpoints.fromReadyFile(stack.endpoints()),
          null,
          stackLog,
          progress);
    } catch (IllegalArgumentException e) {
      running.close();
      throw e;
    }
  }

  /** Why the stack did not start, or null when it runs. */
  String failure() {
    return failure;
  }

  /** Its endpoints; null when it did not start. */
  ScenarioEndpoints endpoints() {
    return failure == null ? endpoints : null;
  }

  /** Its folder: the data dir and the logs, kept when a run on it fails. */
  StackFolder folder() {
    return folder;
  }

  @Override
  public void close() {
    try {
      if (stack != null) {
        progress.accept("[stack] stopping the throwaway stack");
        try {
          stack.close();
        } catch (Exception e) {
          log.warn("stopping the throwaway stack failed: {}", e.toString());
        }
      }
    } finally {
      if (stackLog != null) {
        stackLog.close();
      }
    }
  }
}
