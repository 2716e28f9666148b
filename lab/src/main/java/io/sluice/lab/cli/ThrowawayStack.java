package io.sluice.lab.cli;

import io.sluice.lab.stack.EmbeddedStack;
import io.sluice.lab.stack.ProcessScale;
import io.sluice.lab.stack.ProcessStack;
import io.sluice.lab.stack.StackOptions;
import io.sluice.lab.verify.ScenarioEndpoints;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The stack {@code sluice verify} starts for its runs when it is given none: the one-JVM embedded
 * stack, or the process stack for classes that fault one of its processes. A stack that did not
 * start is kept as its reason ({@link #failure()}), so every run reports it.
 */
final class ThrowawayStack implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ThrowawayStack.class);

  private final AutoCloseable stack;
  private final Map<String, Object> endpoints;
  private final String failure;
  private final Consumer<String> progress;

  private ThrowawayStack(
      AutoCloseable stack,
      Map<String, Object> endpoints,
      String failure,
      Consumer<String> progress) {
    this.stack = stack;
    this.endpoints = endpoints;
    this.failure = failure;
    this.progress = progress;
  }

  /**
   * @param processes the process stack to start at this scale, or null for the embedded stack
   */
  static ThrowawayStack start(Path dir, ProcessScale processes, Consumer<String> progress) {
    String kind =
        processes == null
            ? "embedded"
            : processes.equals(ProcessScale.SINGLE) ? "process" : "scaled-out process";
    progress.accept("[stack] starting a throwaway " + kind + " stack in " + dir);
    StackOptions options = StackOptions.in(dir.resolve("data")).withScale(processes);
    try {
      if (processes != null) {
        ProcessStack stack = new ProcessStack(options).start();
        return new ThrowawayStack(stack, stack.endpoints(), null, progress);
      }
      EmbeddedStack stack = new EmbeddedStack(options).start();
      return new ThrowawayStack(stack, stack.endpoints(), null, progress);
    } catch (RuntimeException e) {
      log.warn("the {} stack did not start", kind, e);
      return new ThrowawayStack(
          null, null, "the " + kind + " stack did not start: " + e.getMessage(), progress);
    }
  }

  /** Why the stack did not start, or null when it runs. */
  String failure() {
    return failure;
  }

  ScenarioEndpoints endpoints() {
    return failure == null ? ScenarioEndpoints.fromReadyFile(endpoints) : null;
  }

  @Override
  public void close() {
    if (stack != null) {
      progress.accept("[stack] stopping the throwaway stack");
      try {
        stack.close();
      } catch (Exception e) {
        log.warn("stopping the throwaway stack failed: {}", e.toString());
      }
    }
  }
}
