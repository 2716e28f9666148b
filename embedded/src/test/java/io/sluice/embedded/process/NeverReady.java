package io.sluice.embedded.process;

import java.util.concurrent.CountDownLatch;

/**
 * Run in a child JVM by {@link ChildJvmIT}: prints two lines of start-up log and never {@code
 * READY}; with a number it then exits with that code, with {@code throw} it starts a non-daemon
 * thread (as a half-started broker leaves) and throws, with {@code slow-stop} it waits to be
 * stopped and its shutdown takes 2 s (as a client whose shutdown needs its broker), without one it
 * waits to be stopped.
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
    if (args.length > 0 && args[0].equals("slow-stop")) {
      Runtime.getRuntime().addShutdownHook(new Thread(NeverReady::stopSlowly, "slow-stop"));
      untilStopped();
      return;
    }
    if (args.length > 0) {
      System.exit(Integer.parseInt(args[0]));
    }
    untilStopped();
  }

  private static void stopSlowly() {
    System.out.println("never-ready: stopping, for 2 s");
    System.out.flush();
    try {
      Thread.sleep(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
