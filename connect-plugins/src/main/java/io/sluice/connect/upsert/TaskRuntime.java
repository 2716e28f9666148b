package io.sluice.connect.upsert;

import io.sluice.connect.upsert.quarantine.QuarantineClients;
import java.time.Clock;
import java.util.concurrent.Executor;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What an upsert sink task takes from its surroundings: the clocks, how it waits between commit
 * attempts, the quarantine's Kafka clients, the thread its table maintenance runs on and the one
 * its commits run on. Connect's task uses {@link #SYSTEM}; tests hand in deterministic ones (a
 * simulation drives every clock and runs maintenance passes and commits when its schedule says so).
 *
 * @param intervalClock monotonic nanoseconds of the commit and idle-commit intervals
 * @param retryClock monotonic nanoseconds of the retry deadline ({@code errors.sink.retry.timeout})
 * @param wallClock wall time: snapshot and file ages, quarantine timestamps
 * @param sleeper waits between commit attempts
 * @param maintenanceThread makes the maintenance's single thread, given its name
 * @param commitThread makes the executor of the task's commit rounds, given its name: one round at
 *     a time, while the task reads the next batch; an {@link java.util.concurrent.ExecutorService}
 *     is shut down when the task stops
 */
public record TaskRuntime(
    LongSupplier intervalClock,
    LongSupplier retryClock,
    Clock wallClock,
    Sleeper sleeper,
    QuarantineClients clients,
    Function<String, ScheduledExecutorService> maintenanceThread,
    Function<String, Executor> commitThread) {

  /** Waits a number of milliseconds. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(long ms) throws InterruptedException;
  }

  /** The real clocks, {@link Thread#sleep}, Kafka clients and daemon threads. */
  public static final TaskRuntime SYSTEM =
      new TaskRuntime(
          System::nanoTime,
          System::nanoTime,
          Clock.systemUTC(),
          Thread::sleep,
          QuarantineClients.KAFKA,
          TaskRuntime::daemonThread,
          TaskRuntime::commitDaemon);

  /**
   * {@link #SYSTEM} with another commit-interval clock and quarantine clients, and each commit
   * round run by the call that starts it (tests that check the lake right after a {@code put}).
   */
  public static TaskRuntime of(LongSupplier intervalClock, QuarantineClients clients) {
    return new TaskRuntime(
        intervalClock,
        System::nanoTime,
        Clock.systemUTC(),
        Thread::sleep,
        clients,
        TaskRuntime::daemonThread,
        name -> Runnable::run);
  }

  /** This runtime with {@code commitThread} making the commit rounds' executor (tests). */
  public TaskRuntime withCommitThread(Function<String, Executor> commitThread) {
    return new TaskRuntime(
        intervalClock, retryClock, wallClock, sleeper, clients, maintenanceThread, commitThread);
  }

  private static Executor commitDaemon(String name) {
    return Executors.newSingleThreadExecutor(daemon(name));
  }

  private static ScheduledExecutorService daemonThread(String name) {
    return Executors.newSingleThreadScheduledExecutor(daemon(name));
  }

  private static ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }
}
