package io.sluice.embedded.process;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One component of the stack in a JVM of its own that ends with this one, however this one ends: it
 * runs {@code java <options> -cp <classpath> EndsWithParent <main class> <args...>} (see {@link
 * EndsWithParent}) with its stdin a pipe this object holds, and stdout and stderr appended to a log
 * file. Keep the object for as long as the child should run.
 *
 * <p>A component says it is ready by printing one line to stdout: {@code READY key=value ...}
 * ({@link #awaitReady}).
 */
public final class ChildJvm implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(ChildJvm.class);

  private static final int TAIL_LINES = 20;

  private final String name;
  private final Process process;
  private final Path logFile;
  private final long logOffset;
  private final Duration stopGrace;
  private final Instant started;

  private ChildJvm(
      String name,
      Process process,
      Path logFile,
      long logOffset,
      Duration stopGrace,
      Instant started) {
    this.name = name;
    this.process = process;
    this.logFile = logFile;
    this.logOffset = logOffset;
    this.stopGrace = stopGrace;
    this.started = started;
  }

  /**
   * A child named {@code name} (in errors, logs and its command line as {@code -Dsluice.child})
   * that runs {@code mainClass}, logging to {@code logFile}.
   */
  public static Builder builder(String name, String mainClass, Path logFile) {
    return new Builder(name, mainClass, logFile);
  }

  public String name() {
    return name;
  }

  public long pid() {
    return process.pid();
  }

  public Path logFile() {
    return logFile;
  }

  public boolean isAlive() {
    return process.isAlive();
  }

  /**
   * Waits for the child's {@code READY} line, written after it started.
   *
   * @throws IllegalStateException when the child exits first or prints none within {@code timeout};
   *     the message names the child and quotes the end of its log
   */
  public ReadyLine awaitReady(Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    ChildLog scanner = new ChildLog(logFile, logOffset);
    try {
      while (true) {
        for (String line : scanner.newLines()) {
          if (ReadyLine.isReady(line)) {
            log.info(
                "{} (pid {}) ready in {} ms",
                name,
                pid(),
                Duration.between(started, Instant.now()).toMillis());
            return ReadyLine.parse(line);
          }
        }
        if (!process.isAlive()) {
          throw new IllegalStateException(
              name
                  + " (pid "
                  + pid()
                  + ") exited with code "
                  + process.exitValue()
                  + " before it printed READY; "
                  + tail());
        }
        if (System.nanoTime() > deadline) {
          throw new IllegalStateException(
              name
                  + " (pid "
                  + pid()
                  + ") printed no READY line within "
                  + timeout.toSeconds()
                  + " s; it is still running; "
                  + tail());
        }
        process.waitFor(100, TimeUnit.MILLISECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + name + " to be ready", e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the log of " + name + ", " + logFile, e);
    }
  }

  /**
   * Stops the child: SIGTERM (its shutdown hooks run), then SIGKILL if it still runs after the
   * grace period.
   *
   * @return its exit code: 143 or 0 after a clean stop (which one is a race in the JVM when the
   *     component's main has returned), 137 when it had to be killed
   */
  public int stop() {
    if (!process.isAlive()) {
      return exited();
    }
    process.destroy();
    try {
      if (!process.waitFor(stopGrace.toMillis(), TimeUnit.MILLISECONDS)) {
        log.warn(
            "{} (pid {}) did not stop within {} s of SIGTERM: killing it",
            name,
            pid(),
            stopGrace.toSeconds());
        return kill();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      process.destroyForcibly();
      throw new IllegalStateException("interrupted stopping " + name, e);
    }
    log.info("{} (pid {}) stopped, exit code {}", name, pid(), process.exitValue());
    return exited();
  }

  /**
   * Kills the child at once (SIGKILL: no shutdown hook runs) and waits for it to be gone.
   *
   * @return its exit code
   */
  public int kill() {
    process.destroyForcibly();
    try {
      process.waitFor();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted killing " + name, e);
    }
    return exited();
  }

  /** Waits up to {@code timeout} for the child to exit on its own; its exit code if it did. */
  public OptionalInt awaitExit(Duration timeout) {
    try {
      if (process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
        return OptionalInt.of(exited());
      }
      return OptionalInt.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted waiting for " + name + " to exit", e);
    }
  }

  /** {@link #stop()}. */
  @Override
  public void close() {
    stop();
  }

  private int exited() {
    try {
      process.getOutputStream().close();
    } catch (IOException e) {
      // Its end of the pipe is gone with it.
    }
    return process.exitValue();
  }

  private String tail() throws IOException {
    List<String> lines = new ChildLog(logFile, logOffset).newLines();
    List<String> tail = lines.subList(Math.max(0, lines.size() - TAIL_LINES), lines.size());
    return tail.isEmpty()
        ? "its log " + logFile + " is empty"
        : "last lines of " + logFile + ":\n  " + String.join("\n  ", tail);
  }

  /** How to launch one child JVM; {@link #start()} launches it. */
  public static final class Builder {
    private final String name;
    private final String mainClass;
    private final Path logFile;
    private final List<String> args = new ArrayList<>();
    private final List<String> jvmOptions = new ArrayList<>();
    private final Map<String, String> environment = new LinkedHashMap<>();
    private String heap = "256m";
    private String classpath = System.getProperty("java.class.path");
    private Duration stopGrace = Duration.ofSeconds(30);
    private ProcessHandle parent = ProcessHandle.current();

    private Builder(String name, String mainClass, Path logFile) {
      this.name = Objects.requireNonNull(name, "name");
      this.mainClass = Objects.requireNonNull(mainClass, "mainClass");
      this.logFile = Objects.requireNonNull(logFile, "logFile");
    }

    /** Arguments of the component's main. */
    public Builder args(String... values) {
      args.addAll(List.of(values));
      return this;
    }

    /** Maximum heap, as for {@code -Xmx}; 256m unless set. */
    public Builder heap(String value) {
      this.heap = value;
      return this;
    }

    /** A further JVM option, e.g. {@code -Dkey=value}. */
    public Builder jvmOption(String option) {
      jvmOptions.add(option);
      return this;
    }

    /** A variable of the child's environment, beside the ones it inherits from this JVM. */
    public Builder environment(String variable, String value) {
      environment.put(variable, value);
      return this;
    }

    /** The child's classpath; this JVM's {@code java.class.path} unless set. */
    public Builder classpath(String value) {
      this.classpath = value;
      return this;
    }

    /** How long {@link #stop()} waits after SIGTERM before SIGKILL; 30 s unless set. */
    public Builder stopGrace(Duration value) {
      this.stopGrace = value;
      return this;
    }

    /**
     * The child's clients carry {@code mark} on their command line (a JVM option of theirs, say):
     * when its parent is gone, the child exits only once none of them runs, at most 15 s later, so
     * that their shutdown still finds it ({@link EndsWithParent#OUTLIVES}).
     */
    public Builder outlives(String mark) {
      return jvmOption("-D" + EndsWithParent.OUTLIVES + "=" + mark);
    }

    /**
     * The process whose end ends the child as well as its pipe closing; this JVM unless set (tests
     * of the pid check).
     */
    Builder parent(ProcessHandle value) {
      this.parent = value;
      return this;
    }

    /** Launches the child; it appends to its log file, whose earlier content is kept. */
    public ChildJvm start() {
      List<String> command = new ArrayList<>();
      command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
      command.add("-Xmx" + heap);
      command.add("-D" + EndsWithParent.NAME + "=" + name);
      command.add("-D" + EndsWithParent.PARENT_PID + "=" + parent.pid());
      command.add("-D" + EndsWithParent.PARENT_START + "=" + startMillis(parent));
      command.addAll(jvmOptions);
      command.add("-cp");
      command.add(classpath);
      command.add(EndsWithParent.class.getName());
      command.add(mainClass);
      command.addAll(args);
      try {
        Path dir = logFile.toAbsolutePath().getParent();
        if (dir != null) {
          Files.createDirectories(dir);
        }
        long offset = Files.exists(logFile) ? Files.size(logFile) : 0;
        Instant started = Instant.now();
        ProcessBuilder builder =
            new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()));
        builder.environment().putAll(environment);
        Process process = builder.start();
        log.info("{} started (pid {}, log {})", name, process.pid(), logFile);
        return new ChildJvm(name, process, logFile, offset, stopGrace, started);
      } catch (IOException e) {
        throw new UncheckedIOException("cannot start " + name + " (" + mainClass + ")", e);
      }
    }

    private static long startMillis(ProcessHandle process) {
      return process
          .info()
          .startInstant()
          .map(Instant::toEpochMilli)
          .orElse(System.currentTimeMillis());
    }
  }
}
