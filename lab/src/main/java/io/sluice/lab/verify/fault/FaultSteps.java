package io.sluice.lab.verify.fault;

import static io.sluice.lab.verify.fault.FaultCheck.CLIENTS_RECOVERED_WITHOUT_RESTART;
import static io.sluice.lab.verify.fault.FaultCheck.COMPONENT_RECOVERED;
import static io.sluice.lab.verify.fault.FaultCheck.EACH_POISON_QUARANTINED_ONCE;
import static io.sluice.lab.verify.fault.FaultCheck.EARLIER_ROWS_KEEP_NULL;
import static io.sluice.lab.verify.fault.FaultCheck.EVERY_INPUT_IN_CLEAN_OR_DLQ_ONCE;
import static io.sluice.lab.verify.fault.FaultCheck.FAULTS_INJECTED;
import static io.sluice.lab.verify.fault.FaultCheck.FINAL_EVENT_ID_AUDIT_CONSISTENT;
import static io.sluice.lab.verify.fault.FaultCheck.FINAL_EVERY_TABLE_EQUAL;
import static io.sluice.lab.verify.fault.FaultCheck.FINAL_SNAPSHOT_DIFF_ZERO;
import static io.sluice.lab.verify.fault.FaultCheck.KILLED_BETWEEN_ICEBERG_AND_CONNECT_COMMIT;
import static io.sluice.lab.verify.fault.FaultCheck.NEW_COLUMN_REACHED_ICEBERG_WITH_VALUES;
import static io.sluice.lab.verify.fault.FaultCheck.NO_DUPLICATE_KEY;
import static io.sluice.lab.verify.fault.FaultCheck.NO_RESURRECTED_ROW;
import static io.sluice.lab.verify.fault.FaultCheck.POST_FAULT_EVENT_FLOW_CONTINUED;
import static io.sluice.lab.verify.fault.FaultCheck.ROUTER_REGISTRY_RETRIES_COUNTED;
import static io.sluice.lab.verify.fault.FaultCheck.ZERO_RECORDS_QUARANTINED;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.lab.db.OrdersTable;
import io.sluice.lab.db.TableWorkload;
import io.sluice.lab.stack.EmbeddedStack;
import io.sluice.lab.stack.control.ComponentStatus;
import io.sluice.lab.stack.control.StackController;
import io.sluice.lab.verify.BoundedWait;
import io.sluice.lab.verify.ScenarioFailure;
import io.sluice.lab.verify.ScenarioStack;
import io.sluice.lab.verify.ScenarioStack.LakeReading;
import io.sluice.lab.verify.poison.PoisonSections.QuarantineSection;
import io.sluice.lab.verify.poison.ScenarioRows;
import io.sluice.lab.verify.sinkpoison.ChangeEvent;
import io.sluice.lab.verify.sinkpoison.RetypedSchemas;
import io.sluice.lab.workload.OrderRow;
import io.sluice.lake.offsets.SnapshotOffsets;
import io.sluice.schema.Subjects;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.stream.Collectors;
import org.apache.iceberg.Snapshot;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The steps of a process-fault class on one process stack ({@link FaultScenario}). Each takes the
 * previous step's result and returns its own; a step that cannot go on throws {@link
 * ScenarioFailure}; every wait is bounded.
 */
