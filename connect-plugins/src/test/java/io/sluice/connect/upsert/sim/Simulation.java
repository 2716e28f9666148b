package io.sluice.connect.upsert.sim;

import io.sluice.connect.upsert.ExternalCompaction;
import io.sluice.connect.upsert.ExternalRowMove;
import io.sluice.connect.upsert.commit.UpsertCommitter;
import io.sluice.dlq.DlqHeaders;
import io.sluice.lake.offsets.IcebergOffsets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.ManifestContent;
import org.apache.iceberg.ManifestFile;
import org.apache.iceberg.ManifestFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotSummary;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One seeded run of the upsert sink against a schedule of interleavings: the real {@code
 * UpsertSinkTask} (committer, quarantine, maintenance) over Iceberg with a fault-injecting catalog,
 * driven as Connect's worker drives it, with rebalances, zombies, restarts, topics and partitions
 * appearing, lost commit replies, external compactions and key types widening. After every step the
 * lake is checked against a model of the source ({@link #check}); at the end every task catches up
 * and the lake must equal the whole source.
 *
 * <p>Everything happens on the calling thread in an order the seed decides, so a seed replays the
 * same schedule.
 */
final class Simulation {
  private static final Logger log = LoggerFactory.getLogger(Simulation.class);
  static final String CONNECTOR = "sim-upsert";
  private static final long INTERVAL_MS = 1_000;

  /** How a run ended: the schedule it ran, and the first broken invariant (null if none). */
  record Outcome(
      long seed,
      List<String> schedule,
      String failure,
      int faults,
      int zombies,
      int dlqRecords,
      Map<String, Integer> commitModes) {
    boolean passed() {
      return failure == null;
    }
  }

  /** A broken invariant. */
  static final class Violation extends RuntimeException {
    Violation(String message) {
      super(message);
    }
  }

  private final long seed;
  private final int steps;
  private final Random random;
  private final SimClock clock = new SimClock(System.currentTimeMillis());
  private final List<String> schedule = new ArrayList<>();
  private final SimWorld world;
  private final SimKafka kafka = new SimKafka(clock::millis);
  private final SourceModel source = new SourceModel(kafka);
  private final SimCatalog observer = new SimCatalog();
  private final Map<String, String> props = new LinkedHashMap<>();
  private final List<SimTask> tasks = new ArrayList<>();
  private final Map<TopicPartition, Long> group = new HashMap<>();
  private final Map<TopicPartition, Long> lastOffsets = new HashMap<>();
  private final Map<TableIdentifier, Long> checked = new HashMap<>();
  private final Map<String, Map<Long, List<Object>>> lineage = new HashMap<>();
  private int faults;
  private final Set<Long> countedSnapshots = new HashSet<>();
  private final Map<String, Integer> modes = new TreeMap<>();
  private int zombies;
  // The tasks whose calls are running, innermost first (a concurrent commit nests one call).
  private final Deque<SimTask> running = new ArrayDeque<>();
  private SimTask maintaining;
  private Violation nestedViolation;

  Simulation(long seed, int steps) {
    this.seed = seed;
    this.steps = steps;
    this.random = new Random(seed);
    this.world = new SimWorld(clock::millis, schedule);
  }

  Outcome run() {
    String failure = null;
    try {
      setUp();
      for (int i = 0; i < steps; i++) {
        step();
        check("after step " + i);
      }
      quiesce();
    } catch (Violation e) {
      failure = e.getMessage();
    } catch (RuntimeException | AssertionError e) {
      log.error("Seed {} of the simulation failed unexpectedly", seed, e);
      failure = "unexpected " + e + " (stack trace in the log)";
    } finally {
      world.close();
    }
    int dlq = 0;
    for (TopicPartition tp : kafkaDlqPartitions()) {
      dlq += kafka.log(tp).size();
    }
    return new Outcome(
        seed, List.copyOf(schedule), failure, faults, zombies, dlq, Map.copyOf(modes));
  }

  private void setUp() {
    Map<String, String> catalog = new HashMap<>();
    catalog.put(SimWorld.WORLD_PROPERTY, world.id);
    catalog.put("warehouse", world.warehouse());
    catalog.put("table-default.commit.retry.min-wait-ms", "1");
    catalog.put("table-default.commit.retry.max-wait-ms", "2");
    observer.initialize("sim", catalog);
    world.onConcurrentCommit(this::externalCompaction);
    world.onConcurrentSinkCommit(this::concurrentSinkCommit);

    props.put("name", CONNECTOR);
    props.put("topics.regex", "broker\\.sim\\..+\\.clean");
    props.put("commit.interval.ms", String.valueOf(INTERVAL_MS));
    props.put("iceberg.catalog.name", "sim");
    props.put("iceberg.catalog.catalog-impl", SimCatalog.class.getName());
    catalog.forEach((k, v) -> props.put("iceberg.catalog." + k, v));
    props.put("iceberg.catalog." + SimWorld.FAULTY_PROPERTY, "true");
    props.put("errors.sink.tolerance", "all");
    props.put("errors.sink.retry.timeout", "30000");
    props.put("kafka.bootstrap.servers", "sim:9092");
    props.put("maintenance.enabled", "true");
    // Merge at commit (position deletes when a merge conflicts), position deletes from the key
    // index, or equality deletes only.
    int writeMode = random.nextInt(3);
    props.put("maintenance.merge.max-bytes", writeMode == 0 ? String.valueOf(2L << 20) : "0");
    props.put("key-index.max-bytes", writeMode == 2 ? "0" : String.valueOf(64L << 20));
    props.put("maintenance.rewrite.delete-files", String.valueOf(1 + random.nextInt(3)));
    props.put("maintenance.snapshots.keep-last", String.valueOf(2 + random.nextInt(4)));
    props.put("maintenance.snapshots.max-age-ms", "0");
    props.put("maintenance.idle-commit.interval-ms", "5000");
    int format = random.nextInt(3) == 0 ? 3 : 2;
    props.put("table.format.version", String.valueOf(format));
    int taskCount = 1 + random.nextInt(3);
    schedule.add(
        "setup: "
            + taskCount
            + " tasks, format v"
            + format
            + List.of(", merge at commit", ", position deletes", ", equality deletes")
                .get(writeMode)
            + ", "
            + props.get("maintenance.snapshots.keep-last")
            + " snapshots kept");
    for (int i = 0; i < taskCount; i++) {
      tasks.add(newTask(i, 0));
    }
    addTopic();
    rebalance();
  }

  private SimTask newTask(int id, int incarnation) {
    Map<String, String> taskProps = new HashMap<>(props);
    taskProps.put("sluice.task.id", String.valueOf(id));
    return new SimTask(id, incarnation, taskProps, clock, kafka);
  }

  // ---------------------------------------------------------------- the schedule

  private void step() {
    clock.advanceMs(random.nextInt(400));
    int r = random.nextInt(100);
    if (r < 28) {
      produce();
    } else if (r < 52) {
      poll(pick(all()));
    } else if (r < 60) {
      commitTick(pick(all()));
    } else if (r < 64) {
      offsetCommit();
    } else if (r < 68) {
      rebalanceStep();
    } else if (r < 71) {
      zombie();
    } else if (r < 74) {
      zombieEnds();
    } else if (r < 77) {
      crash();
    } else if (r < 79) {
      addTopic();
    } else if (r < 80) {
      addPartition();
    } else if (r < 81) {
      widen();
    } else if (r < 85) {
      armFault();
    } else if (r < 89) {
      if (random.nextBoolean()) {
        armFault();
      } else {
        // A rewrite of the pass races a commit of the sink (rows deleted in files it copies).
        arm(SimWorld.CommitFault.CONCURRENT_SINK_COMMIT);
      }
      maintenance(pick(all()));
    } else if (r < 95) {
      maintenance(pick(all()));
    } else if (r < 98) {
      externalCompactionStep();
    } else {
      clock.advanceMs(3_700_000);
      schedule.add("time: +1h01m (orphan files old enough to go)");
    }
  }

  private void produce() {
    List<TopicPartition> tps = source.partitions();
    TopicPartition tp = tps.get(random.nextInt(tps.size()));
    boolean poisonAllowed = observer.tableExists(SourceModel.tableOf(tp.topic()));
    int n = 1 + random.nextInt(6);
    StringBuilder what = new StringBuilder("produce " + tp + ":");
    for (int i = 0; i < n; i++) {
      SourceModel.Event e = source.produce(tp, random, poisonAllowed);
      what.append(' ')
          .append(e.offset())
          .append('=')
          .append(e.kind())
          .append('(')
          .append(e.key())
          .append(')');
    }
    schedule.add(what.toString());
  }

  private void poll(SimTask task) {
    if (task == null) {
      return;
    }
    int max = 1 + random.nextInt(8);
    clock.advanceMs(random.nextInt((int) INTERVAL_MS));
    schedule.add(task.name() + (task.zombie ? " (zombie)" : "") + " polls up to " + max);
    run(task, () -> task.poll(source, max));
  }

  private void commitTick(SimTask task) {
    if (task == null) {
      return;
    }
    clock.advanceMs(INTERVAL_MS);
    schedule.add(task.name() + (task.zombie ? " (zombie)" : "") + " commit interval passes");
    run(task, () -> task.put(List.of()));
  }

  private void offsetCommit() {
    SimTask task = pick(live());
    if (task == null) {
      return;
    }
    Map<TopicPartition, Long> offsets = task.commitOffsets(task.assignment());
    group.putAll(offsets);
    schedule.add(
        task.name() + " worker commits group offsets " + new TreeMap<>(stringKeys(offsets)));
  }

  private void rebalanceStep() {
    schedule.add("rebalance");
    rebalance();
  }

  /** Spreads every partition over the live tasks at random: revoked ones closed first. */
  private void rebalance() {
    List<SimTask> members = live();
    if (members.isEmpty()) {
      return;
    }
    for (SimTask t : members) {
      run(t, t::beforeConsumerPoll);
    }
    Map<SimTask, List<TopicPartition>> next = new LinkedHashMap<>();
    members.forEach(t -> next.put(t, new ArrayList<>()));
    for (TopicPartition tp : source.partitions()) {
      next.get(members.get(random.nextInt(members.size()))).add(tp);
    }
    for (SimTask t : members) {
      List<TopicPartition> revoked =
          t.assignment().stream().filter(tp -> !next.get(t).contains(tp)).toList();
      if (!revoked.isEmpty()) {
        run(t, () -> t.close(revoked, group));
      }
    }
    for (SimTask t : members) {
      List<TopicPartition> added =
          next.get(t).stream().filter(tp -> !t.assignment().contains(tp)).toList();
      if (!added.isEmpty()) {
        run(t, () -> t.open(added, group));
      }
      schedule.add("  " + t.name() + " holds " + t.assignment());
    }
  }

  /** A task loses its partitions without hearing of it: another task opens them meanwhile. */
  private void zombie() {
    List<SimTask> members = live();
    if (members.size() < 2) {
      return;
    }
    SimTask victim = members.get(random.nextInt(members.size()));
    if (victim.assignment().isEmpty()) {
      return;
    }
    SimTask heir = members.get(random.nextInt(members.size()));
    if (heir == victim) {
      return;
    }
    run(heir, heir::beforeConsumerPoll);
    victim.zombie = true;
    zombies++;
    List<TopicPartition> moved = List.copyOf(victim.assignment());
    schedule.add(victim.name() + " becomes a zombie; " + heir.name() + " opens " + moved);
    run(heir, () -> heir.open(moved, group));
  }

  private void zombieEnds() {
    SimTask zombie = pick(tasks.stream().filter(t -> t.zombie).toList());
    if (zombie == null) {
      return;
    }
    schedule.add(zombie.name() + " hears it lost " + zombie.assignment() + " and closes them");
    run(zombie, zombie::beforeConsumerPoll);
    run(zombie, () -> zombie.close(List.copyOf(zombie.assignment()), group));
    zombie.zombie = false;
  }

  private void crash() {
    SimTask victim = pick(all());
    if (victim == null) {
      return;
    }
    victim.crash();
    SimTask next = newTask(victim.id, victim.incarnation + 1);
    tasks.set(tasks.indexOf(victim), next);
    schedule.add(victim.name() + " is killed; " + next.name() + " starts");
    rebalance();
  }

  private void addTopic() {
    String topic = source.addTopic(1 + random.nextInt(3), 4 + random.nextInt(8));
    schedule.add("topic " + topic + " appears (not assigned until a rebalance)");
  }

  private void addPartition() {
    List<String> topics = source.topics();
    TopicPartition tp = source.addPartition(topics.get(random.nextInt(topics.size())));
    schedule.add("partition " + tp + " appears (not assigned until a rebalance)");
  }

  private void widen() {
    List<String> topics = source.topics().stream().filter(t -> !source.wide(t)).toList();
    if (topics.isEmpty()) {
      return;
    }
    String topic = topics.get(random.nextInt(topics.size()));
    source.widen(topic);
    schedule.add("the key of " + topic + " widens INT -> BIGINT");
  }

  private void armFault() {
    SimWorld.CommitFault[] all = SimWorld.CommitFault.values();
    arm(all[random.nextInt(all.length)]);
  }

  private void arm(SimWorld.CommitFault fault) {
    world.arm(fault);
    faults++;
    schedule.add("arm " + fault + " for the next commit of the sink");
  }

  private void maintenance(SimTask task) {
    if (task == null) {
      return;
    }
    schedule.add(task.name() + " maintenance passes");
    task.maintenance.tick();
    runMaintenance(task);
  }

  private void runMaintenance(SimTask task) {
    SimTask before = maintaining;
    maintaining = task;
    try {
      run(task, task.maintenance::runQueued);
    } finally {
      maintaining = before;
    }
  }

  /**
   * Inside another commit to {@code id}, between its refresh and its catalog swap: a task holding a
   * partition of the table takes a few new records of it and commits them. Not the task whose own
   * commit this is (its put is running), but it may be the task whose maintenance is committing.
   */
  private void concurrentSinkCommit(TableIdentifier id) {
    SimTask outer = running.peek();
    List<SimTask> candidates =
        live().stream()
            .filter(t -> t != outer || t == maintaining)
            .filter(t -> t.assignment().stream().anyMatch(tp -> tableOf(tp).equals(id)))
            .toList();
    SimTask task = pick(candidates);
    if (task == null) {
      schedule.add("  no other task holds a partition of " + id + " to commit meanwhile");
      return;
    }
    List<TopicPartition> tps =
        task.assignment().stream().filter(tp -> tableOf(tp).equals(id)).toList();
    TopicPartition tp = tps.get(random.nextInt(tps.size()));
    int n = 1 + random.nextInt(4);
    StringBuilder what =
        new StringBuilder("  meanwhile " + task.name() + " commits " + n + " new records of " + tp);
    for (int i = 0; i < n; i++) {
      SourceModel.Event e = source.produce(tp, random, true);
      what.append(' ').append(e.offset()).append('=').append(e.kind()).append('(').append(e.key());
      what.append(')');
    }
    schedule.add(what.toString());
    try {
      run(task, () -> task.poll(source, 100));
      clock.advanceMs(INTERVAL_MS);
      run(task, () -> task.put(List.of()));
    } catch (Violation e) {
      nestedViolation = e;
      throw e;
    }
  }

  private static TableIdentifier tableOf(TopicPartition tp) {
    return SourceModel.tableOf(tp.topic());
  }

  private void externalCompactionStep() {
    List<String> topics = source.topics();
    TableIdentifier id = SourceModel.tableOf(topics.get(random.nextInt(topics.size())));
    schedule.add("external compaction of " + id);
    externalCompaction(id);
  }

  private void externalCompaction(TableIdentifier id) {
    if (!observer.tableExists(id)) {
      return;
    }
    Table table = observer.loadTable(id);
    if (table.currentSnapshot() == null) {
      return;
    }
    if (random.nextBoolean()) {
      new ExternalCompaction(observer, id).compactOnce();
      return;
    }
    // Or another engine's merge-on-read update of some rows to their own values: a delete file
    // for a data file a sink commit may be copying meanwhile.
    String moved = new ExternalRowMove(observer, id, random).moveOnce(1 + random.nextInt(4));
    schedule.add("  (an external row move: " + (moved == null ? "nothing moved" : moved) + ")");
  }

  // ---------------------------------------------------------------- the end

  /** Faults stop, zombies learn, every task catches up: the lake must equal the whole source. */
  private void quiesce() {
    schedule.add("quiesce: faults disarmed, zombies close, everyone catches up");
    world.disarm();
    for (SimTask t : tasks) {
      if (t.zombie) {
        run(t, t::beforeConsumerPoll);
        run(t, () -> t.close(List.copyOf(t.assignment()), group));
        t.zombie = false;
      }
    }
    rebalance();
    for (int round = 0; round < 200; round++) {
      for (SimTask t : tasks) {
        run(t, () -> t.poll(source, 100));
      }
      clock.advanceMs(INTERVAL_MS);
      for (SimTask t : tasks) {
        run(t, () -> t.put(List.of()));
      }
      check("while catching up, round " + round);
      if (tasks.stream().allMatch(t -> t.caughtUp(source)) && lakeHoldsEverything()) {
        break;
      }
    }
    for (SimTask t : tasks) {
      t.maintenance.tick();
      runMaintenance(t);
    }
    check("after the last maintenance");
    for (String topic : source.topics()) {
      TableIdentifier id = SourceModel.tableOf(topic);
      Map<TopicPartition, Long> ends = new HashMap<>();
      source.partitions().stream()
          .filter(tp -> tp.topic().equals(topic))
          .forEach(tp -> ends.put(tp, source.end(tp)));
      Map<Long, String> expected = source.state(topic, ends);
      Map<Long, String> actual = observer.tableExists(id) ? rows(observer.loadTable(id)) : Map.of();
      if (!expected.equals(actual)) {
        throw new Violation(
            "after every task caught up, "
                + id
                + " differs from the source: "
                + diff(expected, actual)
                + "; Iceberg offsets "
                + (observer.tableExists(id)
                    ? IcebergOffsets.all(observer.loadTable(id), CONNECTOR)
                    : "(no table)")
                + ", log ends "
                + ends);
      }
      checkAllSnapshotsReadable(id);
    }
    checkDlq();
    steadyLoadWithAQuietPartition();
  }

  /**
   * Load on every partition but one for a few idle-commit intervals, with maintenance: the quiet
   * partition's table must not pin its snapshots. Its offsets are in the newest snapshot naming it,
   * and expiry keeps everything newer; a task busy with other partitions must still commit the
   * quiet one's offsets again within an idle interval, so the oldest snapshot any lookup needs is
   * never older than the one that was current an idle interval (and two rounds) ago.
   */
  private void steadyLoadWithAQuietPartition() {
    List<TopicPartition> tps = source.partitions();
    TopicPartition quiet = tps.get(random.nextInt(tps.size()));
    schedule.add("steady load on every partition but " + quiet + ", with maintenance");
    long idleMs = Long.parseLong(props.get("maintenance.idle-commit.interval-ms"));
    int idleRounds = (int) (idleMs / INTERVAL_MS);
    int rounds = idleRounds * 2 + 4;
    Map<TableIdentifier, List<Long>> currentAtRound = new HashMap<>();
    for (int round = 0; round < rounds; round++) {
      for (TopicPartition tp : tps) {
        if (!tp.equals(quiet)) {
          source.produce(tp, random, false);
        }
      }
      clock.advanceMs(INTERVAL_MS);
      for (SimTask t : tasks) {
        run(t, () -> t.poll(source, 100));
      }
      if (round % 3 == 0) {
        for (SimTask t : tasks) {
          t.maintenance.tick();
          runMaintenance(t);
        }
      }
      for (String topic : source.topics()) {
        TableIdentifier id = SourceModel.tableOf(topic);
        Snapshot current =
            observer.tableExists(id) ? observer.loadTable(id).currentSnapshot() : null;
        currentAtRound
            .computeIfAbsent(id, k -> new ArrayList<>())
            .add(current == null ? null : current.snapshotId());
      }
    }
    check("after the steady load");
    int cutoffRound = rounds - idleRounds - 3;
    for (Map.Entry<TableIdentifier, List<Long>> e : currentAtRound.entrySet()) {
      Long cutoff = e.getValue().get(cutoffRound);
      if (cutoff == null) {
        continue;
      }
      List<Snapshot> ancestry = new ArrayList<>();
      org.apache.iceberg.util.SnapshotUtil.currentAncestors(observer.loadTable(e.getKey()))
          .forEach(ancestry::add);
      int needed = IcebergOffsets.oldestNeeded(ancestry);
      int cutoffIndex = -1;
      for (int i = 0; i < ancestry.size(); i++) {
        if (ancestry.get(i).snapshotId() == cutoff) {
          cutoffIndex = i;
        }
      }
      if (cutoffIndex >= 0 && needed > cutoffIndex) {
        throw new Violation(
            "after "
                + rounds
                + " rounds of load with "
                + quiet
                + " quiet, "
                + e.getKey()
                + " needs its snapshots back to the "
                + needed
                + "th newest, older than the one current "
                + (rounds - cutoffRound)
                + " rounds ago (the "
                + cutoffIndex
                + "th): an idle partition pins expiry");
      }
    }
  }

  private boolean lakeHoldsEverything() {
    for (String topic : source.topics()) {
      TableIdentifier id = SourceModel.tableOf(topic);
      Map<TopicPartition, Long> ends = new HashMap<>();
      source.partitions().stream()
          .filter(tp -> tp.topic().equals(topic))
          .forEach(tp -> ends.put(tp, source.end(tp)));
      Map<Long, String> expected = source.state(topic, ends);
      Map<Long, String> actual = observer.tableExists(id) ? rows(observer.loadTable(id)) : Map.of();
      if (!expected.equals(actual)) {
        return false;
      }
    }
    return true;
  }

  /** Every quarantined input is in its DLQ; exactly once unless a zombie ran. */
  private void checkDlq() {
    Map<String, Integer> inDlq = new HashMap<>();
    for (TopicPartition dlq : kafkaDlqPartitions()) {
      for (ConsumerRecord<byte[], byte[]> r : kafka.log(dlq)) {
        String input =
            header(r, DlqHeaders.CONNECT_TOPIC)
                + "-"
                + header(r, DlqHeaders.CONNECT_PARTITION)
                + "@"
                + header(r, DlqHeaders.CONNECT_OFFSET);
        inDlq.merge(input, 1, Integer::sum);
      }
    }
    for (TopicPartition tp : source.partitions()) {
      for (SourceModel.Event e : source.events(tp)) {
        String input = tp.topic() + "-" + tp.partition() + "@" + e.offset();
        int count = inDlq.getOrDefault(input, 0);
        if (e.kind() == SourceModel.Kind.POISON && count == 0) {
          throw new Violation("the poison record at " + input + " is not in the DLQ");
        }
        if (e.kind() != SourceModel.Kind.POISON && count > 0) {
          throw new Violation("the valid record at " + input + " is in the DLQ");
        }
        if (count > 1 && zombies == 0) {
          throw new Violation(
              "the poison record at "
                  + input
                  + " is in the DLQ "
                  + count
                  + " times, no zombie ran");
        }
      }
    }
  }

  // ---------------------------------------------------------------- invariants

  /**
   * After every step: each table read with Iceberg's reader equals the model at the offsets Iceberg
   * records, no key twice, every file of the current snapshot exists, recorded offsets never move
   * backwards and never past the log.
   */
  /** Counts the commit modes of the snapshots not seen before (the outcome reports them). */
  private void countModes(Table table) {
    for (Snapshot s : org.apache.iceberg.util.SnapshotUtil.currentAncestors(table)) {
      String mode = s.summary().get(UpsertCommitter.COMMIT_MODE);
      if (mode == null && DataOperations.REPLACE.equals(s.operation())) {
        // A rewrite (the maintenance's, an external compaction); carrying deletes over when it
        // adds delete files (FileRewrite rebased onto a commit that deleted rows it had copied).
        mode =
            s.summary().containsKey(SnapshotSummary.ADDED_DELETE_FILES_PROP)
                ? "rewrite carrying deletes"
                : "rewrite";
      }
      if (UpsertCommitter.MODE_POSITION_DELETES.equals(mode)
          && s.summary().containsKey(SnapshotSummary.DELETED_FILES_PROP)) {
        // A commit that copied data files it would have left largely deleted.
        mode = "position deletes copying files";
      }
      if (mode != null && countedSnapshots.add(s.snapshotId())) {
        modes.merge(mode, 1, Integer::sum);
      }
    }
  }

  private void check(String when) {
    if (nestedViolation != null) {
      // Raised inside another writer's commit, which may have caught it.
      throw nestedViolation;
    }
    for (String topic : source.topics()) {
      TableIdentifier id = SourceModel.tableOf(topic);
      Table table;
      try {
        table = observer.loadTable(id);
      } catch (NoSuchTableException e) {
        continue;
      }
      Snapshot current = table.currentSnapshot();
      countModes(table);
      checkFilesExist(when, table, current);
      Long checkedSnapshot = checked.put(id, current == null ? -1L : current.snapshotId());
      if (checkedSnapshot != null
          && checkedSnapshot == (current == null ? -1L : current.snapshotId())) {
        // Nothing committed since the last check: the same rows, the same offsets.
        continue;
      }
      Map<TopicPartition, Long> offsets = IcebergOffsets.all(table, CONNECTOR);
      offsets.forEach(
          (tp, offset) -> {
            Long before = lastOffsets.put(tp, offset);
            if (before != null && offset < before) {
              throw new Violation(
                  when
                      + ": Iceberg's offset of "
                      + tp
                      + " moved back from "
                      + before
                      + " to "
                      + offset);
            }
            if (offset > source.end(tp)) {
              throw new Violation(
                  when
                      + ": Iceberg holds offset "
                      + offset
                      + " of "
                      + tp
                      + " past its log end "
                      + source.end(tp));
            }
          });
      Map<Long, String> actual;
      try {
        actual = rows(table);
      } catch (Violation e) {
        throw new Violation(when + ": " + e.getMessage());
      }
      checkLineage(when, table);
      Map<Long, String> expected = source.state(topic, offsets);
      if (!expected.equals(actual)) {
        throw new Violation(
            when
                + ": "
                + id
                + " is not the source at the offsets it records "
                + new TreeMap<>(stringKeys(offsets))
                + ": "
                + diff(expected, actual));
      }
    }
  }

  /**
   * Format v3: every row has a row id, no two rows share one, and a row whose value did not change
   * since the last check kept its id and its last-updated sequence number (merges, rewrites and
   * compactions move rows without changing them).
   */
  private void checkLineage(String when, Table table) {
    if (org.apache.iceberg.TableUtil.formatVersion(table) < 3) {
      return;
    }
    Map<Long, List<Object>> now = new HashMap<>();
    Set<Long> ids = new java.util.HashSet<>();
    org.apache.iceberg.Schema schema =
        org.apache.iceberg.MetadataColumns.schemaWithRowLineage(table.schema());
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).project(schema).build()) {
      for (Record r : records) {
        long key = ((Number) r.getField("id")).longValue();
        Object rowId = r.getField(org.apache.iceberg.MetadataColumns.ROW_ID.name());
        Object seq =
            r.getField(org.apache.iceberg.MetadataColumns.LAST_UPDATED_SEQUENCE_NUMBER.name());
        if (rowId == null || seq == null || !ids.add((Long) rowId)) {
          throw new Violation(
              when
                  + ": "
                  + table.name()
                  + " key "
                  + key
                  + " has row id "
                  + rowId
                  + ", sequence "
                  + seq
                  + " (null or taken)");
        }
        now.put(key, List.of(r.getField("v") + "/" + r.getField("amount"), rowId, seq));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    Map<Long, List<Object>> before = lineage.put(table.name(), now);
    if (before == null) {
      return;
    }
    before.forEach(
        (key, was) -> {
          List<Object> is = now.get(key);
          if (is != null && is.get(0).equals(was.get(0)) && !is.equals(was)) {
            throw new Violation(
                when
                    + ": "
                    + table.name()
                    + " key "
                    + key
                    + " did not change but its lineage did: (row id, sequence) "
                    + was.subList(1, 3)
                    + " -> "
                    + is.subList(1, 3));
          }
        });
  }

  private void checkAllSnapshotsReadable(TableIdentifier id) {
    if (!observer.tableExists(id)) {
      return;
    }
    Table table = observer.loadTable(id);
    for (Snapshot s : table.snapshots()) {
      checkFilesExist("at the end", table, s);
    }
  }

  private void checkFilesExist(String when, Table table, Snapshot snapshot) {
    if (snapshot == null) {
      return;
    }
    for (ManifestFile manifest : snapshot.allManifests(table.io())) {
      if (!world.io.exists(manifest.path())) {
        throw new Violation(
            when
                + ": snapshot "
                + snapshot.snapshotId()
                + " names a missing manifest "
                + manifest.path());
      }
      for (String location : world.io.parsed(manifest.path(), () -> liveFiles(table, manifest))) {
        missing(when, snapshot, location);
      }
    }
  }

  private static List<String> liveFiles(Table table, ManifestFile manifest) {
    List<String> locations = new ArrayList<>();
    try {
      if (manifest.content() == ManifestContent.DATA) {
        try (CloseableIterable<DataFile> files =
            ManifestFiles.read(manifest, table.io(), table.specs()).select(List.of("file_path"))) {
          files.forEach(f -> locations.add(f.location()));
        }
      } else {
        try (CloseableIterable<DeleteFile> files =
            ManifestFiles.readDeleteManifest(manifest, table.io(), table.specs())) {
          files.forEach(f -> locations.add(f.location()));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return locations;
  }

  private void missing(String when, Snapshot snapshot, String location) {
    if (!world.io.exists(location)) {
      throw new Violation(
          when + ": snapshot " + snapshot.snapshotId() + " names a deleted file " + location);
    }
  }

  /** key -> "v/amount" of every row; a key twice is a violation. */
  private static Map<Long, String> rows(Table table) {
    Map<Long, String> rows = new TreeMap<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record r : records) {
        long key = ((Number) r.getField("id")).longValue();
        String value = r.getField("v") + "/" + r.getField("amount");
        String before = rows.put(key, value);
        if (before != null) {
          throw new Violation(
              table.name() + " holds key " + key + " twice: " + before + " and " + value);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (org.apache.iceberg.exceptions.NotFoundException e) {
      throw new Violation(table.name() + " cannot be read: " + e.getMessage());
    }
    return rows;
  }

  // ---------------------------------------------------------------- helpers

  private void run(SimTask task, Runnable action) {
    running.push(task);
    try {
      action.run();
    } catch (Violation e) {
      throw e;
    } catch (RuntimeException e) {
      throw new Violation(task.name() + " failed: " + e);
    } finally {
      running.pop();
    }
  }

  private List<SimTask> live() {
    return tasks.stream().filter(t -> !t.zombie).toList();
  }

  private List<SimTask> all() {
    return tasks;
  }

  private <T> T pick(List<T> from) {
    return from.isEmpty() ? null : from.get(random.nextInt(from.size()));
  }

  private List<TopicPartition> kafkaDlqPartitions() {
    List<TopicPartition> dlq = new ArrayList<>();
    for (String topic : source.topics()) {
      dlq.add(new TopicPartition(topic.replace(".clean", ".dlq"), 0));
    }
    return dlq;
  }

  private static String header(ConsumerRecord<byte[], byte[]> r, String key) {
    Header h = r.headers().lastHeader(key);
    return h == null ? null : new String(h.value(), StandardCharsets.UTF_8);
  }

  private static Map<String, Long> stringKeys(Map<TopicPartition, Long> offsets) {
    Map<String, Long> out = new HashMap<>();
    offsets.forEach((tp, o) -> out.put(tp.toString(), o));
    return out;
  }

  private static String diff(Map<Long, String> expected, Map<Long, String> actual) {
    StringBuilder out = new StringBuilder();
    Set<Long> keys = new java.util.TreeSet<>(expected.keySet());
    keys.addAll(actual.keySet());
    int shown = 0;
    for (Long k : keys) {
      String e = expected.get(k);
      String a = actual.get(k);
      if (e == null ? a != null : !e.equals(a)) {
        if (shown++ < 8) {
          out.append(" key ")
              .append(k)
              .append(": source ")
              .append(e)
              .append(", lake ")
              .append(a)
              .append(';');
        }
      }
    }
    return shown + " keys differ:" + out;
  }
}
