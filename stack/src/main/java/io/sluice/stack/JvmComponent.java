package io.sluice.stack;

import io.sluice.embedded.process.ChildJvm;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Supplier;

/**
 * A component in a {@link ChildJvm}: a new JVM at every start, from a builder made afresh (its
 * config files are written again), ready when {@code ready} says so.
 */
final class JvmComponent implements Supervised {
  /** Waits until a started child answers; throws {@link StackStartException} otherwise. */
  @FunctionalInterface
  interface ReadyCheck {
    void await(ChildJvm child, Duration timeout);
  }

  private final Supplier<ChildJvm.Builder> builder;
  private final ReadyCheck ready;
  private final Path log;
  private volatile ChildJvm child;
  private volatile Integer exitCode;

  JvmComponent(Path log, Supplier<ChildJvm.Builder> builder, ReadyCheck ready) {
    this.log = log;
    this.builder = builder;
    this.ready = ready;
  }

  /** Ready once it printed its {@code READY} line. */
  static ReadyCheck readyLine() {
    return (child, timeout) -> {
      try {
        child.awaitReady(timeout);
      } catch (IllegalStateException e) {
        throw new StackStartException(e.getMessage(), e);
      }
    };
  }

  /** Ready once {@code readiness} passes; it fails at once, naming the log, if the JVM exits. */
  static ReadyCheck readiness(
      String component, java.util.function.Function<ChildJvm, Readiness> readiness) {
    return (child, timeout) ->
        new Readiness()
            .check(component, "its JVM (pid " + child.pid() + ") runs", () -> alive(child))
            .then(readiness.apply(child))
            .await(timeout);
  }

  private static boolean alive(ChildJvm child) {
    if (!child.isAlive()) {
      throw new StackStartException(
          child.name()
              + " (pid "
              + child.pid()
              + ") exited with code "
              + child.awaitExit(Duration.ZERO).orElse(-1)
              + " while starting; see its log "
              + child.logFile());
    }
    return true;
  }

  @Override
  public void start(Duration timeout) {
    ChildJvm started = builder.get().start();
    child = started;
    exitCode = null;
    try {
      ready.await(started, timeout);
    } catch (RuntimeException e) {
      exitCode = started.kill();
      throw e;
    }
  }

  @Override
  public int stop() {
    ChildJvm c = child;
    return c == null ? -1 : ended(c.stop());
  }

  @Override
  public int kill() {
    ChildJvm c = child;
    return c == null ? -1 : ended(c.kill());
  }

  private int ended(int code) {
    exitCode = code;
    return code;
  }

  @Override
  public OptionalLong pid() {
    ChildJvm c = child;
    return c != null && c.isAlive() ? OptionalLong.of(c.pid()) : OptionalLong.empty();
  }

  @Override
  public boolean alive() {
    ChildJvm c = child;
    return c != null && c.isAlive();
  }

  @Override
  public Integer exitCode() {
    ChildJvm c = child;
    if (exitCode == null && c != null && !c.isAlive()) {
      OptionalInt code = c.awaitExit(Duration.ZERO);
      if (code.isPresent()) {
        exitCode = code.getAsInt();
      }
    }
    return exitCode;
  }

  @Override
  public Path log() {
    return log;
  }
}