final class FaultSteps {
  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);
  private static final Duration SNAPSHOT_POLL = Duration.ofMillis(20);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String UPSERT_GROUP = "connect-" + EmbeddedStack.UPSERT_SINK;

  /** registry-outage: events of the unseen schema version per outage. */
  private static final int UNSEEN_EVENTS = 3;

  private final ScenarioStack stack;
  private final StackController control;
  private final FaultStep.Plan plan;
  private final FaultClass faultClass;
  private final FaultScenario.Settings settings;
  private final Consumer<String> progress;

  FaultSteps(
      ScenarioStack stack,
      StackController control,
      FaultStep.Plan plan,
      Consumer<String> progress) {
    this.stack = stack;
    this.control = control;
    this.plan = plan;
    this.faultClass = plan.faultClass();
    this.settings = plan.settings();
    this.progress = progress;
  }

  FaultStep.Versions versions(FaultStep.Plan plan) throws Exception {
    return new FaultStep.Versions(plan, stack.stackVersions());
  }

  FaultStep.Baseline baseline(FaultStep.Versions versions) throws Exception {
    List<String> down =
        control.status().stream().filter(c -> !c.running()).map(ComponentStatus::name).toList();
    if (!down.isEmpty()) {
      throw new ScenarioFailure(
          "components " + down + " are not running; `sluice stack start <component>` first");
    }
    ScenarioStack.Baselined b =
        stack.baseline(settings.seed(), settings.baselineRows(), settings.waitTimeout(), progress);
    return new FaultStep.Baseline(
        versions,
        b.dlqBefore(),
        b.linkage(),
        stack.endOffsets(ScenarioStack.MAIN_TOPIC),
        stack.endOffsets(ScenarioStack.CLEAN_TOPIC));
  }

  /** Runs the workload and faults the component while it runs. */
  FaultStep.Faulted fault(FaultStep.Baseline baseline) throws Exception {
    Map<String, ComponentStatus> before = byName(control.status());
    long retriesBefore = stack.router().registryRetries();
    List<FaultSections.Injection> injections = new ArrayList<>();
    JsonNode captureDuring = null;
    long lastFaultEnded;
    boolean storm = faultClass == FaultClass.DELETE_STORM;
    int faults =
        switch (faultClass.injection()) {
          case NONE -> 0;
          case SCHEMA_CHANGE -> 2; // the ADD, then the DROP
          default -> settings.faults();
        };
    Map<FaultCheck, Boolean> proved = new EnumMap<>(FaultCheck.class);
    try (SteadyWorkload workload =
        new SteadyWorkload(stack, settings, faultClass.poison(), storm)) {
      workload.start();
      for (int n = 1; n <= faults; n++) {
        int round = n * settings.rounds() / (faults + 1);
        workload.awaitRound(round, STEP_TIMEOUT);
        FaultSections.Injection injection =
            faultClass.injection() == FaultClass.Injection.SCHEMA_CHANGE
                ? changeSchema(n, workload, proved)
                : inject(n, workload);
        injections.add(injection);
        if (captureDuring == null) {
          captureDuring = captureStatus();
        }
        progress.accept(
            "  fault "
                + n
                + ": "
                + injection.action()
                + (injection.exitCode() == null
                    ? ""
                    : " " + faultClass.component() + " (exit " + injection.exitCode() + ")")
                + " after round "
                + injection.afterRound()
                + (injection.exitCode() == null ? ", done in " : ", back in ")
                + injection.downMs()
                + " ms");
      }
      lastFaultEnded = System.nanoTime();
      workload.awaitDone(STEP_TIMEOUT.multipliedBy(2));
      if (faults == 0) {
        lastFaultEnded = System.nanoTime(); // no fault: from the end of the workload
      }
      progress.accept(
          "  workload: "
              + settings.rounds()
              + " rounds done"
              + (faultClass.poison() ? ", " + workload.poison().size() + " poison records" : ""));
      Map<String, ComponentStatus> after = byName(control.status());
      proved.put(
          FAULTS_INJECTED,
          injections.size() == faults
              && injections.stream().allMatch(FaultSections.Injection::recovered));
      proved.put(CLIENTS_RECOVERED_WITHOUT_RESTART, untouched(before, after));
      long retries = stack.router().registryRetries() - retriesBefore;
      proved.put(ROUTER_REGISTRY_RETRIES_COUNTED, retries > 0);
      if (faultClass.injection() == FaultClass.Injection.OUTAGE) {
        progress.accept("  router: " + retries + " registry call(s) retried during the outage");
      }
      proved.put(
          KILLED_BETWEEN_ICEBERG_AND_CONNECT_COMMIT,
          injections.stream()
              .anyMatch(i -> Boolean.TRUE.equals(i.betweenIcebergAndConnectCommit())));
      return new FaultStep.Faulted(
          baseline,
          injections,
          workload.poison(),
          captureDuring,
          workload.lastEventId(),
          lastFaultEnded,
          proved);
    }
  }

  private FaultSections.Injection inject(int number, SteadyWorkload workload) throws Exception {
    String component = faultClass.component();
    Long pidBefore =
        control.status().stream()
            .filter(c -> c.name().equals(component))
            .findFirst()
            .map(ComponentStatus::pid)
            .orElse(null);
    Long snapshotId = null;
    Boolean between = null;
    String at;
    ComponentStatus ended;
    long downFrom;
    int afterRound = workload.roundsDone();
    switch (faultClass.injection()) {
      case SIGKILL_AFTER_ICEBERG_COMMIT -> {
        Snapshot committed = awaitNewSnapshot();
        at = Instant.now().toString();
        ended = control.kill(component);
        downFrom = System.nanoTime();
        snapshotId = committed.snapshotId();
        between = beyondConnectCommit(committed);
      }
      case CRASH -> {
        at = Instant.now().toString();
        long from = System.nanoTime();
        // The workload (the machine's application) is held between two rounds meanwhile.
        boolean back =
            workload.betweenRounds(
                () -> control.crash().stream().allMatch(ComponentStatus::running));
        return new FaultSections.Injection(
            number,
            "crash",
            at,
            afterRound,
            null,
            null,
            null,
            (System.nanoTime() - from) / 1_000_000,
            null,
            null,
            back);
      }
      case OUTAGE -> {
        List<ChangeEvent> unseen = eventsOfANewVersion(number);
        at = Instant.now().toString();
        ended = control.stop(component);
        downFrom = System.nanoTime();
        produce(unseen);
        progress.accept(
            "  registry down: "
                + unseen.size()
                + " event(s) of schema id "
                + unseen.get(0).valueSchemaId()
                + " on "
                + ScenarioStack.MAIN_TOPIC
                + ", down for "
                + settings.outage().toSeconds()
                + " s");
        pause(settings.outage());
      }
      default -> {
        at = Instant.now().toString();
        ended = control.kill(component);
        downFrom = System.nanoTime();
      }
    }
    if (faultClass.injection() != FaultClass.Injection.OUTAGE) {
      // The workload goes on while the component is down.
      workload.awaitRound(
          Math.min(settings.rounds(), workload.roundsDone() + settings.downRounds()), STEP_TIMEOUT);
    }
    ComponentStatus started = control.start(component);
    return new FaultSections.Injection(
        number,
        faultClass.injection() == FaultClass.Injection.OUTAGE ? "stop" : "kill",
        at,
        afterRound,
        pidBefore,
        ended.exitCode(),
        started.pid(),
        (System.nanoTime() - downFrom) / 1_000_000,
        snapshotId,
        between,
        started.running());
  }

  /**
   * Registers a version of the main topic's value schema the router has not seen (the latest with a
   * doc naming the fault: the same fields, a new id), inserts rows of the run's seed in the source
   * and builds their insert events encoded with it, as capture would send them: the router must
   * look the id up while the registry is down. Capture sends the same rows too (with the id it
   * knows): the lake gets each row twice, with the same values.
   */
  private List<ChangeEvent> eventsOfANewVersion(int fault) throws Exception {
    String subject = Subjects.value(ScenarioStack.MAIN_TOPIC);
    RegisteredSchema latest = stack.registry().latest(subject);
    RegisteredSchema key = stack.registry().latest(Subjects.key(ScenarioStack.MAIN_TOPIC));
    stack
        .registry()
        .register(
            subject,
            RetypedSchemas.reverted(
                latest.schema(),
                "amount_cents",
                "registry-outage fault " + fault + " of seed " + settings.seed()));
    RegisteredSchema unseen = stack.registry().latest(subject);
    if (unseen.id() == latest.id()) {
      throw new ScenarioFailure(
          "the registry answered the known id " + latest.id() + " for the new version");
    }
    List<ChangeEvent> events = new ArrayList<>();
    try (Connection c = stack.connect()) {
      for (int i = 1; i <= UNSEEN_EVENTS; i++) {
        OrderRow row =
            ScenarioRows.row(
                settings.seed(), settings.baselineRows() + (fault - 1) * UNSEEN_EVENTS + i);
        ScenarioRows.insert(c, row);
        events.add(
            ChangeEvent.insert(
                ScenarioStack.MAIN_TOPIC,
                unseen,
                key,
                ScenarioRows.columns(row),
                Clock.systemUTC()));
      }
    }
    return events;
  }

  private void produce(List<ChangeEvent> events) throws Exception {
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                stack.endpoints().bootstrapServers(),
                ProducerConfig.CLIENT_ID_CONFIG,
                "sluice-verify-registry-outage",
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true),
            new ByteArraySerializer(),
            new ByteArraySerializer())) {
      for (ChangeEvent e : events) {
        producer.send(new ProducerRecord<>(ScenarioStack.MAIN_TOPIC, e.key(), e.value())).get();
      }
    }
  }

  /**
   * schema-change: the first change adds a nullable column to {@code cdc_lab.orders} under load and
   * gives it values in the rows of the next two rounds (which the workload wrote after the ADD),
   * then waits until the current table has the column with those values and null in every row
   * written before; the second change drops the column again.
   */
  private FaultSections.Injection changeSchema(
      int number, SteadyWorkload workload, Map<FaultCheck, Boolean> proved) throws Exception {
    String column = addedColumn();
    int afterRound = workload.roundsDone();
    String at = Instant.now().toString();
    long from = System.nanoTime();
    if (number == 1) {
      execute(
          "ALTER TABLE "
              + OrdersTable.QUALIFIED_NAME
              + " ADD COLUMN "
              + column
              + " VARCHAR(40) NULL");
      int first = afterRound + 1;
      int last = Math.min(settings.rounds(), afterRound + 2);
      workload.awaitRound(last, STEP_TIMEOUT);
      Map<String, String> valued = new HashMap<>();
      try (Connection c = stack.connect()) {
        c.setAutoCommit(true);
        for (int round = first; round <= last; round++) {
          int seed = SteadyWorkload.roundSeed(settings.seed(), round);
          try (PreparedStatement ps =
              c.prepareStatement(
                  "UPDATE "
                      + OrdersTable.QUALIFIED_NAME
                      + " SET "
                      + column
                      + " = CONCAT('v-', order_id) WHERE seed = ?")) {
            ps.setInt(1, seed);
            ps.executeUpdate();
          }
          try (PreparedStatement ps =
              c.prepareStatement(
                  "SELECT order_id FROM " + OrdersTable.QUALIFIED_NAME + " WHERE seed = ?")) {
            ps.setInt(1, seed);
            try (ResultSet rs = ps.executeQuery()) {
              while (rs.next()) {
                valued.put(String.valueOf(rs.getLong(1)), "v-" + rs.getLong(1));
              }
            }
          }
        }
      }
      long baselineLow = TableWorkload.id(settings.seed(), 0);
      long baselineHigh = TableWorkload.id(settings.seed() + 1, 0);
      Map<String, Object> lake =
          BoundedWait.latest(
              settings.waitTimeout(),
              () -> stack.columnValues(ScenarioStack.CURRENT_TABLE, OrdersTable.KEY_COLUMN, column),
              values ->
                  valued.entrySet().stream()
                      .allMatch(e -> e.getValue().equals(values.get(e.getKey()))));
      boolean reached =
          lake != null
              && !valued.isEmpty()
              && valued.entrySet().stream()
                  .allMatch(e -> e.getValue().equals(lake.get(e.getKey())));
      boolean earlierNull =
          lake != null
              && lake.entrySet().stream()
                  .filter(e -> inRange(e.getKey(), baselineLow, baselineHigh))
                  .allMatch(e -> e.getValue() == null)
              && lake.keySet().stream().anyMatch(k -> inRange(k, baselineLow, baselineHigh));
      proved.put(NEW_COLUMN_REACHED_ICEBERG_WITH_VALUES, reached);
      proved.put(EARLIER_ROWS_KEEP_NULL, earlierNull);
      progress.accept(
          "  added "
              + column
              + ": "
              + valued.size()
              + " rows given values, "
              + (reached ? "all" : "NOT all")
              + " in Iceberg; baseline rows "
              + (earlierNull ? "null" : "NOT null")
              + " in it");
    } else {
      execute("ALTER TABLE " + OrdersTable.QUALIFIED_NAME + " DROP COLUMN " + column);
      progress.accept("  dropped " + column);
    }
    return new FaultSections.Injection(
        number,
        number == 1 ? "add column " + column : "drop column " + column,
        at,
        afterRound,
        null,
        null,
        null,
        (System.nanoTime() - from) / 1_000_000,
        null,
        null,
        true);
  }

  /** The column schema-change adds: one per seed, so a run on a used stack adds its own. */
  private String addedColumn() {
    return "note_s" + settings.seed();
  }

  private static boolean inRange(String key, long low, long high) {
    long id = Long.parseLong(key);
    return id > low && id < high;
  }

  private void execute(String sql) throws Exception {
    try (Connection c = stack.connect();
        java.sql.Statement s = c.createStatement()) {
      s.execute(sql);
    }
  }

  /** Waits for the upsert sink's next commit to the orders table, and returns its snapshot. */
  private Snapshot awaitNewSnapshot() {
    Snapshot first = stack.currentSnapshot(ScenarioStack.CURRENT_TABLE);
    long firstId = first == null ? -1 : first.snapshotId();
    long deadline = System.nanoTime() + STEP_TIMEOUT.toNanos();
    while (System.nanoTime() < deadline) {
      Snapshot now = stack.currentSnapshot(ScenarioStack.CURRENT_TABLE);
      if (now != null && now.snapshotId() != firstId) {
        return now;
      }
      pause(SNAPSHOT_POLL);
    }
    throw new ScenarioFailure(
        "no new snapshot of "
            + ScenarioStack.CURRENT_TABLE
            + " within "
            + STEP_TIMEOUT.toSeconds()
            + " s");
  }

  /**
   * True when {@code snapshot} records an offset of a partition beyond the one the sink's group has
   * committed in Kafka: the worker died between the two commits.
   */
  private boolean beyondConnectCommit(Snapshot snapshot) {
    Map<TopicPartition, Long> inSnapshot =
        SnapshotOffsets.fromSummary(snapshot.summary(), EmbeddedStack.UPSERT_SINK).orElse(Map.of());
    Map<TopicPartition, Long> committed = new HashMap<>();
    inSnapshot.keySet().stream()
        .map(TopicPartition::topic)
        .distinct()
        .forEach(topic -> committed.putAll(stack.committed(UPSERT_GROUP, topic)));
    return inSnapshot.entrySet().stream()
        .anyMatch(e -> e.getValue() > committed.getOrDefault(e.getKey(), -1L));
  }

  FaultStep.Recovered recover(FaultStep.Faulted faulted) {
    ReconcileResult converged =
        BoundedWait.until(
            "the current table equals the source after the faults",
            settings.waitTimeout(),
            stack.lake()::reconcile,
            ReconcileResult::converged);
    long ms = (System.nanoTime() - faulted.lastFaultEndedNanos()) / 1_000_000;
    progress.accept(
        "  converged "
            + ms
            + " ms after the "
            + (faulted.injections().isEmpty() ? "workload ended" : "last fault"));
    return new FaultStep.Recovered(
        faulted, ReconciliationReport.of(converged), stack.linkage(), captureStatus(), ms);
  }

  FaultStep.Final settle(FaultStep.Recovered recovered) throws Exception {
    FaultStep.Faulted faulted = recovered.faulted();
    long lastId = faulted.lastEventId();
    LakeReading last =
        stack.finalReading(
            settings.waitTimeout(), audit -> audit.changelogEventIds().containsKey(lastId));
    Map<String, Long> keys = stack.keyCounts(ScenarioStack.CURRENT_TABLE, OrdersTable.KEY_COLUMN);
    Map<String, Long> duplicates = new HashMap<>(keys);
    duplicates.values().removeIf(n -> n < 2);
    List<ConsumerRecord<byte[], byte[]>> dlq =
        stack.dlqRecordsSince(faulted.baseline().dlqBefore());
    Map<FaultCheck, Boolean> proved = new EnumMap<>(FaultCheck.class);
    proved.put(NO_DUPLICATE_KEY, duplicates.isEmpty());
    if (faultClass == FaultClass.DELETE_STORM) {
      List<String> resurrected = resurrected(keys.keySet());
      proved.put(NO_RESURRECTED_ROW, resurrected.isEmpty());
      progress.accept(
          "  delete storm: "
              + resurrected.size()
              + " deleted key(s) in the lake"
              + (resurrected.isEmpty() ? "" : ", e.g. " + resurrected.get(0)));
    }
    proved.put(
        POST_FAULT_EVENT_FLOW_CONTINUED,
        stack.lake().eventIds(ScenarioStack.CURRENT_TABLE).contains(lastId)
            && last.audit().changelogEventIds().containsKey(lastId));
    proved.put(FINAL_SNAPSHOT_DIFF_ZERO, last.reconcile().converged());
    proved.put(FINAL_EVENT_ID_AUDIT_CONSISTENT, last.audit().consistent());
    proved.put(FINAL_EVERY_TABLE_EQUAL, ScenarioStack.everyTableEqual(last.tables()));
    proved.put(
        COMPONENT_RECOVERED,
        control.status().stream()
            .filter(
                c ->
                    faultClass.component().equals(FaultClass.STACK)
                        || c.name().equals(faultClass.component()))
            .allMatch(ComponentStatus::running));
    proved.put(ZERO_RECORDS_QUARANTINED, dlq.isEmpty());
    if (faultClass.poison()) {
      InputAudit inputs = InputAudit.of(stack, faulted.baseline(), faulted.poison());
      proved.put(EACH_POISON_QUARANTINED_ONCE, inputs.eachPoisonOnce());
      proved.put(EVERY_INPUT_IN_CLEAN_OR_DLQ_ONCE, inputs.everyInputOnce());
      progress.accept("  inputs: " + inputs.describe());
    }
    progress.accept(
        "  final: "
            + last.reconcile().diffCount()
            + " differing rows, "
            + duplicates.size()
            + " duplicate keys, "
            + last.audit().duplicateOccurrenceCount()
            + " duplicate event(s) in the changelog, "
            + dlq.size()
            + " new DLQ record(s); tables: "
            + ScenarioStack.describe(last.tables()));
    QuarantineSection quarantine =
        dlq.isEmpty()
            ? null
            : QuarantineSection.of(
                dlq.get(0), stack.router().health(), stack.router().threadReplacements(), false);
    return new FaultStep.Final(
        recovered,
        ReconciliationReport.of(last.reconcile()),
        last.audit().toReport(),
        stack.linkage(),
        quarantine,
        dlq.size(),
        proved);
  }

  /** The storm's keys that the lake holds and the source does not. */
  private List<String> resurrected(Set<String> lakeKeys) throws Exception {
    int seed = SteadyWorkload.stormSeed(settings.seed());
    Set<String> source = new HashSet<>();
    try (Connection c = stack.connect();
        PreparedStatement ps =
            c.prepareStatement(
                "SELECT order_id FROM " + OrdersTable.QUALIFIED_NAME + " WHERE seed = ?")) {
      ps.setInt(1, seed);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          source.add(String.valueOf(rs.getLong(1)));
        }
      }
    }
    long low = TableWorkload.id(seed, 0);
    long high = TableWorkload.id(seed + 1, 0);
    return lakeKeys.stream()
        .filter(
            k -> {
              long id = Long.parseLong(k);
              return id > low && id < high && !source.contains(k);
            })
        .sorted()
        .toList();
  }

  /** Every component other than the faulted one still runs the process it ran before. */
  private boolean untouched(
      Map<String, ComponentStatus> before, Map<String, ComponentStatus> after) {
    return before.entrySet().stream()
        .filter(e -> !e.getKey().equals(faultClass.component()))
        .allMatch(
            e -> {
              ComponentStatus now = after.get(e.getKey());
              return now != null
                  && now.running()
                  && now.starts() == e.getValue().starts()
                  && Objects.equals(now.pid(), e.getValue().pid());
            });
  }

  private JsonNode captureStatus() {
    try {
      return stack.capture().status();
    } catch (RuntimeException e) {
      return JSON.createObjectNode().put("error", e.getMessage());
    }
  }

  private static Map<String, ComponentStatus> byName(List<ComponentStatus> statuses) {
    return statuses.stream().collect(Collectors.toMap(ComponentStatus::name, c -> c));
  }

  /** The outage's length: the fault itself, not a wait for anything. */
  private static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScenarioFailure("interrupted during the fault", e);
    }
  }
}
