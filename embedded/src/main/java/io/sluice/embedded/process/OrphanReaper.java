package io.sluice.embedded.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The child JVM {@link OrphanGuard} starts: it stops the native processes its parent started
 * (mariadbd, Prometheus) once the parent is gone, however the parent died. A SIGKILLed JVM runs no
 * shutdown hook, and its children are re-parented, not stopped; this process notices instead: its
 * stdin (a pipe from the parent) reaches end of file when the parent dies, and it checks the
 * parent's pid every second as well.
 *
 * <p>Protocol on stdin, one line each: {@code watch <pid> <start-epoch-ms>} and {@code forget
 * <pid>}. Only JDK classes and {@link EndsWithParent}, so it starts from the module's own classes
 * or jar alone.
 */
public final class OrphanReaper {
  /** How long a watched process gets to stop after SIGTERM before SIGKILL. */
  static final Duration GRACE = Duration.ofSeconds(10);

  private final Map<Long, Long> watched = new ConcurrentHashMap<>();

  private OrphanReaper() {}

  /**
   * @param args the parent's pid and its start time in epoch ms
   */
  public static void main(String[] args) throws InterruptedException {
    long parentPid = Long.parseLong(args[0]);
    long parentStart = Long.parseLong(args[1]);
    OrphanReaper reaper = new OrphanReaper();
    Thread reader = new Thread(reaper::readCommands, "orphan-reaper-stdin");
    reader.setDaemon(true);
    reader.start();
    while (reader.isAlive() && alive(parentPid, parentStart)) {
      reader.join(1_000);
    }
    reaper.reapAll();
    System.exit(0);
  }

  private void readCommands() {
    try (BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8))) {
      for (String line; (line = in.readLine()) != null; ) {
        String[] parts = line.strip().split(" ");
        if (parts.length == 3 && parts[0].equals("watch")) {
          watched.put(Long.parseLong(parts[1]), Long.parseLong(parts[2]));
        } else if (parts.length == 2 && parts[0].equals("forget")) {
          watched.remove(Long.parseLong(parts[1]));
        }
      }
    } catch (IOException | NumberFormatException e) {
      // The parent is gone or confused: reap what is known.
    }
  }

  private void reapAll() {
    watched.forEach(
        (pid, start) ->
            EndsWithParent.find(pid, start)
                .ifPresent(
                    p -> {
                      System.err.println("orphan reaper: stopping pid " + pid + " (parent gone)");
                      p.destroy();
                      try {
                        p.onExit().get(GRACE.toMillis(), TimeUnit.MILLISECONDS);
                      } catch (Exception e) {
                        p.destroyForcibly();
                      }
                    }));
  }

  private static boolean alive(long pid, long startMs) {
    return EndsWithParent.find(pid, startMs).isPresent();
  }
}
