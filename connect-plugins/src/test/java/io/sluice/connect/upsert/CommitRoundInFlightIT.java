package io.sluice.connect.upsert;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;
import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.connect.testing.Lake;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A commit round in flight on the task's commit thread while the task goes on: its commit thread
 * here runs a round only when the test says so (or when the task waits for it), so the test puts
 * records, revokes partitions and lets other writers commit between the start of a round and its
 * end. Real JdbcCatalog on SQLite, read back with Iceberg's generic reader.
 */
class CommitRoundInFlightIT {
  private static final String TOPIC = "broker.cdc_lab.orders.clean";
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
  private static final TopicPartition P1 = new TopicPartition(TOPIC, 1);
  private static final String CONNECTOR = "orders-upsert";

  @TempDir Path dir;
  private Lake lake;
  private final List<SinkHarness> harnesses = new ArrayList<>();

  /** A commit thread that runs nothing until told. */
  private static final class HeldRounds implements Executor {
    private final Deque<Runnable> rounds = new ArrayDeque<>();

    @Override
    public void execute(Runnable round) {
      rounds.add(round);
    }

    int inFlight() {
      return rounds.size();
    }

    void land() {
      while (!rounds.isEmpty()) {
        rounds.poll().run();
      }
    }
  }

  @BeforeEach
  void openLake() {
    lake = new Lake(dir);
  }

  @AfterEach
  void closeAll() throws Exception {
    harnesses.forEach(SinkHarness::stop);
    lake.close();
  }

  @Test
  void theTaskReadsTheNextBatchWhileARoundIsInFlight() {
    HeldRounds rounds = new HeldRounds();
    SinkHarness task = start(rounds);
    task.put(upsert(0, 0, 1, "ann"), upsert(0, 1, 2, "bob"));
    task.commit();
    assertThat(rounds.inFlight()).isEqualTo(1);

    task.clock.addAndGet(400_000_000L);
    task.put(upsert(0, 2, 2, "bob2"), upsert(1, 0, 3, "cid"));
    assertThat(task.context.timeoutMs)
        .as("records wait: the worker's next poll is capped at the next round's due time")
        .isEqualTo(600);
    assertThat(lake.exists(TABLE)).as("the round has not reached the lake yet").isFalse();
    assertThat(task.preCommit()).as("nothing committed, nothing for Connect").isEmpty();

    rounds.land();
    assertThat(state()).containsExactly("1=ann", "2=bob");
    assertThat(task.preCommit())
        .as("the round's outcome applies on the task's thread, at its next put")
        .isEmpty();
    task.put(List.of());
    assertThat(task.preCommit()).isEqualTo(Map.of(P0, 2L));

    task.commit();
    rounds.land();
    task.put(List.of());
    assertThat(state()).containsExactly("1=ann", "2=bob2", "3=cid");
    assertThat(lake.offsets(TABLE, CONNECTOR)).isEqualTo(Map.of(P0, 3L, P1, 1L));
    assertThat(task.preCommit()).isEqualTo(Map.of(P0, 3L, P1, 1L));
  }

  @Test
  void aDueRoundWaitsForTheOneInFlightAndRunsItIfTheCommitThreadHasNotStarted() {
    HeldRounds rounds = new HeldRounds();
    SinkHarness task = start(rounds);
    task.put(upsert(0, 0, 1, "ann"));
    task.commit();
    task.put(upsert(0, 1, 1, "ann2"));
    task.commit();

    assertThat(state())
        .as("the first round, run by the task as it waited")
        .containsExactly("1=ann");
    assertThat(rounds.inFlight())
        .as(
            "run on the task's thread, which read nothing meanwhile: the next is due half an"
                + " interval after it ended")
        .isEqualTo(1);
    task.clock.addAndGet(500_000_000L);
    task.put(List.of());
    assertThat(rounds.inFlight()).as("the first, already run, and the second").isEqualTo(2);
    rounds.land();
    task.put(List.of());
    assertThat(state()).containsExactly("1=ann2");
    assertThat(task.preCommit()).isEqualTo(Map.of(P0, 2L));
  }

