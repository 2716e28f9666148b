package io.sluice.scenarios.fault;

import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.stack.db.DeleteStormWorkload;
import io.sluice.stack.db.OrdersWorkload;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The workload a fault runs under: {@code rounds} rounds on {@code cdc_lab.orders}, one after
 * another on a thread of its own, each inserting rows of its own seed, updating a third and
 * deleting a fifth of them ({@link OrdersWorkload}), or (delete-storm) each deleting, updating and
 * re-inserting keys of one pool ({@link DeleteStormWorkload}), with a pause between rounds;
 * optionally one poison record (JSON, not Avro) on the main topic every few rounds. What the rounds
 * write depends on the seed only, never on timing, so a run's final table and its sha256 do too.
 */
final class SteadyWorkload implements AutoCloseable {
  /** Round seeds are {@code seed * ROUND_SEEDS + round}: ids of different runs never collide. */
  static final int ROUND_SEEDS = 1_000;

  /** The largest seed whose round seeds still fit an int. */
  static final int MAX_SEED = Integer.MAX_VALUE / ROUND_SEEDS - 1;

  private final ScenarioStack stack;
  private final FaultScenario.Settings settings;
  private final AtomicInteger roundsDone = new AtomicInteger();
  private final AtomicReference<Exception> failure = new AtomicReference<>();
  private final List<ProducerMetadata> poison = Collections.synchronizedList(new ArrayList<>());
  private final Thread thread;
  private final ReentrantLock round = new ReentrantLock();
  private final boolean deleteStorm;
  private volatile boolean stopped;
  private volatile long lastEventId;

  SteadyWorkload(
      ScenarioStack stack,
      FaultScenario.Settings settings,
      boolean withPoison,
      boolean deleteStorm) {
    this.stack = stack;
    this.settings = settings;
    this.deleteStorm = deleteStorm;
    this.thread = new Thread(() -> run(withPoison), "fault-workload");
    thread.setDaemon(true);
  }

  /** The seed of round {@code round} (1-based) of {@code seed}. */
  static int roundSeed(int seed, int round) {
    return seed * ROUND_SEEDS + round;
  }

  /** The poison record sent after {@code round}: JSON, not the Confluent wire format. */
  static byte[] poisonValue(int round) {
    return ("{\"poison_after_round\": " + round + ", \"why\": \"JSON, not Avro\"}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** The delete storm's seed: round 0 of {@code seed}, which no steady round uses. */
  static int stormSeed(int seed) {
    return roundSeed(seed, 0);
  }

  /** The delete storm's pool: four rounds' worth of rows. */
  int stormKeys() {
    return (int) Math.min(Integer.MAX_VALUE / 2, settings.rowsPerRound() * 4);
  }

  void start() {
    thread.start();
  }

  int roundsDone() {
    return roundsDone.get();
  }

  /** Rounds done, or a failure of the workload (the run cannot prove anything then). */
  void check() {
    Exception e = failure.get();
    if (e != null) {
      throw new ScenarioFailure("the workload failed in round " + (roundsDone() + 1) + ": " + e, e);
    }
  }

  /** Waits until round {@code round} is done; fails when the workload failed or ended first. */
  void awaitRound(int round, Duration timeout) {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (roundsDone() < round) {
      check();
      if (!thread.isAlive() && roundsDone() < round) {
        throw new ScenarioFailure("the workload ended before round " + round);
      }
      if (System.nanoTime() > deadline) {
        throw new ScenarioFailure(
            "round " + round + " of the workload not done within " + timeout.toSeconds() + " s");
      }
      pause(Duration.ofMillis(50));
    }
  }

  /** Waits for the last round and the row after it. */
  void awaitDone(Duration timeout) {
    awaitRound(settings.rounds(), timeout);
    try {
      thread.join(TimeUnit.SECONDS.toMillis(10));
      check();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScenarioFailure("interrupted waiting for the workload", e);
    }
  }

  /**
   * Runs {@code action} between two rounds, the workload held meanwhile: for a fault that takes the
   * source down too (a machine crash takes its applications with it).
   */
  <T> T betweenRounds(Callable<T> action) throws Exception {
    round.lock();
    try {
      return action.call();
    } finally {
      round.unlock();
    }
  }

  /** The event id of the row written after the last round. */
  long lastEventId() {
    return lastEventId;
  }

  /** Where each poison record landed, in the order sent. */
  List<ProducerMetadata> poison() {
    return List.copyOf(poison);
  }

  private void run(boolean withPoison) {
    DeleteStormWorkload storm =
        deleteStorm ? new DeleteStormWorkload(stormSeed(settings.run().seed()), stormKeys()) : null;
    try (KafkaProducer<byte[], byte[]> producer =
        withPoison ? stack.producer("sluice-verify-fault-poison") : null) {
      for (int round = 1; round <= settings.rounds() && !stopped; round++) {
        long rows = settings.rowsPerRound();
        this.round.lock();
        try (Connection c = stack.connect()) {
          lastEventId =
              storm != null
                  ? storm.round(c).lastEventId()
                  : new OrdersWorkload(roundSeed(settings.run().seed(), round))
                      .run(c, rows, rows / 3, rows / 5, line -> {})
                      .lastEventId();
        } finally {
          this.round.unlock();
        }
        if (producer != null && round % settings.poisonEvery() == 0) {
          byte[] value = poisonValue(round);
          poison.add(
              ProducerMetadata.of(
                  producer
                      .send(new ProducerRecord<>(ScenarioStack.MAIN_TOPIC, null, value))
                      .get()));
        }
        roundsDone.incrementAndGet();
        pause(settings.roundPause());
      }
      // One row after the last round, which no later statement touches: its event id is in both
      // tables once the lake caught up with everything before it.
      try (Connection c = stack.connect()) {
        lastEventId =
            new OrdersWorkload(roundSeed(settings.run().seed(), settings.rounds() + 1))
                .run(c, 1, 0, 0, line -> {})
                .lastEventId();
      }
    } catch (Exception e) {
      failure.set(e);
    }
  }

  /** The workload's pace: its pause between rounds is the load's shape, not a wait for anything. */
  private static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  @Override
  public void close() {
    stopped = true;
    thread.interrupt();
  }
}
