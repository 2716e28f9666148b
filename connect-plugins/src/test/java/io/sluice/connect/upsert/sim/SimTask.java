package io.sluice.connect.upsert.sim;

import io.sluice.connect.testing.StubTaskContext;
import io.sluice.connect.upsert.TaskRuntime;
import io.sluice.connect.upsert.UpsertSinkTask;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * One incarnation of a sink task as Connect's worker drives it: its consumer's positions, the seeks
 * the task asks for (applied after {@code open} and after every {@code put}, as WorkerSinkTask's
 * rewind does), and the offsets the worker commits to the group from {@code preCommit}.
 */
final class SimTask {
  final int id;
  final int incarnation;
  private final UpsertSinkTask sink;
  private final StubTaskContext context;
  final SimScheduler maintenance = new SimScheduler();
  final SimCommitThread commits = new SimCommitThread();
  private final Map<TopicPartition, Long> positions = new LinkedHashMap<>();

  /** Lost its partitions to a rebalance it has not heard of yet. */
  boolean zombie;

  SimTask(int id, int incarnation, Map<String, String> props, SimClock clock, SimKafka kafka) {
    this.id = id;
    this.incarnation = incarnation;
    this.context = new StubTaskContext(props);
    TaskRuntime runtime =
        new TaskRuntime(
            clock::nanos,
            clock::nanos,
            clock.wall(),
            clock::sleep,
            kafka,
            name -> maintenance,
            name -> commits);
    this.sink = new UpsertSinkTask(runtime);
    sink.initialize(context);
    sink.start(props);
  }

  String name() {
    return "task" + id + "#" + incarnation;
  }

  Set<TopicPartition> assignment() {
    return context.assignment;
  }

  /** The worker assigns {@code tps}: positions from the group's offsets, then the task's seeks. */
  void open(Collection<TopicPartition> tps, Map<TopicPartition, Long> group) {
    context.assignment.addAll(tps);
    tps.forEach(tp -> positions.put(tp, group.getOrDefault(tp, 0L)));
    sink.open(tps);
    applySeeks();
  }

  /**
   * The worker's consumer is about to poll, and a rebalance can only happen inside a poll: the
   * seeks asked for since the last poll are applied first ({@code rewind()}).
   */
  void beforeConsumerPoll() {
    applySeeks();
  }

  /** The worker revokes {@code tps}: it commits their offsets first (when it still may). */
  void close(Collection<TopicPartition> tps, Map<TopicPartition, Long> group) {
    if (!zombie) {
      group.putAll(commitOffsets(tps));
    }
    sink.close(tps);
    context.assignment.removeAll(tps);
    tps.forEach(positions::remove);
  }

  /**
   * Fetches up to {@code max} records of each assigned partition and puts them; first the seeks the
   * task asked for, as WorkerSinkTask's {@code rewind()} at the start of each poll.
   */
  void poll(SourceModel source, int max) {
    applySeeks();
    List<SinkRecord> batch = new ArrayList<>();
    positions.replaceAll(
        (tp, position) -> {
          long end = Math.min(source.end(tp), position + max);
          for (long o = position; o < end; o++) {
            batch.add(source.record(tp, o));
          }
          return Math.max(position, end);
        });
    put(batch);
  }

  void put(List<SinkRecord> batch) {
    sink.put(batch);
  }

  /** What {@code preCommit} lets the worker commit for {@code tps}. */
  Map<TopicPartition, Long> commitOffsets(Collection<TopicPartition> tps) {
    Map<TopicPartition, OffsetAndMetadata> current = new HashMap<>();
    tps.forEach(tp -> current.put(tp, new OffsetAndMetadata(positions.getOrDefault(tp, 0L))));
    Map<TopicPartition, Long> safe = new HashMap<>();
    sink.preCommit(current)
        .forEach(
            (tp, om) -> {
              if (tps.contains(tp)) {
                safe.put(tp, om.offset());
              }
            });
    return safe;
  }

  /** Where the consumer of {@code tp} stands: the records before it were put. */
  long position(TopicPartition tp) {
    return positions.getOrDefault(tp, 0L);
  }

  boolean caughtUp(SourceModel source) {
    return positions.entrySet().stream().allMatch(e -> e.getValue() >= source.end(e.getKey()));
  }

  /** A graceful stop: the worker closes every partition, then stops the task. */
  void stop(Map<TopicPartition, Long> group) {
    close(List.copyOf(context.assignment), group);
    sink.stop();
  }

  /**
   * The worker stops the task without closing its partitions first (a worker shutting down may skip
   * {@code close}): no offsets are committed for them, and only {@code stop} runs.
   */
  void stopWithoutClose() {
    sink.stop();
  }

  /** The process dies: nothing more of this incarnation runs. */
  void crash() {
    maintenance.shutdownNow();
    commits.kill();
  }

  /**
   * Applies the seeks the task asked for, as WorkerSinkTask's {@code rewind()} does: at the start
   * of each poll and at the end of a rebalance's assignment. A seek of a partition the consumer
   * does not hold fails as {@code KafkaConsumer.seek} fails, and with it the task.
   */
  private void applySeeks() {
    Map<TopicPartition, Long> seeks = new LinkedHashMap<>(context.seeks);
    context.seeks.clear();
    seeks.forEach(
        (tp, offset) -> {
          if (!positions.containsKey(tp)) {
            throw new IllegalStateException(
                "No current assignment for partition " + tp + " (the task asked to seek it)");
          }
          positions.put(tp, offset);
        });
  }
}