  /**
   * A fenced round drops its batch and the records read since; a partition Iceberg holds no offset
   * for is sought back to its first record in the fenced round, not to the first one read after.
   */
  @Test
  void aFencedRoundRewindsFromTheFirstRecordOfTheRound() {
    HeldRounds rounds = new HeldRounds();
    SinkHarness task = start(rounds);
    SinkHarness other = start(null);
    task.context.seeks.clear();
    task.put(upsert(0, 5, 1, "ann"), upsert(0, 6, 2, "bob"), upsert(1, 0, 9, "x"));
    task.commit();
    task.put(upsert(0, 7, 3, "cid"));
    // Meanwhile another writer of the connector commits P1 (a zombie, say).
    other.put(upsert(1, 0, 9, "other"));
    other.commit();

    rounds.land();
    task.put(List.of());

    assertThat(task.context.seeks).isEqualTo(Map.of(P0, 5L, P1, 1L));
    assertThat(task.preCommit()).isEqualTo(Map.of(P1, 1L));
    task.put(upsert(0, 5, 1, "ann"), upsert(0, 6, 2, "bob"), upsert(0, 7, 3, "cid"));
    task.commit();
    rounds.land();
    task.put(List.of());
    assertThat(state()).containsExactly("1=ann", "2=bob", "3=cid", "9=other");
    assertThat(lake.offsets(TABLE, CONNECTOR)).isEqualTo(Map.of(P0, 8L, P1, 1L));
  }

  /** Revoked while its round is in flight: the task waits for the round, and seeks no revoked. */
  @Test
  void closeWaitsForTheRoundInFlightAndSeeksNoRevokedPartition() {
    HeldRounds rounds = new HeldRounds();
    SinkHarness task = start(rounds);
    SinkHarness other = start(null);
    task.context.seeks.clear();
    task.put(upsert(0, 0, 1, "ann"), upsert(1, 0, 2, "bob"));
    task.commit();
    other.put(upsert(1, 0, 2, "other"));
    other.commit();

    task.task.close(List.of(P1));
    task.context.assignment.remove(P1);

    assertThat(rounds.inFlight()).as("run by close, as it waited").isEqualTo(1);
    assertThat(task.context.seeks)
        .as("the fenced round rewinds P0 only: P1 is being revoked")
        .isEqualTo(Map.of(P0, 0L));
    assertThat(state()).containsExactly("2=other");
  }

  /**
   * A keyless record read while a round in flight holds records before it of the same partition:
   * Connect may not commit past them until the round committed them.
   */
  @Test
  void aSkippedRecordAfterARoundInFlightDoesNotMoveConnectsOffsetPastTheRound() {
    HeldRounds rounds = new HeldRounds();
    SinkHarness task = start(rounds);
    task.put(upsert(0, 0, 1, "ann"), upsert(0, 1, 2, "bob"));
    task.commit();
    task.put(record(0, 2, null, change("c", null, row(3, "no key"))));

    assertThat(task.preCommit()).as("P0's round is in flight").isEmpty();
    rounds.land();
    task.commit();
    rounds.land();
    task.put(List.of());
    assertThat(task.preCommit()).isEqualTo(Map.of(P0, 3L));
  }

  private SinkHarness start(Executor commitThread) {
    Map<String, String> props = new HashMap<>(lake.connectorProperties());
    props.put("name", CONNECTOR);
    props.put("topics", TOPIC);
    props.put("commit.interval.ms", "1000");
    SinkHarness harness =
        new SinkHarness(
            props, List.of(P0, P1), QuarantineClients.KAFKA, UpsertSinkTask::new, commitThread);
    harnesses.add(harness);
    return harness;
  }

  private List<String> state() {
    return lake.rows(TABLE, "id").stream()
        .map(r -> r.getField("id") + "=" + r.getField("customer"))
        .toList();
  }

  private static SinkRecord upsert(int partition, long offset, int id, String customer) {
    return record(partition, offset, key(id), change("c", null, row(id, customer)));
  }

  private static SinkRecord record(int partition, long offset, Struct key, Struct value) {
    return new SinkRecord(
        TOPIC,
        partition,
        key == null ? null : key.schema(),
        key,
        value == null ? null : value.schema(),
        value,
        offset);
  }
}
