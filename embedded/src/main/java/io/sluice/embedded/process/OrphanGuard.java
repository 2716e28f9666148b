package io.sluice.embedded.process;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes the native processes this JVM starts (mariadbd, Prometheus) end with it, however it ends: a
 * normal close stops them itself, and for a JVM that is SIGKILLed (the OOM killer, {@code kill -9})
 * one {@link OrphanReaper} child JVM per process stops every watched one when it sees this JVM
 * gone. Started on the first {@link #watch}; {@code -Dsluice.orphan.guard=false} turns it off
 * (tests that need a leftover).
 */
public final class OrphanGuard {
  private static final Logger log = LoggerFactory.getLogger(OrphanGuard.class);

  private static Process reaper;
  private static OutputStream commands;

  private OrphanGuard() {}

  /** Stops {@code process} when this JVM is gone, unless {@link #forget} comes first. */
  public static synchronized void watch(ProcessHandle process, String what) {
    if (!Boolean.parseBoolean(System.getProperty("sluice.orphan.guard", "true"))) {
      return;
    }
    long start =
        process.info().startInstant().map(Instant::toEpochMilli).orElse(System.currentTimeMillis());
    if (send("watch " + process.pid() + " " + start)) {
      log.debug("{} (pid {}) ends with this JVM, however it ends", what, process.pid());
    }
  }

  /** {@code process} stopped (or is stopping) on its own: nothing to reap. */
  public static synchronized void forget(ProcessHandle process) {
    if (reaper != null) {
      send("forget " + process.pid());
    }
  }

  private static boolean send(String line) {
    try {
      if (reaper == null || !reaper.isAlive()) {
        reaper = start();
        commands = reaper.getOutputStream();
      }
      commands.write((line + "\n").getBytes(StandardCharsets.UTF_8));
      commands.flush();
      return true;
    } catch (IOException e) {
      log.warn(
          "Cannot reach the orphan reaper ({}): a SIGKILL of this JVM would leave its native"
              + " processes running; the next start stops them",
          e.toString());
      return false;
    }
  }

  private static Process start() throws IOException {
    ProcessHandle self = ProcessHandle.current();
    long started =
        self.info().startInstant().map(Instant::toEpochMilli).orElse(System.currentTimeMillis());
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx16m",
                "-XX:TieredStopAtLevel=1",
                "-cp",
                ownClasses(),
                OrphanReaper.class.getName(),
                String.valueOf(self.pid()),
                String.valueOf(started))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    log.debug("Orphan reaper started (pid {})", process.pid());
    return process;
  }

  /** The directory or jar this class was loaded from: the reaper needs nothing else. */
  private static String ownClasses() {
    try {
      return Path.of(OrphanGuard.class.getProtectionDomain().getCodeSource().getLocation().toURI())
          .toString();
    } catch (URISyntaxException e) {
      throw new UncheckedIOException(new IOException("cannot locate the orphan reaper", e));
    }
  }
}
