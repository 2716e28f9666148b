package io.sluice.connect.upsert.sim;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Executor;

/**
 * A task's commit thread that runs nothing by itself: a round the task starts stays in flight while
 * the schedule goes on (the task polls and puts, rebalances, other writers commit), until the
 * simulation runs it ({@link #runQueued}) or the task waits for it (the task then runs it itself).
 * In the end phases it runs each round as it starts ({@link #immediate}).
 */
final class SimCommitThread implements Executor {
  private final Deque<Runnable> queued = new ArrayDeque<>();
  private boolean immediate;
  private boolean dead;

  @Override
  public void execute(Runnable round) {
    if (dead) {
      return;
    }
    if (immediate) {
      round.run();
    } else {
      queued.add(round);
    }
  }

  boolean inFlight() {
    return !queued.isEmpty();
  }

  /** Runs the rounds in flight (one at most: the task waits for a round before the next). */
  void runQueued() {
    while (!queued.isEmpty() && !dead) {
      queued.poll().run();
    }
  }

  /** From now on each round runs as it starts; the one in flight runs now. */
  void immediate() {
    immediate = true;
    runQueued();
  }

  /** The process dies: a round in flight never reaches the lake. */
  void kill() {
    dead = true;
    queued.clear();
  }
}
