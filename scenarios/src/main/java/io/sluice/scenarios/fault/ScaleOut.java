package io.sluice.scenarios.fault;

import com.fasterxml.jackson.annotation.JsonProperty;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.ConnectRestClient.TaskStatus;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.stack.ProcessScale;
import io.sluice.stack.ProcessStack;
import io.sluice.stack.StackLayout;
import io.sluice.stack.control.ComponentStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * scale-out's own evidence: where the routers' partitions and the sinks' tasks run, whether any
 * upsert-sink commit was fenced or failed (every worker's log since the baseline), how often
 * Iceberg retried a commit that raced another task's, and whether Iceberg holds every partition's
 * offsets up to the last record of the clean topic.
 */
final class ScaleOut {
  static final List<String> SINKS =
      List.of(StackLayout.DEFAULT.upsertSink(), StackLayout.DEFAULT.changelogSink());

  /** The upsert sink's WARN when a commit of a batch is refused by its offset fence. */
  static final String FENCE_LINE = "fenced: ";

  /** A failed commit the sink retries itself (after Iceberg's own retries gave up). */
  static final String FAILED_COMMIT_LINE = "Commit failed, retrying";

  /** Iceberg's line for a commit it retries after a concurrent commit won (optimistic). */
  static final String ICEBERG_RETRY_LINE = "Retrying task after failure";

  private final ScenarioStack stack;
  private final ConnectRestClient connect;

  ScaleOut(ScenarioStack stack) {
    this.stack = stack;
    this.connect = new ConnectRestClient(stack.endpoints().connectUrl());
  }

  /**
   * Where things run.
   *
   * @param routers each router member's partitions of the main topic, by its instance id
   * @param tasks per sink, each task's worker ({@code host:port})
   */
  record Placement(
      @JsonProperty("routers") Map<String, List<String>> routers,
      @JsonProperty("tasks") Map<String, Map<Integer, Task>> tasks) {
    /**
     * Two or more routers with partitions, each sink with two or more tasks, all RUNNING, and the
     * sinks' tasks together on two or more workers (Connect balances the count of connectors and
     * tasks per worker, not each connector's tasks: all three of one sink may share a worker).
     */
    boolean scaledOut() {
      long routing = routers.values().stream().filter(p -> !p.isEmpty()).count();
      List<Task> all = tasks.values().stream().flatMap(t -> t.values().stream()).toList();
      return routing >= 2
          && tasks.values().stream().allMatch(t -> t.size() >= 2)
          && all.stream().allMatch(Task::running)
          && all.stream().map(Task::worker).distinct().count() >= 2;
    }
  }

  /** A sink task: the worker running it ({@code host:port}) and its state. */
  record Task(@JsonProperty("worker") String worker, @JsonProperty("state") String state) {
    boolean running() {
      return "RUNNING".equals(state);
    }
  }

  Placement placement() {
    Map<String, List<String>> routers = new TreeMap<>();
    stack
        .groupAssignments(ScenarioStack.ROUTER_GROUP)
        .forEach(
            (member, partitions) ->
                routers.put(
                    member,
                    partitions.stream()
                        .filter(tp -> tp.topic().equals(ScenarioStack.MAIN_TOPIC))
                        .map(TopicPartition::toString)
                        .toList()));
    Map<String, Map<Integer, Task>> tasks = new TreeMap<>();
    for (String sink : SINKS) {
      Map<Integer, Task> byTask = new TreeMap<>();
      for (TaskStatus t : connect.status(sink).tasks()) {
        byTask.put(t.id(), new Task(t.workerId(), t.state()));
      }
      tasks.put(sink, byTask);
    }
    return new Placement(routers, tasks);
  }

  /** The placement before the workload, failing when the stack is not scaled out. */
  Placement requireScaledOut() {
    Placement placement = placement();
    if (!placement.scaledOut()) {
      throw new ScenarioFailure(
          "scale-out needs two routers sharing the main topic and both sinks' tasks on two"
              + " Connect workers (found routers "
              + placement.routers()
              + ", tasks "
              + placement.tasks()
              + "): run `sluice up --processes --routers 2 --connect-workers 2 --sink-tasks 3`");
    }
    return placement;
  }

  /**
   * The Connect worker component that runs most of the upsert sink's tasks now: the one whose
   * SIGKILL stops tasks committing to the current table ({@code connect} when it is the worker of
   * the ready file's {@code connect_url}, else {@code connect-2}: the scale-out stack has two).
   */
  String upsertSinkWorker() {
    Map<String, Long> byWorker = new TreeMap<>();
    for (TaskStatus t : connect.status(StackLayout.DEFAULT.upsertSink()).tasks()) {
      byWorker.merge(t.workerId(), 1L, Long::sum);
    }
    String busiest =
        byWorker.entrySet().stream()
            .max(Map.Entry.comparingByValue())
            .map(Map.Entry::getKey)
            .orElseThrow(
                () -> new ScenarioFailure(StackLayout.DEFAULT.upsertSink() + " has no tasks"));
    String first = URI.create(stack.endpoints().connectUrl()).getAuthority();
    return busiest.equals(first)
        ? ProcessStack.CONNECT
        : ProcessScale.instanceName(ProcessStack.CONNECT, 2);
  }

  /** Every Connect worker's log and its size now: where {@link #scan} starts reading. */
  static Map<Path, Long> logMarks(List<ComponentStatus> components) {
    Map<Path, Long> marks = new TreeMap<>();
    for (ComponentStatus c : components) {
      if (c.name().equals(ProcessStack.CONNECT)
          || c.name().startsWith(ProcessStack.CONNECT + "-")) {
        Path log = Path.of(c.log());
        marks.put(log, size(log));
      }
    }
    return marks;
  }

  /** Whether {@code component} is a Connect worker of the process stack ({@code connect[-n]}). */
  static boolean isConnectWorker(String component) {
    return component.equals(ProcessStack.CONNECT)
        || component.startsWith(ProcessStack.CONNECT + "-");
  }

  /** What the workers logged after their marks: fences, failed commits, Iceberg's retries. */
  record LogScan(
      @JsonProperty("fenced_commits") long fenced,
      @JsonProperty("failed_commits") long failed,
      @JsonProperty("iceberg_commit_retries") long icebergRetries) {}

  static LogScan scan(Map<Path, Long> marks) {
    long fenced = 0;
    long failed = 0;
    long retries = 0;
    for (Map.Entry<Path, Long> mark : marks.entrySet()) {
      for (String line : linesAfter(mark.getKey(), mark.getValue())) {
        fenced += line.contains(FENCE_LINE) ? 1 : 0;
        failed += line.contains(FAILED_COMMIT_LINE) ? 1 : 0;
        retries += line.contains(ICEBERG_RETRY_LINE) ? 1 : 0;
      }
    }
    return new LogScan(fenced, failed, retries);
  }

  /**
   * Per partition of the clean topic: the offset after its last committed record, and the offset
   * the upsert sink's snapshots hold for it.
   *
   * @param lastRecordNext offset after the last committed (read_committed) record
   * @param icebergOffset the upsert sink's offset found in the table's snapshots (null: none)
   */
  record HeldOffset(
      @JsonProperty("partition") int partition,
      @JsonProperty("last_record_next_offset") long lastRecordNext,
      @JsonProperty("iceberg_offset") Long icebergOffset) {
    boolean held() {
      return icebergOffset != null && icebergOffset >= lastRecordNext;
    }
  }

  /** Whether Iceberg holds every clean-topic partition's offset past its last record. */
  List<HeldOffset> heldOffsets() {
    Map<Integer, Long> lastNext = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : stack.readCommitted(ScenarioStack.CLEAN_TOPIC)) {
      lastNext.merge(r.partition(), r.offset() + 1, Math::max);
    }
    Map<TopicPartition, Long> iceberg = stack.upsertSinkOffsets(ScenarioStack.CURRENT_TABLE);
    return stack.endOffsets(ScenarioStack.CLEAN_TOPIC).keySet().stream()
        .sorted()
        .map(
            p ->
                new HeldOffset(
                    p,
                    lastNext.getOrDefault(p, 0L),
                    iceberg.get(new TopicPartition(ScenarioStack.CLEAN_TOPIC, p))))
        .toList();
  }

  private static long size(Path file) {
    try {
      return Files.exists(file) ? Files.size(file) : 0;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read the size of " + file, e);
    }
  }

  private static List<String> linesAfter(Path file, long offset) {
    try {
      if (!Files.exists(file)) {
        return List.of();
      }
      byte[] all = Files.readAllBytes(file);
      int from = (int) Math.min(offset, all.length);
      return new String(all, from, all.length - from, StandardCharsets.UTF_8).lines().toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + file, e);
    }
  }
}
