package io.sluice.embedded.process;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.locks.LockSupport;

/**
 * Run in a child JVM by {@link ChildJvmIT}: prints two lines of start-up log and never {@code
 * READY}; with a number it then exits with that code, with {@code throw} it starts a non-daemon
 * thread (as a half-started broker leaves) and throws, with {@code slow-stop <file>} it waits to be
 * stopped and its shutdown waits until {@code file} says its broker waits for it (as a client whose
 * shutdown needs its broker), without one it waits to be stopped.
 */
public final class NeverReady {
  private NeverReady() {}

  public static void main(String[] args) {
    System.out.println("never-ready: loading step 1 of 2");
    System.out.println("never-ready: step 2 hangs on purpose");
    System.out.flush();
    if (args.length > 0 && args[0].equals("throw")) {
      Thread lingering = new Thread(NeverReady::untilStopped, "lingering-non-daemon");
      lingering.start();
      throw new IllegalStateException("cannot bind 127.0.0.1:1 (on purpose)");
    }
    if (args.length > 1 && args[0].equals("slow-stop")) {
      Path brokerLog = Path.of(args[1]);
      Runtime.getRuntime()
          .addShutdownHook(new Thread(() -> stopAfterBroker(brokerLog), "slow-stop"));
      untilStopped();
      return;
    }
    if (args.length > 0) {
      System.exit(Integer.parseInt(args[0]));
    }
    untilStopped();
  }

  /**
   * Shuts down only once the broker's log says it waits for this process (at most 10 s), so the
   * broker provably outlives its client's shutdown.
   */
  private static void stopAfterBroker(Path brokerLog) {
    System.out.println("never-ready: stopping once the broker waits for me");
    System.out.flush();
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (System.nanoTime() < deadline && !brokerWaits(brokerLog)) {
      LockSupport.parkNanos(20_000_000L);
    }
  }

  private static boolean brokerWaits(Path brokerLog) {
    try {
      return Files.readString(brokerLog).contains("first waiting for");
    } catch (IOException e) {
      return false;
    }
  }

  /** Blocks until the JVM is stopped from outside (the test's stop() or kill()). */
  private static void untilStopped() {
    try {
      new CountDownLatch(1).await();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
