package io.sluice.tools.monitor;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One part of the monitor's refresh (Kafka, or Iceberg), run by the scheduler at a fixed delay: its
 * success and failure go to its meters and its {@link Status}, which {@code /health} shows. A
 * failure is logged once until the part recovers, and retried at the next run.
 */
final class RefreshTask implements Runnable {
  private static final Logger log = LoggerFactory.getLogger(RefreshTask.class);

  /** A part's state as {@code /health} shows it. */
  record Status(String state, Instant lastRefresh, int watched, String error) {
    static final Status STARTING = new Status("STARTING", null, 0, null);

    boolean up() {
      return state.equals("RUNNING");
    }

    /** Adds {@code last_refresh}, {@code <watchedKey>} and {@code error}, as far as known. */
    void describeInto(ObjectNode body, String watchedKey) {
      if (lastRefresh != null) {
        body.put("last_refresh", lastRefresh.toString());
        body.put(watchedKey, watched);
      }
      if (error != null) {
        body.put("error", error);
      }
    }
  }

  private final String name;
  private final String watchedName;
  private final IntSupplier work;
  private final Consumer<Instant> refreshed;
  private final Runnable failed;
  private final Duration interval;
  private final Clock clock;
  private final BooleanSupplier closed;
  private volatile Status status = Status.STARTING;

  /**
   * @param name the part, for logs
   * @param watchedName what {@code work} returns the number of, for logs ("DLQ topic(s)")
   * @param work one refresh; returns the number of things watched, throws when it failed
   * @param refreshed told when a refresh completed
   * @param failed told when a refresh failed
   * @param interval the delay between runs, for logs
   * @param closed true once the monitor closes: a failure then is the close, not a fault
   */
  RefreshTask(
      String name,
      String watchedName,
      IntSupplier work,
      Consumer<Instant> refreshed,
      Runnable failed,
      Duration interval,
      Clock clock,
      BooleanSupplier closed) {
    this.name = name;
    this.watchedName = watchedName;
    this.work = work;
    this.refreshed = refreshed;
    this.failed = failed;
    this.interval = interval;
    this.clock = clock;
    this.closed = closed;
  }

  Status status() {
    return status;
  }

  @Override
  public void run() {
    if (closed.getAsBoolean()) {
      return;
    }
    try {
      int watched = work.getAsInt();
      Instant now = clock.instant();
      refreshed.accept(now);
      if (!status.up()) {
        log.info("{} refresh done: {} {} watched", name, watched, watchedName);
      }
      status = new Status("RUNNING", now, watched, null);
    } catch (RuntimeException e) {
      if (closed.getAsBoolean()) {
        return;
      }
      failed.run();
      String error = describe(e);
      if (status.error() == null) {
        log.warn("{} refresh failed, retrying every {} ms: {}", name, interval.toMillis(), error);
      } else {
        log.debug("{} refresh failed again: {}", name, error);
      }
      status = new Status("FAILING", status.lastRefresh(), status.watched(), error);
    } catch (Error e) {
      // An Error ends the scheduled task silently; make it visible before it does.
      log.error("{} refresh stopped by {}", name, e.toString());
      status = new Status("STOPPED", status.lastRefresh(), status.watched(), e.toString());
      throw e;
    }
  }

  /** The message of {@code e} and of its causes, each once: for logs and /health. */
  static String describe(Throwable e) {
    StringBuilder message = new StringBuilder(String.valueOf(e.getMessage()));
    for (Throwable cause = e.getCause(); cause != null; cause = cause.getCause()) {
      if (cause.getMessage() != null && !message.toString().contains(cause.getMessage())) {
        message.append(": ").append(cause.getMessage());
      }
    }
    return message.toString();
  }
}
