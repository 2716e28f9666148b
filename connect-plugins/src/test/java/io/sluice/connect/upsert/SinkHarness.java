package io.sluice.connect.upsert;

import io.sluice.connect.testing.StubTaskContext;
import io.sluice.connect.upsert.quarantine.QuarantineClients;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One upsert sink task driven directly (no broker, no worker), with its own clock for the commit
 * interval: started and opened on the given partitions, as Connect would.
 */
public final class SinkHarness {
  public final AtomicLong clock = new AtomicLong();
  public final StubTaskContext context;
  public final UpsertSinkTask task;
  private final long intervalMs;
  private boolean stopped;

  /**
   * @param props the task's configuration; it must set {@code commit.interval.ms}
   */
  public SinkHarness(
      Map<String, String> props, List<TopicPartition> partitions, QuarantineClients clients) {
    this(props, partitions, clients, UpsertSinkTask::new);
  }

  /**
   * @param props the task's configuration; it must set {@code commit.interval.ms}
   * @param newTask makes the task of a runtime (e.g. a {@link CrashingUpsertSinkTask})
   */
  public SinkHarness(
      Map<String, String> props,
      List<TopicPartition> partitions,
      QuarantineClients clients,
      Function<TaskRuntime, UpsertSinkTask> newTask) {
    this(props, partitions, clients, newTask, null);
  }

  /**
   * @param commitThread runs the task's commit rounds; null: each round on the thread that starts
   *     it
   */
  public SinkHarness(
      Map<String, String> props,
      List<TopicPartition> partitions,
      QuarantineClients clients,
      Function<TaskRuntime, UpsertSinkTask> newTask,
      Executor commitThread) {
    intervalMs = Long.parseLong(props.get("commit.interval.ms"));
    TaskRuntime runtime = TaskRuntime.of(clock::get, clients);
    task =
        newTask.apply(
            commitThread == null ? runtime : runtime.withCommitThread(name -> commitThread));
    context = new StubTaskContext(props);
    context.assignment.addAll(partitions);
    task.initialize(context);
    task.start(props);
    task.open(partitions);
  }

  public void put(SinkRecord... records) {
    task.put(Arrays.asList(records));
  }

  public void put(List<SinkRecord> records) {
    task.put(records);
  }

  /** Lets the commit interval pass and polls once, as Connect's loop would. */
  public void commit() {
    clock.addAndGet(intervalMs * 1_000_000);
    task.put(List.of());
  }

  /** What the task hands Connect to commit for every assigned partition. */
  public Map<TopicPartition, Long> preCommit() {
    Map<TopicPartition, OffsetAndMetadata> current = new HashMap<>();
    context.assignment.forEach(tp -> current.put(tp, new OffsetAndMetadata(999)));
    Map<TopicPartition, Long> offsets = new HashMap<>();
    task.preCommit(current).forEach((tp, om) -> offsets.put(tp, om.offset()));
    return offsets;
  }

  public void stop() {
    if (!stopped) {
      stopped = true;
      task.stop();
    }
  }
}
