package io.sluice.connect.upsert.sim;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A maintenance thread that runs nothing by itself: submitted work waits until the simulation runs
 * it ({@link #runQueued}), and periodic work runs when the simulation says a period passed ({@link
 * #tick}). So a maintenance pass happens exactly between two steps of the schedule.
 */
final class SimScheduler extends AbstractExecutorService implements ScheduledExecutorService {
  private final Deque<Runnable> queued = new ArrayDeque<>();
  private final List<Runnable> periodic = new ArrayList<>();
  private boolean shutdown;

  /** Queues every periodic job once (their period passed). */
  void tick() {
    if (!shutdown) {
      periodic.forEach(queued::add);
    }
  }

  /** Runs what is queued, including what that queues; how many ran. */
  int runQueued() {
    int ran = 0;
    while (!queued.isEmpty() && !shutdown) {
      queued.poll().run();
      ran++;
    }
    return ran;
  }

  @Override
  public void execute(Runnable command) {
    if (shutdown) {
      throw new RejectedExecutionException("shut down");
    }
    queued.add(command);
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(
      Runnable command, long initialDelay, long delay, TimeUnit unit) {
    periodic.add(command);
    return new NeverDone();
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(
      Runnable command, long initialDelay, long period, TimeUnit unit) {
    periodic.add(command);
    return new NeverDone();
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException("not used by the sink");
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException("not used by the sink");
  }

  @Override
  public void shutdown() {
    shutdown = true;
    queued.clear();
  }

  @Override
  public List<Runnable> shutdownNow() {
    List<Runnable> left = new ArrayList<>(queued);
    shutdown();
    return left;
  }

  @Override
  public boolean isShutdown() {
    return shutdown;
  }

  @Override
  public boolean isTerminated() {
    return shutdown;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return true;
  }

  private static final class NeverDone implements ScheduledFuture<Object> {
    @Override
    public long getDelay(TimeUnit unit) {
      return 0;
    }

    @Override
    public int compareTo(Delayed o) {
      return 0;
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      return false;
    }

    @Override
    public boolean isCancelled() {
      return false;
    }

    @Override
    public boolean isDone() {
      return false;
    }

    @Override
    public Object get() {
      throw new UnsupportedOperationException("periodic");
    }

    @Override
    public Object get(long timeout, TimeUnit unit) {
      throw new UnsupportedOperationException("periodic");
    }
  }
}
