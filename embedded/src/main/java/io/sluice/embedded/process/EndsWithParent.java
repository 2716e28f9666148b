package io.sluice.embedded.process;

import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The main class of every {@link ChildJvm}: it makes the component it runs end with the JVM that
 * started it, however that JVM ends. A SIGKILLed parent runs no shutdown hook and its children are
 * re-parented, not stopped; so this wrapper watches two things from daemon threads: its stdin (a
 * pipe the parent holds, which reaches end of file when the parent dies) and the parent's pid
 * (checked every second, with its start time against pid reuse). When either says the parent is
 * gone it writes one line to stderr and calls {@code System.exit(0)}, so the component's shutdown
 * hooks stop it cleanly; a component that has not exited {@link #HALT_AFTER} later is halted. A
 * component whose main throws exits with code 1, even if it left threads running. A component that
 * others need for their own shutdown (a broker) can be told to outlive them ({@link #OUTLIVES}).
 *
 * <p>Usage: {@code java -Dsluice.parent.pid=<pid> -Dsluice.parent.start=<epoch-ms>
 * io.sluice.embedded.process.EndsWithParent <main class> <args...>}. JDK classes only: a Connect
 * worker starts it from a {@code connect-launcher/} directory of {@code EndsWithParent*.class}
 * alone, and {@code EndsWithParentLauncherTest} fails when it needs more.
 */
public final class EndsWithParent {
  /** The parent's pid; without it only stdin is watched. */
  public static final String PARENT_PID = "sluice.parent.pid";

  /** The parent's start time in epoch ms, to tell it from a later process with its pid. */
  public static final String PARENT_START = "sluice.parent.start";

  /** The component's name, for the one line this class writes. */
  public static final String NAME = "sluice.child";

  /** How long the component's shutdown hooks get before the JVM is halted. */
  static final Duration HALT_AFTER = Duration.ofSeconds(20);

  /**
   * A mark on the command lines of the processes whose shutdown needs this component: once the
   * parent is gone, the component exits only when no other process carrying the mark (followed by a
   * space, or last) runs, or {@link #OUTLIVE_AT_MOST} later. A broker whose children all learn at
   * once that their parent died would otherwise stop first, and its clients (a Connect worker, a
   * router committing its transaction) would hang in their shutdown hooks until the halt.
   */
  public static final String OUTLIVES = "sluice.outlives";

  /** How long a component waits for the processes it outlives. */
  static final Duration OUTLIVE_AT_MOST = Duration.ofSeconds(15);

  private static final Duration POLL = Duration.ofSeconds(1);
  private static final Duration OUTLIVE_POLL = Duration.ofMillis(100);
  private static final AtomicBoolean exiting = new AtomicBoolean();

  private EndsWithParent() {}

  public static void main(String[] args) throws ReflectiveOperationException {
    if (args.length == 0) {
      throw new IllegalArgumentException(
          "usage: EndsWithParent <main class> <args...> (the component to run is missing)");
    }
    Method main = mainOf(args[0]);
    String pid = System.getProperty(PARENT_PID);
    long parentPid = pid == null ? -1 : Long.parseLong(pid);
    long parentStart = Long.parseLong(System.getProperty(PARENT_START, "0"));
    daemon("parent-stdin", EndsWithParent::readUntilEndOfFile);
    if (parentPid > 0) {
      daemon("parent-pid", () -> pollParent(parentPid, parentStart));
    }
    try {
      main.invoke(null, (Object) Arrays.copyOfRange(args, 1, args.length));
    } catch (InvocationTargetException e) {
      // A main that failed may have left non-daemon threads (a half-started broker) that would
      // keep a dead component's JVM running: report it as the JVM would, then exit.
      Thread self = Thread.currentThread();
      self.getUncaughtExceptionHandler().uncaughtException(self, e.getCause());
      exit(1);
    }
  }

  private static Method mainOf(String className) throws ReflectiveOperationException {
    Method main = Class.forName(className).getMethod("main", String[].class);
    if (!Modifier.isStatic(main.getModifiers())) {
      throw new IllegalArgumentException(className + ".main(String[]) is not static");
    }
    return main;
  }

  private static void readUntilEndOfFile() {
    byte[] buffer = new byte[256];
    try {
      InputStream in = System.in;
      while (in.read(buffer) >= 0) {
        // The parent sends nothing; bytes, if any, are ignored.
      }
      parentGone("its pipe to this process reached end of file");
    } catch (IOException e) {
      parentGone("its pipe to this process broke (" + e.getMessage() + ")");
    }
  }

  private static void pollParent(long pid, long startMs) {
    while (find(pid, startMs).isPresent()) {
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        return;
      }
    }
    parentGone("pid " + pid + " no longer runs");
  }

  /**
   * The process {@code pid} if it runs and started at {@code startMs} (a pid may be reused). Here,
   * not in {@link OrphanReaper} which uses it too, because the launcher directory of a Connect
   * worker holds only {@code EndsWithParent*.class}: anything else this class calls is missing
   * there.
   */
  static Optional<ProcessHandle> find(long pid, long startMs) {
    return ProcessHandle.of(pid)
        .filter(ProcessHandle::isAlive)
        .filter(
            p ->
                p.info()
                    .startInstant()
                    .map(Instant::toEpochMilli)
                    .map(s -> Math.abs(s - startMs) < 1_000)
                    .orElse(true));
  }

  private static void parentGone(String why) {
    if (!exiting.compareAndSet(false, true)) {
      return;
    }
    System.err.println(
        "sluice "
            + System.getProperty(NAME, "child")
            + " (pid "
            + ProcessHandle.current().pid()
            + "): parent gone, "
            + why
            + "; exiting");
    System.err.flush();
    String mark = System.getProperty(OUTLIVES, "");
    if (!mark.isEmpty()) {
      outlive(mark);
    }
    exit(0);
  }

  /** Waits until no other process carrying {@code mark} runs, at most {@link #OUTLIVE_AT_MOST}. */
  private static void outlive(String mark) {
    long deadline = System.nanoTime() + OUTLIVE_AT_MOST.toNanos();
    long others = carrying(mark);
    if (others > 0) {
      System.err.println(
          "sluice "
              + System.getProperty(NAME, "child")
              + ": first waiting for the "
              + others
              + " other process(es) of "
              + mark
              + " to end (at most "
              + OUTLIVE_AT_MOST.toSeconds()
              + " s)");
      System.err.flush();
    }
    while (others > 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(OUTLIVE_POLL.toMillis());
      } catch (InterruptedException e) {
        return;
      }
      others = carrying(mark);
    }
  }

  /** How many processes other than this one carry {@code mark} on their command line. */
  static long carrying(String mark) {
    long self = ProcessHandle.current().pid();
    return ProcessHandle.allProcesses()
        .filter(p -> p.pid() != self)
        .filter(
            p ->
                p.info()
                    .commandLine()
                    .filter(c -> c.contains(mark + " ") || c.endsWith(mark))
                    .isPresent())
        .count();
  }

  /** {@code System.exit}, and a halt if the shutdown hooks still run {@link #HALT_AFTER} later. */
  private static void exit(int code) {
    daemon(
        "halt-after-exit",
        () -> {
          try {
            Thread.sleep(HALT_AFTER.toMillis());
          } catch (InterruptedException e) {
            return;
          }
          System.err.println(
              "sluice "
                  + System.getProperty(NAME, "child")
                  + ": shutdown hooks still running after "
                  + HALT_AFTER.toSeconds()
                  + " s; halting");
          Runtime.getRuntime().halt(1);
        });
    System.exit(code);
  }

  private static void daemon(String name, Runnable body) {
    Thread thread = new Thread(body, name);
    thread.setDaemon(true);
    thread.start();
  }
}
