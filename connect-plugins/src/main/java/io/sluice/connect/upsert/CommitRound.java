package io.sluice.connect.upsert;

import io.sluice.connect.upsert.commit.CommitListener;
import io.sluice.connect.upsert.commit.OffsetFenceException;
import io.sluice.connect.upsert.commit.PendingChanges;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;

/**
 * One commit round of an upsert sink task: the batch it commits, its own copy of the offsets
 * Iceberg holds (updated as its tables commit), and what the task applies on its own thread once
 * the round ended. The round's thread writes these; the task reads them only after {@link #finish}
 * returned (the future's completion orders the two).
 */
final class CommitRound implements CommitListener {
  /** A table the round committed, and when. */
  record Committed(TableIdentifier table, List<TopicPartition> partitions, long atNanos) {}

  /** A fenced table, and where its partitions' dropped records started. */
  record Fenced(
      TableIdentifier table, Map<TopicPartition, Long> firstOffsets, OffsetFenceException why) {}

  private final PendingChanges batch;
  private final Set<TopicPartition> partitions;
  private final Map<TopicPartition, Long> held;
  private final LongSupplier clock;
  private final List<Committed> committed = new ArrayList<>();
  private final List<Fenced> fenced = new ArrayList<>();
  private final FutureTask<Void> work;
  private long endedNanos;
  private Thread ranOn;

  /**
   * @param batch the records the round commits; the task reads on into another
   * @param held the offsets Iceberg holds now (copied)
   * @param clock the task's interval clock
   * @param commit commits the round's batch, telling the round of each table's outcome
   */
  CommitRound(
      PendingChanges batch,
      Map<TopicPartition, Long> held,
      LongSupplier clock,
      Consumer<CommitRound> commit) {
    this.batch = batch;
    this.partitions = Set.copyOf(batch.partitions().keySet());
    this.held = new HashMap<>(held);
    this.clock = clock;
    this.work =
        new FutureTask<>(
            () -> {
              commit.accept(this);
              endedNanos = clock.getAsLong();
              ranOn = Thread.currentThread();
            },
            null);
  }

  /** What the commit thread runs. */
  Runnable work() {
    return work;
  }

  boolean isDone() {
    return work.isDone();
  }

  /** Whether the round's batch had records of {@code tp} when it started. */
  boolean holds(TopicPartition tp) {
    return partitions.contains(tp);
  }

  PendingChanges batch() {
    return batch;
  }

  Map<TopicPartition, Long> held() {
    return held;
  }

  List<Committed> committed() {
    return committed;
  }

  List<Fenced> fenced() {
    return fenced;
  }

  long endedNanos() {
    return endedNanos;
  }

  /** Whether the calling thread ran the round (it read nothing while the round ran). */
  boolean ranOnThisThread() {
    return ranOn == Thread.currentThread();
  }

  @Override
  public void committed(TableIdentifier table, List<TopicPartition> partitions) {
    committed.add(new Committed(table, partitions, clock.getAsLong()));
  }

  @Override
  public void fenced(
      TableIdentifier table, List<TopicPartition> partitions, OffsetFenceException e) {
    // Out of the batch now: a retry of the round must not write it again.
    Map<TopicPartition, Long> first = new HashMap<>();
    partitions.forEach(
        tp -> {
          PendingChanges.Partition p = batch.partitions().get(tp);
          if (p != null && p.firstOffset() != Long.MAX_VALUE) {
            first.put(tp, p.firstOffset());
          }
        });
    batch.drop(partitions);
    fenced.add(new Fenced(table, first, e));
  }

  /**
   * Runs the round on the calling thread unless it started elsewhere, and waits for it.
   *
   * @throws RuntimeException the round's failure
   */
  void finish() {
    work.run();
    try {
      work.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectException("interrupted while waiting for a commit round", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof RuntimeException failure) {
        throw failure;
      }
      throw new ConnectException("commit round failed: " + e.getCause(), e.getCause());
    }
  }
}
