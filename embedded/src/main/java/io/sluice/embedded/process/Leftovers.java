package io.sluice.embedded.process;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Processes a killed stack left behind on a data dir: found by a mark only they carry on their
 * command line (mariadbd's {@code --datadir=<dir>}, Prometheus's storage path), stopped before a
 * new start needs the same files or ports.
 */
public final class Leftovers {
  private static final Logger log = LoggerFactory.getLogger(Leftovers.class);

  private static final Duration GRACE = Duration.ofSeconds(15);

  private Leftovers() {}

  /** Every running process, other than this one, whose command line contains {@code mark}. */
  public static List<ProcessHandle> find(String mark) {
    long self = ProcessHandle.current().pid();
    return ProcessHandle.allProcesses()
        .filter(p -> p.pid() != self)
        .filter(p -> p.info().commandLine().filter(c -> c.contains(mark)).isPresent())
        .toList();
  }

  /**
   * Stops each leftover {@code what} whose command line contains {@code mark} (SIGTERM, then
   * SIGKILL after 15 s), saying so in a WARN line each.
   *
   * @return how many there were
   */
  public static int stop(String mark, String what) {
    List<ProcessHandle> found = find(mark);
    for (ProcessHandle p : found) {
      log.warn(
          "Stopping a leftover {} (pid {}) of a stack that was killed: it still holds {}",
          what,
          p.pid(),
          mark);
      p.destroy();
      try {
        p.onExit().get(GRACE.toMillis(), TimeUnit.MILLISECONDS);
      } catch (Exception e) {
        log.warn(
            "{} (pid {}) did not stop within {} s: killing it", what, p.pid(), GRACE.toSeconds());
        p.destroyForcibly();
        p.onExit().join();
      }
    }
    return found.size();
  }
}
