package io.sluice.connect.upsert;

import io.sluice.connect.upsert.quarantine.QuarantineClients;
import java.time.Clock;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * What an upsert sink task takes from its surroundings: the clocks, how it waits between commit
 * attempts, the quarantine's Kafka clients and the thread its table maintenance runs on. Connect's
 * task uses {@link #SYSTEM}; tests hand in deterministic ones (a simulation drives every clock and
 * runs maintenance passes when its schedule says so).
 *
 * @param intervalClock monotonic nanoseconds of the commit and idle-commit intervals
 * @param retryClock monotonic nanoseconds of the retry deadline ({@code errors.sink.retry.timeout})
 * @param wallClock wall time: snapshot and file ages, quarantine timestamps
 * @param sleeper waits between commit attempts
 * @param maintenanceThread makes the maintenance's single thread, given its name
 */
public record TaskRuntime(
    LongSupplier intervalClock,
    LongSupplier retryClock,
    Clock wallClock,
    Sleeper sleeper,
    QuarantineClients clients,
    Function<String, ScheduledExecutorService> maintenanceThread) {

  /** Waits a number of milliseconds. */
  @FunctionalInterface
  public interface Sleeper {
    void sleep(long ms) throws InterruptedException;
  }

  /** The real clocks, {@link Thread#sleep}, Kafka clients and a daemon thread. */
  public static final TaskRuntime SYSTEM =
      new TaskRuntime(
          System::nanoTime,
          System::nanoTime,
          Clock.systemUTC(),
          Thread::sleep,
          QuarantineClients.KAFKA,
          TaskRuntime::daemonThread);

  /** {@link #SYSTEM} with another commit-interval clock and quarantine clients (tests). */
  public static TaskRuntime of(LongSupplier intervalClock, QuarantineClients clients) {
    return new TaskRuntime(
        intervalClock,
        System::nanoTime,
        Clock.systemUTC(),
        Thread::sleep,
        clients,
        TaskRuntime::daemonThread);
  }

  private static ScheduledExecutorService daemonThread(String name) {
    return Executors.newSingleThreadScheduledExecutor(
        r -> {
          Thread t = new Thread(r, name);
          t.setDaemon(true);
          return t;
        });
  }
}
