package io.sluice.embedded.process;

/**
 * Run in a child JVM by {@link ChildJvmIT}: prints two lines of start-up log and never {@code
 * READY}; with an argument it then exits with that code, without one it waits to be stopped.
 */
public final class NeverReady {
  private NeverReady() {}

  public static void main(String[] args) throws InterruptedException {
    System.out.println("never-ready: loading step 1 of 2");
    System.out.println("never-ready: step 2 hangs on purpose");
    System.out.flush();
    if (args.length > 0) {
      System.exit(Integer.parseInt(args[0]));
    }
    Thread.sleep(Long.MAX_VALUE);
  }
}
