package io.sluice.connect.upsert.sim;

import io.sluice.connect.upsert.ExternalCompaction;
import io.sluice.connect.upsert.ExternalDml;
import io.sluice.connect.upsert.ExternalOrphanRemoval;
import io.sluice.connect.upsert.ExternalRowMove;
import io.sluice.connect.upsert.commit.UpsertCommitter;
import io.sluice.dlq.DlqHeaders;
import io.sluice.lake.ScanRows;
import io.sluice.lake.offsets.IcebergOffsets;
import io.sluice.lake.offsets.SnapshotOffsets;
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
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.expressions.Expressions;
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

  /**
   * {@code -Dsluice.sim.other-writers=false}: the schedules as before the lake's other writers (no
   * partitioned tables, spec evolution, upgrades, DML of other engines, renames, retired topics,
   * churn, moved keys, external expiry or orphan removal).
   */
  private static final boolean OTHER_WRITERS =
      Boolean.parseBoolean(System.getProperty("sluice.sim.other-writers", "true"));

  /**
   * {@code -Dsluice.sim.commits-in-flight=false}: every commit round runs as the task starts it, as
   * before rounds ran beside the task (the same schedules otherwise).
   */
  private static final boolean COMMITS_IN_FLIGHT =
      Boolean.parseBoolean(System.getProperty("sluice.sim.commits-in-flight", "true"));

  private static final int FIRST_LAKE_FAULT = SimWorld.CommitFault.CONCURRENT_UPDATE.ordinal();

  /** How a run ended: the schedule it ran, and the first broken invariant (null if none). */
  record Outcome(
      long seed,
      List<String> schedule,
      String failure,
      int faults,
      int zombies,
      int dlqRecords,
      Map<String, Integer> commitModes,
      Map<String, Integer> operations) {
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
  // When the checks first saw each snapshot, on the simulation's clock (its age for an expiry).
  private final Map<Long, Long> seenAt = new HashMap<>();
  private int zombies;
  // The tasks whose calls are running, innermost first (a concurrent commit nests one call).
  private final Deque<SimTask> running = new ArrayDeque<>();
  private SimTask maintaining;
  private Violation nestedViolation;
  // The lake's other writers and operators: how often each operation ran (the outcome reports it).
  private final Map<String, Integer> operations = new TreeMap<>();
  // The connector's current name, and the offsets its former names left in the lake (oldest
  // first): a renamed connector starts a new group and replays every log from its start.
  private String connector = CONNECTOR;
  private final List<Map<TopicPartition, Long>> formerOffsets = new ArrayList<>();
  private final Set<String> retired = new HashSet<>();
  // Keys another engine set while a sink batch writing them was in flight: the lake holds the
  // engine's value until a commit of the sink covers an event of the key after it.
  private final Map<TableIdentifier, Map<Long, Override>> overrides = new HashMap<>();
  // Tables upgraded from v2 to v3: rows of their v2 files have no row ids.
  private final Set<TableIdentifier> upgraded = new HashSet<>();
  private long keyIndexLimit;
  private final KeyIndexWarnings indexWarnings = new KeyIndexWarnings();
  private int externalValues;
  // Seeds whose key indexes live in mapped files from their first key, in a real directory the
  // schedule breaks for a while (null on the others). Their steps draw from a random of their own,
  // so that every other seed keeps its schedule.
  private final Random spillRandom;
  private SimSpillDir spill;
  // When a commit round in flight reaches the lake; a random of its own, so that the schedule's
  // other draws stay as they were before commits ran beside the task.
  private final Random commitRandom;

  /** An engine's value of a key that the sink's event after {@code from} must overwrite. */
  private record Override(TopicPartition tp, long from, String connector, String value) {}

  Simulation(long seed, int steps) {
    this.seed = seed;
    this.steps = steps;
    this.random = new Random(seed);
    // Mixed: the first draws of Randoms of nearby seeds go together.
    this.spillRandom = new Random(seed * 0x9E3779B97F4A7C15L);
    this.commitRandom = new Random(seed * 0xC2B2AE3D27D4EB4FL + 1);
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
      stopEveryTask();
    } catch (Violation e) {
      failure = e.getMessage();
    } catch (RuntimeException | AssertionError e) {
      log.error("Seed {} of the simulation failed unexpectedly", seed, e);
      failure = "unexpected " + e + " (stack trace in the log)";
    } finally {
      indexWarnings.stop();
      world.close();
      if (spill != null) {
        spill.close();
      }
    }
    int dlq = 0;
    for (TopicPartition tp : kafkaDlqPartitions()) {
      dlq += kafka.log(tp).size();
    }
    return new Outcome(
        seed,
        List.copyOf(schedule),
        failure,
        faults,
        zombies,
        dlq,
        Map.copyOf(modes),
        Map.copyOf(operations));
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
    world.onConcurrentDml(this::concurrentDml);
    indexWarnings.start();

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
    // The sim's batches are small beside its tables: merge whatever fits in the bytes.
    props.put("maintenance.merge.max-rows-per-key", "0");
    // Some seeds index by position with a small limit and a topic of key churn: the index of the
    // keys ever seen passes it, the live keys are far within it.
    boolean churn = OTHER_WRITERS && writeMode != 2 && random.nextInt(3) == 0;
    keyIndexLimit = writeMode == 2 ? 0 : churn ? 2048 : 64L << 20;
    props.put("key-index.max-bytes", String.valueOf(keyIndexLimit));
    if (churn) {
      props.put("key-index.spill.max-bytes", "0");
    }
    // Some seeds indexing by position spill every index to mapped files from its first key (a heap
    // limit under the 16 slots of the smallest index), in a directory of each task's.
    if (OTHER_WRITERS && writeMode == 1 && !churn && spillRandom.nextInt(2) == 0) {
      spill = new SimSpillDir();
      keyIndexLimit = 64;
      props.put("key-index.max-bytes", String.valueOf(keyIndexLimit));
      props.put("key-index.spill.max-bytes", String.valueOf(16L << 20));
    }
    // Some seeds create partitioned tables; some copy no file for its deletes (another engine
    // compacts), so a row a concurrent writer deletes stays in a file the commit deletes from.
    boolean partitioned = OTHER_WRITERS && random.nextInt(3) == 0;
    if (partitioned) {
      props.put("table.partition.by", "bucket(id, " + (2 + random.nextInt(3)) + ")");
    }
    if (OTHER_WRITERS && random.nextInt(3) == 0) {
      props.put("maintenance.rewrite.deleted-fraction", "2");
    }
    props.put("maintenance.rewrite.delete-files", String.valueOf(1 + random.nextInt(3)));
    props.put("maintenance.snapshots.keep-last", String.valueOf(2 + random.nextInt(4)));
    props.put("maintenance.snapshots.max-age-ms", "0");
    props.put("maintenance.idle-commit.interval-ms", "2000");
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
            + " snapshots kept"
            + (partitioned ? ", partitioned by " + props.get("table.partition.by") : "")
            + (churn ? ", key index limit " + keyIndexLimit + " with a topic of key churn" : "")
            + (spill != null ? ", key indexes in mapped files" : "")
            + (props.containsKey("maintenance.rewrite.deleted-fraction") ? ", no copy" : ""));
    for (int i = 0; i < taskCount; i++) {
      tasks.add(newTask(i, 0));
    }
    addTopic();
    if (churn) {
      String topic = source.addChurnTopic(1 + random.nextInt(2));
      schedule.add("topic " + topic + " appears, its keys churn (not assigned until a rebalance)");
    }
    rebalance();
  }

  private SimTask newTask(int id, int incarnation) {
    Map<String, String> taskProps = new HashMap<>(props);
    taskProps.put("sluice.task.id", String.valueOf(id));
    if (spill != null) {
      taskProps.put("key-index.spill.dir", spill.of(id, incarnation).toString());
    }
    SimTask task = new SimTask(id, incarnation, taskProps, clock, kafka);
    if (!COMMITS_IN_FLIGHT) {
      task.commits.immediate();
    }
    return task;
  }

  // ---------------------------------------------------------------- the schedule

  private void step() {
    roundsInFlightLand();
    if (spill != null && spillRandom.nextInt(12) == 0) {
      if (spillRandom.nextBoolean()) {
        spillFault();
      } else {
        stopWithoutClose();
      }
      return;
    }
    clock.advanceMs(random.nextInt(400));
    int r = random.nextInt(OTHER_WRITERS ? 126 : 100);
    if (r >= 100) {
      lakeStep(r - 100);
      return;
    }
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

  /**
   * A task's commit round runs on its commit thread while the task goes on: each round in flight
   * reaches the lake now, or stays in flight through this step (the task may poll, put, rebalance,
   * be killed; other writers commit).
   */
  private void roundsInFlightLand() {
    for (SimTask t : List.copyOf(tasks)) {
      if (t.commits.inFlight() && commitRandom.nextBoolean()) {
        schedule.add(t.name() + (t.zombie ? " (zombie)" : "") + ": its commit round runs");
        run(t, t.commits::runQueued);
      }
    }
  }

  private void produce() {
    List<TopicPartition> tps = subscribedPartitions();
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
    for (TopicPartition tp : subscribedPartitions()) {
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
    if (spill != null) {
      spill.crashed(victim.id, victim.incarnation);
    }
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
    List<String> topics = subscribed();
    TopicPartition tp = source.addPartition(topics.get(random.nextInt(topics.size())));
    schedule.add("partition " + tp + " appears (not assigned until a rebalance)");
  }

  private void widen() {
    List<String> topics = subscribed().stream().filter(t -> !source.wide(t)).toList();
    if (topics.isEmpty()) {
      return;
    }
    String topic = topics.get(random.nextInt(topics.size()));
    source.widen(topic);
    schedule.add("the key of " + topic + " widens INT -> BIGINT");
  }

  private void armFault() {
    SimWorld.CommitFault[] all = SimWorld.CommitFault.values();
    arm(all[random.nextInt(OTHER_WRITERS ? all.length : FIRST_LAKE_FAULT)]);
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
    List<SimTask> candidates =
        live().stream()
            .filter(this::mayCommitMeanwhile)
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
      run(task, task.commits::runQueued);
    } catch (Violation e) {
      nestedViolation = e;
      throw e;
    }
  }

  /**
   * Whether {@code task} can commit new records inside the commit running now: not while a call of
   * its own is running (its put, or its commit round: a put waits for the round before it starts
   * another), but while only its maintenance is, which runs on a thread of its own.
   */
  private boolean mayCommitMeanwhile(SimTask task) {
    int frames = java.util.Collections.frequency(running, task);
    return frames == 0 || (frames == 1 && task == maintaining);
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

  // ---------------------------------------------------------------- the lake's other writers

  /** One operation of another engine or an operator on the lake, or of the source. */
  private void lakeStep(int r) {
    if (r < 3) {
      specEvolution();
    } else if (r < 7) {
      scopedMove();
    } else if (r < 8) {
      upgrade();
    } else if (r < 12) {
      inFlight(
          r < 11
              ? SimWorld.CommitFault.CONCURRENT_UPDATE
              : SimWorld.CommitFault.CONCURRENT_EQUALITY_UPSERT);
    } else if (r < 14) {
      equalityUpsert();
    } else if (r < 15) {
      rename();
    } else if (r < 16) {
      retire();
    } else if (r < 19) {
      churn();
    } else if (r < 22) {
      produceMoved();
    } else if (r < 23) {
      clock.advanceMs(4 * DAY_MS);
      schedule.add("time: +4d");
      tasksPollMeanwhile();
      externalOrphanRemoval();
    } else if (r < 24) {
      externalExpiry();
    } else if (r < 25) {
      dataPathAtLocation();
    } else {
      inFlight(SimWorld.CommitFault.CONCURRENT_UPDATE);
    }
  }

  private static final long DAY_MS = 86_400_000L;

  /**
   * Days passed: the live tasks went on polling meanwhile, as Connect's worker does, so each held
   * partition was committed again (idle commits) and no commit round is still in flight.
   */
  private void tasksPollMeanwhile() {
    for (SimTask t : live()) {
      run(t, () -> t.poll(source, 0));
      run(t, t.commits::runQueued);
    }
  }

  /**
   * An operator points {@code write.data.path} of a table at its location (data files beside {@code
   * metadata/}), four days pass, and every task's maintenance runs: the sink's orphan removal now
   * lists the metadata too and must leave every file the table reaches.
   */
  private void dataPathAtLocation() {
    TableIdentifier id = pickTable();
    if (id == null) {
      return;
    }
    Table table = observer.loadTable(id);
    if (table.location().equals(table.properties().get(TableProperties.WRITE_DATA_LOCATION))) {
      return;
    }
    table.updateProperties().set(TableProperties.WRITE_DATA_LOCATION, table.location()).commit();
    count("data path at the table location");
    schedule.add("an operator sets write.data.path of " + id + " to its location");
    clock.advanceMs(4 * DAY_MS);
    schedule.add("time: +4d; every task's maintenance passes");
    tasksPollMeanwhile();
    for (SimTask t : tasks) {
      t.maintenance.tick();
      runMaintenance(t);
    }
  }

  private void count(String operation) {
    operations.merge(operation, 1, Integer::sum);
  }

  private List<String> subscribed() {
    return source.topics().stream().filter(t -> !retired.contains(t)).toList();
  }

  private List<TopicPartition> subscribedPartitions() {
    return source.partitions().stream().filter(tp -> !retired.contains(tp.topic())).toList();
  }

  /** A table of a subscribed topic that exists, at random; null if none. */
  private TableIdentifier pickTable() {
    List<TableIdentifier> ids =
        subscribed().stream().map(SourceModel::tableOf).filter(observer::tableExists).toList();
    return pick(ids);
  }

  /** An operator adds a partition field to a table the sink writes (Spark ADD PARTITION FIELD). */
  private void specEvolution() {
    TableIdentifier id = pickTable();
    if (id == null) {
      return;
    }
    Table table = observer.loadTable(id);
    int buckets = 2 + random.nextInt(7);
    String name = "id_bucket_" + buckets;
    String transform = "bucket[" + buckets + "]";
    if (table.spec().fields().stream()
        .anyMatch(f -> f.name().equals(name) || f.transform().toString().equals(transform))) {
      return;
    }
    table.updateSpec().addField(name, Expressions.bucket("id", buckets)).commit();
    count("spec evolution");
    schedule.add("an operator adds bucket(id, " + buckets + ") to the spec of " + id);
  }

  /**
   * Another engine on a v2 table moves rows of two or more files of one partition unchanged, with
   * one partition-scoped position-delete file (older Spark, write.delete.granularity=partition).
   */
  private void scopedMove() {
    TableIdentifier id = pickTable();
    if (id == null) {
      return;
    }
    Table table = observer.loadTable(id);
    if (org.apache.iceberg.TableUtil.formatVersion(table) >= 3) {
      return;
    }
    List<Long> keys = new ArrayList<>(rows(table).keySet());
    keys.removeAll(source.moved(tableTopic(id)));
    java.util.Collections.shuffle(keys, random);
    ExternalDml.ScopedMove moved = new ExternalDml(observer, id).moveScoped(Set.copyOf(keys));
    schedule.add(
        "another engine moves rows of "
            + id
            + " with a partition-scoped delete: "
            + (moved == null ? "nothing moved" : moved.description()));
    if (moved == null) {
      return;
    }
    count("scoped position deletes");
    if (random.nextBoolean()) {
      return;
    }
    // The upgrade, then updates of keys whose rows share a file with the moved ones: the sink's
    // first DVs of those files.
    upgrade(id);
    String topic = tableTopic(id);
    List<TopicPartition> touched = new ArrayList<>();
    for (Long key : moved.neighbours()) {
      TopicPartition tp = new TopicPartition(topic, (int) (key / 1_000));
      if (source.partitions().contains(tp) && !source.moved(topic).contains(key)) {
        SourceModel.Event e = source.produceUpsert(tp, key, random);
        schedule.add("produce " + tp + ": " + e.offset() + "=UPSERT(" + key + ")");
        touched.add(tp);
      }
    }
    for (SimTask t : live()) {
      if (t.assignment().stream().anyMatch(touched::contains)) {
        poll(t);
        commitTick(t);
      }
    }
  }

  /** An operator upgrades a v2 table to format v3. */
  private void upgrade() {
    TableIdentifier id = pickTable();
    if (id != null) {
      upgrade(id);
    }
  }

  private void upgrade(TableIdentifier id) {
    Table table = observer.loadTable(id);
    if (org.apache.iceberg.TableUtil.formatVersion(table) >= 3) {
      return;
    }
    table.updateProperties().set(TableProperties.FORMAT_VERSION, "3").commit();
    upgraded.add(id);
    count("upgrade to v3");
    schedule.add("an operator upgrades " + id + " to format v3");
  }

  /**
   * Arms a writer that commits inside the sink's next commit, then lets a task with records it has
   * not committed reach its commit.
   */
  private void inFlight(SimWorld.CommitFault fault) {
    SimTask task =
        pick(
            live().stream()
                .filter(t -> t.assignment().stream().anyMatch(tp -> pendingFrom(t, tp) >= 0))
                .toList());
    if (task == null) {
      task = pick(live());
      if (task == null) {
        return;
      }
      poll(task);
    }
    arm(fault);
    commitTick(task);
  }

  /** Iceberg's offset of {@code tp} when {@code task} has put records after it; -1 otherwise. */
  private long pendingFrom(SimTask task, TopicPartition tp) {
    TableIdentifier id = tableOf(tp);
    if (!observer.tableExists(id)) {
      return -1;
    }
    long held =
        IcebergOffsets.of(observer.loadTable(id), connector, List.of(tp)).getOrDefault(tp, 0L);
    return task.position(tp) > held ? held : -1;
  }

  /**
   * Inside a commit of the sink to {@code id}: another engine updates rows of keys of the
   * committing task's pending batch to values of its own. The sink's event of each key comes after
   * the engine's in the lake's history, so it must have the last word: until a commit of the sink
   * covers it, the model holds the engine's value ({@link Override}).
   */
  private void concurrentDml(TableIdentifier id, SimWorld.CommitFault fault) {
    SimTask task = running.peek();
    if (task == null || task == maintaining) {
      schedule.add("  (no sink batch in flight: the commit is a maintenance one)");
      return;
    }
    Table table = observer.loadTable(id);
    Map<Long, TopicPartition> keys = new LinkedHashMap<>();
    Map<TopicPartition, Long> from = new HashMap<>();
    for (TopicPartition tp : task.assignment()) {
      if (!tableOf(tp).equals(id)) {
        continue;
      }
      long held = IcebergOffsets.of(table, connector, List.of(tp)).getOrDefault(tp, 0L);
      Set<Long> moved = source.moved(tp.topic());
      for (SourceModel.Event e : source.events(tp)) {
        if (e.offset() >= held
            && e.offset() < task.position(tp)
            && !moved.contains(e.key())
            && (e.kind() == SourceModel.Kind.UPSERT || e.kind() == SourceModel.Kind.DELETE)) {
          keys.put(e.key(), tp);
          from.put(tp, held);
        }
      }
    }
    if (keys.isEmpty()) {
      schedule.add("  (no key of " + id + " pending at " + task.name() + ")");
      return;
    }
    List<Long> candidates = new ArrayList<>(keys.keySet());
    java.util.Collections.shuffle(candidates, random);
    Map<Long, ExternalDml.Change> changes = new LinkedHashMap<>();
    for (Long key : candidates.subList(0, Math.min(candidates.size(), 1 + random.nextInt(3)))) {
      changes.put(key, ExternalDml.Change.set("x" + (++externalValues), random.nextInt(1_000)));
    }
    ExternalDml dml = new ExternalDml(observer, id);
    Set<Long> done =
        fault == SimWorld.CommitFault.CONCURRENT_UPDATE
            ? dml.updateByPosition(changes)
            : dml.upsertByEquality(changes);
    for (Long key : done) {
      ExternalDml.Change c = changes.get(key);
      TopicPartition tp = keys.get(key);
      overrides
          .computeIfAbsent(id, k -> new HashMap<>())
          .put(key, new Override(tp, from.get(tp), connector, c.v() + "/" + c.amount()));
    }
    forgetLineage(table, done);
    count(
        fault == SimWorld.CommitFault.CONCURRENT_UPDATE
            ? "update in flight"
            : "equality upsert in flight");
    schedule.add(
        "  meanwhile another engine "
            + (fault == SimWorld.CommitFault.CONCURRENT_UPDATE
                ? "updates by position"
                : "upserts by equality deletes")
            + " keys "
            + changes.keySet()
            + " of "
            + task.name()
            + "'s pending batch: "
            + (done.isEmpty() ? "refused or no live row" : done + " set"));
  }

  /** A Flink-style upsert of live keys to the values they have (the model stays as it is). */
  private void equalityUpsert() {
    TableIdentifier id = pickTable();
    if (id == null) {
      return;
    }
    Table table = observer.loadTable(id);
    Map<Long, String> live = rows(table);
    List<Long> keys = new ArrayList<>(live.keySet());
    keys.removeAll(source.moved(tableTopic(id)));
    java.util.Collections.shuffle(keys, random);
    Map<Long, ExternalDml.Change> changes = new LinkedHashMap<>();
    for (Long key : keys.subList(0, Math.min(keys.size(), 1 + random.nextInt(4)))) {
      String[] value = live.get(key).split("/");
      changes.put(
          key,
          ExternalDml.Change.set(
              "null".equals(value[0]) ? null : value[0], Long.parseLong(value[1])));
    }
    if (changes.isEmpty()) {
      return;
    }
    Set<Long> done = new ExternalDml(observer, id).upsertByEquality(changes);
    forgetLineage(table, done);
    count("equality upsert");
    schedule.add(
        "another engine upserts " + done + " of " + id + " by equality deletes, unchanged");
  }

  private String tableTopic(TableIdentifier id) {
    return source.topics().stream()
        .filter(t -> SourceModel.tableOf(t).equals(id))
        .findFirst()
        .orElseThrow();
  }

  /** Rows another engine rewrote get new row ids: their lineage starts again. */
  private void forgetLineage(Table table, Set<Long> keys) {
    Map<Long, List<Object>> known = lineage.get(table.name());
    if (known != null) {
      keys.forEach(known::remove);
    }
  }

  /** Connect stops every task (each closes its partitions), as before a config change. */
  private boolean stopAll() {
    if (tasks.stream().anyMatch(t -> t.zombie)) {
      return false;
    }
    for (SimTask t : tasks) {
      run(t, t::beforeConsumerPoll);
      run(t, () -> t.stop(group));
    }
    return true;
  }

  private void startAll() {
    List<SimTask> next = new ArrayList<>();
    for (SimTask t : tasks) {
      next.add(newTask(t.id, t.incarnation + 1));
    }
    tasks.clear();
    tasks.addAll(next);
    rebalance();
  }

  /**
   * The connector is renamed (its config PUT under a new name, the old one deleted): a new consumer
   * group with no offsets, and no offsets of the new name in the lake, so it replays every log.
   */
  private void rename() {
    if (!stopAll()) {
      return;
    }
    Map<TopicPartition, Long> left = new HashMap<>();
    for (String topic : source.topics()) {
      TableIdentifier id = SourceModel.tableOf(topic);
      if (observer.tableExists(id)) {
        Map<TopicPartition, Long> offsets = IcebergOffsets.all(observer.loadTable(id), connector);
        resolveOverrides(id, offsets);
        left.putAll(offsets);
      }
    }
    formerOffsets.add(left);
    String was = connector;
    connector = CONNECTOR + "-v" + (formerOffsets.size() + 1);
    props.put("name", connector);
    group.clear();
    lastOffsets.clear();
    checked.clear();
    count("rename");
    schedule.add("the connector " + was + " is renamed " + connector + " (a new group)");
    startAll();
  }

  /** A topic leaves topics.regex: the tasks restart without it. */
  private void retire() {
    List<String> topics = subscribed();
    if (topics.size() < 2) {
      return;
    }
    String topic = topics.get(random.nextInt(topics.size()));
    if (!stopAll()) {
      return;
    }
    retired.add(topic);
    StringBuilder excluded = new StringBuilder();
    for (String t : retired) {
      excluded.append(excluded.length() == 0 ? "" : "|").append(t.split("\\.")[2]);
    }
    props.put("topics.regex", "broker\\.sim\\.(?!(?:" + excluded + ")\\.).+\\.clean");
    count("topic retired");
    schedule.add("topic " + topic + " leaves topics.regex " + props.get("topics.regex"));
    startAll();
  }

  /** A burst of key churn: new keys, each deleted a few keys later. */
  private void churn() {
    List<TopicPartition> tps =
        subscribedPartitions().stream().filter(tp -> source.churn(tp.topic())).toList();
    TopicPartition tp = pick(tps);
    if (tp == null) {
      produce();
      return;
    }
    int n = 40 + random.nextInt(40);
    List<SourceModel.Event> events = source.churn(tp, n, 3);
    count("churn");
    schedule.add(
        "produce "
            + tp
            + ": "
            + n
            + " new keys, each deleted 3 keys later (offsets "
            + events.get(0).offset()
            + ".."
            + events.get(events.size() - 1).offset()
            + ")");
  }

  /** A key's change produced on another partition of its topic (the key moves partition). */
  private void produceMoved() {
    TopicPartition tp = pick(subscribedPartitions());
    if (tp == null) {
      return;
    }
    SourceModel.Event e = source.produceMoved(tp, random);
    if (e == null) {
      produce();
      return;
    }
    count("key moved partition");
    schedule.add(
        "produce " + tp + ": " + e.offset() + "=" + e.kind() + "(" + e.key() + ", moved here)");
  }

  /**
   * Another engine expires snapshots as Spark's expire_snapshots does by default: older than 5
   * days, the last one retained. Snapshot ages are the simulation's: the sim clock when the check
   * first saw each snapshot.
   */
  private void externalExpiry() {
    long cutoff = clock.millis() - 5 * DAY_MS;
    for (String topic : subscribed()) {
      TableIdentifier id = SourceModel.tableOf(topic);
      if (!observer.tableExists(id)) {
        continue;
      }
      Table table = observer.loadTable(id);
      if (table.currentSnapshot() == null) {
        continue;
      }
      List<Long> old = new ArrayList<>();
      for (Snapshot s : table.snapshots()) {
        Long seen = seenAt.get(s.snapshotId());
        if (s.snapshotId() != table.currentSnapshot().snapshotId()
            && seen != null
            && seen < cutoff) {
          old.add(s.snapshotId());
        }
      }
      if (old.isEmpty()) {
        continue;
      }
      org.apache.iceberg.ExpireSnapshots expire = table.expireSnapshots().retainLast(1);
      old.forEach(expire::expireSnapshotId);
      expire.commit();
      count("external expiry");
      schedule.add("another engine expires " + old.size() + " snapshots of " + id + " (> 5 days)");
    }
  }

  /** Another engine removes orphan files older than 3 days (Spark's default). */
  private void externalOrphanRemoval() {
    for (String topic : source.topics()) {
      TableIdentifier id = SourceModel.tableOf(topic);
      if (!observer.tableExists(id)) {
        continue;
      }
      List<String> removed =
          ExternalOrphanRemoval.removeOnce(observer.loadTable(id), clock.millis() - 3 * DAY_MS);
      count("external orphan removal");
      schedule.add("another engine removes " + removed.size() + " orphan files of " + id);
    }
  }

  // ---------------------------------------------------------------- the spill directory

  /** Past this many commits of a table after its spill directory came back, it is unindexed. */
  private static final int SPILL_RECOVERY_COMMITS = 100;

  /**
   * The spill directory of every task becomes a plain file for two or three commit intervals (every
   * spill file made meanwhile fails with a real filesystem error), just after the tasks restarted,
   * so that every index is built again meanwhile; then the directories are back. A table written by
   * equality deletes meanwhile must be indexed again: a commit by position deletes follows within
   * {@value #SPILL_RECOVERY_COMMITS} commits of it.
   */
  private void spillFault() {
    if (tasks.stream().anyMatch(t -> t.zombie)) {
      return;
    }
    Map<TableIdentifier, Long> before = currentSnapshots();
    int rounds = 2 + spillRandom.nextInt(2);
    // Restarted first (a task checks its spill directory as it starts), with no index yet.
    stopAll();
    startAll();
    spill.breakAll(tasks.size());
    count("spill directory broken");
    schedule.add(
        "the tasks restart; then the spill directory of every task is a plain file for "
            + rounds
            + " commit intervals");
    for (int round = 0; round < rounds; round++) {
      for (SimTask t : live()) {
        commitSome(t, pick(t.assignment().stream().toList()));
      }
    }
    spill.restoreAll(tasks.size());
    Map<TableIdentifier, Long> restored = currentSnapshots();
    List<TableIdentifier> unindexed = new ArrayList<>();
    restored.forEach(
        (id, at) -> {
          if (modesSince(id, before.get(id)).contains(UpsertCommitter.MODE_EQUALITY_DELETES)) {
            unindexed.add(id);
          }
        });
    schedule.add(
        "  the spill directories are back; written by equality deletes meanwhile: " + unindexed);
    for (TableIdentifier id : unindexed) {
      indexedAgain(id, restored.get(id));
    }
  }

  /** Commits by position deletes resume on {@code id} after snapshot {@code from}. */
  private void indexedAgain(TableIdentifier id, Long from) {
    for (int n = 0; n < SPILL_RECOVERY_COMMITS; n++) {
      if (modesSince(id, from).contains(UpsertCommitter.MODE_POSITION_DELETES)) {
        if (n > 0) {
          schedule.add("  " + id + " is written by position deletes again after " + n + " commits");
        }
        return;
      }
      List<TopicPartition> held = new ArrayList<>();
      SimTask holder = null;
      for (SimTask t : live()) {
        for (TopicPartition tp : t.assignment()) {
          if (tableOf(tp).equals(id) && !retired.contains(tp.topic())) {
            held.add(tp);
            holder = t;
          }
        }
        if (holder != null) {
          break;
        }
      }
      if (holder == null) {
        return;
      }
      commitSome(holder, held.get(spillRandom.nextInt(held.size())));
    }
    throw new Violation(
        "the spill directories were back, and "
            + id
            + " was still written by equality deletes "
            + SPILL_RECOVERY_COMMITS
            + " commits later: a spill file that could not be made left it unindexed");
  }

  /** A change or two of {@code tp} (if any), then {@code task} polls and commits. */
  private void commitSome(SimTask task, TopicPartition tp) {
    if (tp != null) {
      for (int i = 1 + spillRandom.nextInt(2); i > 0; i--) {
        source.produce(tp, spillRandom, false);
      }
    }
    run(task, () -> task.poll(source, 100));
    clock.advanceMs(INTERVAL_MS);
    run(task, () -> task.put(List.of()));
    run(task, task.commits::runQueued);
  }

  private Map<TableIdentifier, Long> currentSnapshots() {
    Map<TableIdentifier, Long> current = new HashMap<>();
    for (String topic : subscribed()) {
      TableIdentifier id = SourceModel.tableOf(topic);
      if (observer.tableExists(id)) {
        Snapshot s = observer.loadTable(id).currentSnapshot();
        current.put(id, s == null ? null : s.snapshotId());
      }
    }
    return current;
  }

  /** The commit modes of {@code id}'s snapshots after {@code from} (all when null). */
  private Set<String> modesSince(TableIdentifier id, Long from) {
    Set<String> modes = new HashSet<>();
    for (Snapshot s :
        org.apache.iceberg.util.SnapshotUtil.currentAncestors(observer.loadTable(id))) {
      if (from != null && s.snapshotId() == from) {
        break;
      }
      String mode = s.summary().get(UpsertCommitter.COMMIT_MODE);
      if (mode != null) {
        modes.add(mode);
      }
    }
    return modes;
  }

  /**
   * Connect stops a task without closing its partitions (a worker shutting down): its key indexes
   * must hold no spill file open once {@code stop} returned. A new incarnation takes its place.
   */
  private void stopWithoutClose() {
    SimTask victim = live().isEmpty() ? null : live().get(spillRandom.nextInt(live().size()));
    if (victim == null) {
      return;
    }
    run(victim, victim::stopWithoutClose);
    count("stop without close");
    List<String> open = SimSpillDir.openUnder(spill.of(victim.id, victim.incarnation));
    if (!open.isEmpty()) {
      throw new Violation(
          victim.name()
              + " was stopped without close() and still holds "
              + open.size()
              + " spill files of its key indexes open: "
              + open);
    }
    SimTask next = newTask(victim.id, victim.incarnation + 1);
    tasks.set(tasks.indexOf(victim), next);
    schedule.add(
        victim.name() + " stops without closing its partitions; " + next.name() + " starts");
    rebalance();
  }

  /**
   * At the very end every task stops, closing its partitions first or not: no spill file is left
   * open or on disk.
   */
  private void stopEveryTask() {
    if (spill == null) {
      return;
    }
    for (SimTask t : tasks) {
      if (!t.zombie && spillRandom.nextBoolean()) {
        run(t, t::beforeConsumerPoll);
        run(t, () -> t.stop(group));
        schedule.add(t.name() + " closes its partitions and stops");
      } else {
        run(t, t::stopWithoutClose);
        schedule.add(t.name() + " stops without closing its partitions");
      }
    }
    List<String> open = spill.open();
    List<String> left = spill.filesLeft();
    if (!open.isEmpty() || !left.isEmpty()) {
      throw new Violation(
          "every task stopped, and the key indexes still hold "
              + open.size()
              + " spill files open "
              + open
              + ", "
              + left.size()
              + " on disk "
              + left);
    }
  }

  // ---------------------------------------------------------------- the end

  /** Faults stop, zombies learn, every task catches up: the lake must equal the whole source. */
  private void quiesce() {
    schedule.add("quiesce: faults disarmed, zombies close, everyone catches up");
    world.disarm();
    for (SimTask t : tasks) {
      run(t, t.commits::immediate);
    }
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
      if (retired.contains(topic)) {
        // Nobody consumes it any more: the checks hold it to the offsets it records.
        checkAllSnapshotsReadable(id);
        continue;
      }
      Map<TopicPartition, Long> ends = new HashMap<>();
      source.partitions().stream()
          .filter(tp -> tp.topic().equals(topic))
          .forEach(tp -> ends.put(tp, source.end(tp)));
      Map<Long, String> expected = source.state(topic, ends);
      Map<Long, String> actual =
          new TreeMap<>(observer.tableExists(id) ? rows(observer.loadTable(id)) : Map.of());
      if (observer.tableExists(id)) {
        // The checks read on their own thread (ScanRows); Iceberg's own reader must agree.
        Map<Long, String> generic = rowsByIcebergGenerics(observer.loadTable(id));
        if (!generic.equals(actual)) {
          throw new Violation(
              id + " read by ScanRows " + actual + " but by IcebergGenerics " + generic);
        }
      }
      for (Long key : source.moved(topic)) {
        // Its events on two partitions have no order: it ends as one partition's last left it.
        String was = actual.remove(key);
        expected.remove(key);
        Set<String> may = source.endStates(topic, key);
        if (!may.contains(was)) {
          throw new Violation(
              "after every task caught up, "
                  + id
                  + " holds "
                  + was
                  + " for key "
                  + key
                  + ", which moved between partitions; it may hold only one of "
                  + may);
        }
      }
      if (!expected.equals(actual)) {
        throw new Violation(
            "after every task caught up, "
                + id
                + " differs from the source: "
                + diff(expected, actual)
                + "; Iceberg offsets "
                + (observer.tableExists(id)
                    ? IcebergOffsets.all(observer.loadTable(id), connector)
                    : "(no table)")
                + ", log ends "
                + ends);
      }
      checkAllSnapshotsReadable(id);
    }
    checkDlq();
    steadyLoadWithAQuietPartition();
    offsetsHorizonPasses();
  }

  /**
   * A week passes with every held partition re-recorded by idle commits and maintenance running: no
   * snapshot older than the offsets horizon is needed any more, so each table's snapshots fall back
   * to about {@code maintenance.snapshots.keep-last} — also after a rename or a retired topic left
   * entries nobody records again. Then another engine expires and removes orphans with Spark's
   * defaults: the offsets of every held partition survive.
   */
  private void offsetsHorizonPasses() {
    clock.advanceMs(7 * DAY_MS + 3_600_000);
    schedule.add("time: +7d01h (past the offsets horizon); idle commits and maintenance");
    long idleMs = Long.parseLong(props.get("maintenance.idle-commit.interval-ms"));
    for (int round = 0; round < 3; round++) {
      clock.advanceMs(idleMs + INTERVAL_MS);
      for (SimTask t : tasks) {
        run(t, () -> t.poll(source, 100));
      }
      for (SimTask t : tasks) {
        t.maintenance.tick();
        runMaintenance(t);
      }
    }
    check("after a week of idle commits");
    int bound = Integer.parseInt(props.get("maintenance.snapshots.keep-last")) + tasks.size() + 2;
    for (String topic : subscribed()) {
      TableIdentifier id = SourceModel.tableOf(topic);
      if (!observer.tableExists(id)) {
        continue;
      }
      int snapshots = 0;
      for (Snapshot ignored : observer.loadTable(id).snapshots()) {
        snapshots++;
      }
      if (snapshots > bound) {
        throw new Violation(
            "a week after "
                + (formerOffsets.isEmpty() ? "" : "the rename to " + connector + ", ")
                + id
                + " keeps "
                + snapshots
                + " snapshots, more than keep-last "
                + props.get("maintenance.snapshots.keep-last")
                + " + "
                + (tasks.size() + 2)
                + ": entries nobody records any more pin its expiry");
      }
    }
    externalExpiry();
    externalOrphanRemoval();
    check("after another engine's expiry and orphan removal");
  }

  /**
   * Load on every partition but one for a few idle-commit intervals, with maintenance: the quiet
   * partition's table must not pin its snapshots. Its offsets are in the newest snapshot naming it,
   * and expiry keeps everything newer; a task busy with other partitions must still commit the
   * quiet one's offsets again within an idle interval, so the oldest snapshot any lookup needs is
   * never older than the one that was current an idle interval (and two rounds) ago.
   */
  private void steadyLoadWithAQuietPartition() {
    List<TopicPartition> tps = subscribedPartitions();
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
      for (String topic : subscribed()) {
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
      // The current connector's held partitions (a former name's are the horizon's business).
      int needed = oldestNeeded(ancestry, Set.copyOf(tps));
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

  /** As {@link IcebergOffsets#oldestNeeded}, for the current connector's {@code held} only. */
  private int oldestNeeded(List<Snapshot> ancestry, Set<TopicPartition> held) {
    Set<TopicPartition> named = new HashSet<>();
    int oldest = -1;
    for (int i = 0; i < ancestry.size(); i++) {
      for (TopicPartition tp :
          SnapshotOffsets.fromSummary(ancestry.get(i).summary(), connector)
              .orElse(Map.of())
              .keySet()) {
        if (held.contains(tp) && named.add(tp)) {
          oldest = i;
        }
      }
    }
    return oldest;
  }

  private boolean lakeHoldsEverything() {
    for (String topic : subscribed()) {
      TableIdentifier id = SourceModel.tableOf(topic);
      Map<TopicPartition, Long> ends = new HashMap<>();
      source.partitions().stream()
          .filter(tp -> tp.topic().equals(topic))
          .forEach(tp -> ends.put(tp, source.end(tp)));
      Map<Long, String> expected = source.state(topic, ends);
      Map<Long, String> actual;
      try {
        actual = new TreeMap<>(observer.tableExists(id) ? rows(observer.loadTable(id)) : Map.of());
      } catch (Violation e) {
        throw new Violation("while catching up: " + e.getMessage());
      }
      expected.keySet().removeAll(source.moved(topic));
      actual.keySet().removeAll(source.moved(topic));
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
    for (TopicPartition tp : subscribedPartitions()) {
      for (SourceModel.Event e : source.events(tp)) {
        String input = tp.topic() + "-" + tp.partition() + "@" + e.offset();
        int count = inDlq.getOrDefault(input, 0);
        if (e.kind() == SourceModel.Kind.POISON && count == 0) {
          throw new Violation("the poison record at " + input + " is not in the DLQ");
        }
        if (e.kind() != SourceModel.Kind.POISON && count > 0) {
          throw new Violation("the valid record at " + input + " is in the DLQ");
        }
        // A renamed connector quarantines again what its former name did.
        if (count > 1 && zombies == 0 && formerOffsets.isEmpty()) {
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
    checkKeyIndexBounded(when);
    for (String topic : source.topics()) {
      TableIdentifier id = SourceModel.tableOf(topic);
      Table table;
      try {
        table = observer.loadTable(id);
      } catch (NoSuchTableException e) {
        continue;
      }
      Snapshot current = table.currentSnapshot();
      table.snapshots().forEach(snap -> seenAt.putIfAbsent(snap.snapshotId(), clock.millis()));
      countModes(table);
      checkFilesExist(when, table, current);
      Long checkedSnapshot = checked.put(id, current == null ? -1L : current.snapshotId());
      if (checkedSnapshot != null
          && checkedSnapshot == (current == null ? -1L : current.snapshotId())) {
        // Nothing committed since the last check: the same rows, the same offsets.
        continue;
      }
      Map<TopicPartition, Long> offsets = IcebergOffsets.all(table, connector);
      if (!retired.contains(topic)) {
        lastOffsets.forEach(
            (tp, offset) -> {
              if (tp.topic().equals(topic) && !offsets.containsKey(tp)) {
                throw new Violation(
                    when
                        + ": Iceberg no longer holds an offset of "
                        + tp
                        + " (it held "
                        + offset
                        + "): the snapshots recording it were expired");
              }
            });
      }
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
      if (!upgraded.contains(id)) {
        checkLineage(when, table);
      }
      Map<Long, String> expected = expected(topic, id, offsets);
      Set<Long> moved = source.moved(topic);
      expected.keySet().removeAll(moved);
      actual.keySet().removeAll(moved);
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
   * The rows {@code topic}'s table must hold at {@code offsets} of the current connector: the
   * source at the offsets of each name the connector had, and the values other engines set that no
   * commit of the sink overwrote yet.
   */
  private Map<Long, String> expected(
      String topic, TableIdentifier id, Map<TopicPartition, Long> offsets) {
    List<Map<TopicPartition, Long>> layers = new ArrayList<>(formerOffsets);
    layers.add(offsets);
    Map<Long, String> expected = source.state(topic, layers);
    resolveOverrides(id, offsets);
    overrides
        .getOrDefault(id, Map.of())
        .forEach(
            (key, o) -> {
              if (o.value() == null) {
                expected.remove(key);
              } else {
                expected.put(key, o.value());
              }
            });
    return expected;
  }

  /** Drops the engines' values that a commit of the sink covering {@code offsets} overwrote. */
  private void resolveOverrides(TableIdentifier id, Map<TopicPartition, Long> offsets) {
    Map<Long, Override> pending = overrides.get(id);
    if (pending == null) {
      return;
    }
    pending
        .entrySet()
        .removeIf(
            e -> {
              Override o = e.getValue();
              long from = o.connector().equals(connector) ? o.from() : 0;
              return source.touched(o.tp(), e.getKey(), from, offsets.getOrDefault(o.tp(), 0L));
            });
  }

  /**
   * With a small key-index limit: an index given up (past its limits) while the table's live keys
   * would take at most half the limit at 64 bytes each grew with keys no longer there.
   */
  private void checkKeyIndexBounded(String when) {
    List<KeyIndexWarnings.GivenUp> givenUp = indexWarnings.drain();
    if (spill != null) {
      // Every index spills from its first key there, and no topic churns.
      return;
    }
    for (KeyIndexWarnings.GivenUp g : givenUp) {
      String topic =
          source.topics().stream()
              .filter(t -> SourceModel.tableOf(t).toString().equals(g.table()))
              .findFirst()
              .orElse(null);
      long live = topic == null ? -1 : rows(observer.loadTable(SourceModel.tableOf(topic))).size();
      schedule.add(
          "  the key index of "
              + g.table()
              + " was given up at "
              + g.keys()
              + " keys, "
              + g.bytes()
              + " bytes; "
              + live
              + " keys live");
      if (live >= 0 && live * 64 * 2 <= keyIndexLimit) {
        throw new Violation(
            when
                + ": the key index of "
                + g.table()
                + " passed key-index.max-bytes="
                + keyIndexLimit
                + " at "
                + g.keys()
                + " keys, "
                + g.bytes()
                + " bytes, with "
                + live
                + " keys live: it is not bounded by the live keys");
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
    try (CloseableIterable<Record> records = ScanRows.read(table.newScan().project(schema))) {
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
    if (before == null || !formerOffsets.isEmpty()) {
      // A renamed connector replays the logs: it writes rows again with the values they have.
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

  /**
   * key -> "v/amount" of every row, read on this thread (Iceberg's generic reader waits for its
   * delete worker pool in 10 ms polls: that was half of the schedules' time); a key twice is a
   * violation.
   */
  private static Map<Long, String> rows(Table table) {
    return rows(table, ScanRows.read(table.newScan()));
  }

  /** {@link #rows(Table)} as Iceberg's own generic reader reads them. */
  private static Map<Long, String> rowsByIcebergGenerics(Table table) {
    return rows(table, IcebergGenerics.read(table).build());
  }

  private static Map<Long, String> rows(Table table, CloseableIterable<Record> read) {
    Map<Long, String> rows = new TreeMap<>();
    try (CloseableIterable<Record> records = read) {
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
