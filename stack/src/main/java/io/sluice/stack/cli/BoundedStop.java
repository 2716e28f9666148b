package io.sluice.stack.cli;

import io.sluice.embedded.EmbeddedConnect;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Stops a stack within a time limit. The stop runs on a thread of its own; when it has not ended
 * within the limit, the stacks of the threads still stopping are logged (the evidence of what
 * hung), every process this JVM started is killed (SIGKILL: MariaDB, Prometheus, child JVMs, so
 * none outlives {@code sluice up}), and the caller's {@code onOverrun} ends the JVM. A forced end
 * is a crash to the components: Kafka, MariaDB and the sinks recover from one on the next start.
 */
final class BoundedStop {

  private static final Logger log = LoggerFactory.getLogger(BoundedStop.class);

  private static final Duration KILL_WAIT = Duration.ofSeconds(10);
  private static final int FRAMES = 25;

  private BoundedStop() {}

  /**
   * Closes {@code stack} on a new thread and waits at most {@code limit}; returns true when it
   * stopped in time. Otherwise logs what still runs, kills this JVM's descendant processes and runs
   * {@code onOverrun} (which may not return: {@code sluice up} halts the JVM there).
   */
  static boolean stop(AutoCloseable stack, Duration limit, Runnable onOverrun) {
    Thread closer =
        new Thread(
            () -> {
              try {
                stack.close();
              } catch (Exception e) {
                log.warn("Stopping the stack failed: {}", e.toString());
              }
            },
            "sluice-stack-stop");
    closer.start();
    try {
      closer.join(limit.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (!closer.isAlive()) {
      return true;
    }
    log.warn(
        "The stack did not stop within {} s; killing its processes and ending. Still stopping:{}",
        limit.toSeconds(),
        stacksOf(List.of(closer.getName(), EmbeddedConnect.CONNECT_SHUTDOWN_HOOK)));
    killDescendants();
    onOverrun.run();
    return false;
  }

  /** The stacks (frames only, never data) of the live threads of these names. */
  static String stacksOf(List<String> names) {
    StringBuilder out = new StringBuilder();
    Thread.getAllStackTraces()
        .forEach(
            (thread, frames) -> {
              if (names.contains(thread.getName()) && thread.isAlive()) {
                out.append(System.lineSeparator())
                    .append("  thread ")
                    .append(thread.getName())
                    .append(" (")
                    .append(thread.getState())
                    .append("):")
                    .append(
                        Arrays.stream(frames)
                            .limit(FRAMES)
                            .map(f -> System.lineSeparator() + "    at " + f)
                            .collect(Collectors.joining()));
              }
            });
    return out.toString();
  }

  /** SIGKILLs every process this JVM started (and theirs) and waits until they are gone. */
  static void killDescendants() {
    List<ProcessHandle> children = ProcessHandle.current().descendants().toList();
    children.forEach(ProcessHandle::destroyForcibly);
    long deadline = System.nanoTime() + KILL_WAIT.toNanos();
    for (ProcessHandle child : children) {
      long left = deadline - System.nanoTime();
      try {
        child.onExit().get(Math.max(0, left), TimeUnit.NANOSECONDS);
      } catch (Exception e) {
        log.warn(
            "Process {} did not end within {} s of SIGKILL", child.pid(), KILL_WAIT.toSeconds());
      }
    }
    log.warn("Killed {} process(es) the stack had started", children.size());
  }
}
