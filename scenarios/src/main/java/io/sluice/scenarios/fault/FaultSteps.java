package io.sluice.scenarios.fault;

import static io.sluice.scenarios.fault.FaultCheck.CLIENTS_RECOVERED_WITHOUT_RESTART;
import static io.sluice.scenarios.fault.FaultCheck.COMPONENT_RECOVERED;
import static io.sluice.scenarios.fault.FaultCheck.EACH_POISON_QUARANTINED_ONCE;
import static io.sluice.scenarios.fault.FaultCheck.EVERY_INPUT_IN_CLEAN_OR_DLQ_ONCE;
import static io.sluice.scenarios.fault.FaultCheck.EVERY_TASK_OFFSET_HELD_IN_ICEBERG;
import static io.sluice.scenarios.fault.FaultCheck.FAULTS_INJECTED;
import static io.sluice.scenarios.fault.FaultCheck.FINAL_EVENT_ID_AUDIT_CONSISTENT;
import static io.sluice.scenarios.fault.FaultCheck.FINAL_EVERY_TABLE_EQUAL;
import static io.sluice.scenarios.fault.FaultCheck.FINAL_SNAPSHOT_DIFF_ZERO;
import static io.sluice.scenarios.fault.FaultCheck.KILLED_BETWEEN_ICEBERG_AND_CONNECT_COMMIT;
import static io.sluice.scenarios.fault.FaultCheck.NO_COMMIT_FENCED_BY_MISTAKE;
import static io.sluice.scenarios.fault.FaultCheck.NO_DUPLICATE_KEY;
import static io.sluice.scenarios.fault.FaultCheck.NO_RESURRECTED_ROW;
import static io.sluice.scenarios.fault.FaultCheck.POST_FAULT_EVENT_FLOW_CONTINUED;
import static io.sluice.scenarios.fault.FaultCheck.ROUTER_REGISTRY_RETRIES_COUNTED;
import static io.sluice.scenarios.fault.FaultCheck.SCALED_OUT;
import static io.sluice.scenarios.fault.FaultCheck.ZERO_RECORDS_QUARANTINED;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.dlq.Sha256;
import io.sluice.scenarios.ChangeEvent;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.ScenarioStack.LakeReading;
import io.sluice.scenarios.step.Baseline;
import io.sluice.scenarios.step.Final;
import io.sluice.scenarios.step.Sections.QuarantineSection;
import io.sluice.scenarios.step.Steps;
import io.sluice.scenarios.step.Versions;
import io.sluice.stack.ProcessStack;
import io.sluice.stack.control.ComponentStatus;
import io.sluice.stack.control.StackController;
import io.sluice.stack.db.OrdersTable;
import io.sluice.stack.db.TableWorkload;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
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

/**
 * A process-fault class's own steps on one process stack ({@link FaultScenario}), around and
 * between the baseline and the final reading every scenario shares ({@link Steps}). Each takes the
 * previous step's result and returns its own; a step that cannot go on throws {@link
 * ScenarioFailure}; every wait is bounded.
 */
final class FaultSteps {
  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(120);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ScenarioStack stack;
  private final Steps<FaultCheck> shared;
  private final StackController control;
  private final FaultClass faultClass;
  private final FaultScenario.Settings settings;
  private final Consumer<String> progress;
  private final ScaleOut scaleOut;
  private ScaleOut.Placement placementBefore;
  private Map<Path, Long> workerLogMarks;

  /**
   * @param control the supervisor of the stack's processes
   */
  FaultSteps(Steps<FaultCheck> shared, StackController control, FaultStep.Plan plan) {
    this.stack = shared.stack();
    this.shared = shared;
    this.control = control;
    this.faultClass = plan.faultClass();
    this.settings = plan.settings();
    this.progress = shared.context().progress();
    this.scaleOut = faultClass == FaultClass.SCALE_OUT ? new ScaleOut(stack) : null;
  }

  /**
   * Checks that every component runs (and, for scale-out, that the stack is scaled out), takes the
   * baseline every scenario takes, then notes where the workload starts: the workers' logs and the
   * main and clean topics' end offsets.
   */
  FaultStep.WorkloadStart baseline(Versions<FaultCheck> versions) throws Exception {
    List<String> down =
        control.status().stream().filter(c -> !c.running()).map(ComponentStatus::name).toList();
    if (!down.isEmpty()) {
      throw new ScenarioFailure(
          "components " + down + " are not running; `sluice stack start <component>` first");
    }
    if (scaleOut != null) {
      placementBefore = scaleOut.requireScaledOut();
      progress.accept(
          "  scaled out: routers "
              + placementBefore.routers()
              + ", sink tasks "
              + placementBefore.tasks());
    }
    Baseline<FaultCheck> baseline = shared.baseline(versions);
    workerLogMarks = ScaleOut.logMarks(control.status());
    return new FaultStep.WorkloadStart(
        baseline,
        stack.endOffsets(ScenarioStack.MAIN_TOPIC),
        stack.endOffsets(ScenarioStack.CLEAN_TOPIC));
  }

  /** Runs the workload and faults the component while it runs. */
  FaultStep.Faulted fault(FaultStep.WorkloadStart start) throws Exception {
    Map<String, ComponentStatus> before = byName(control.status());
    long retriesBefore = stack.routerRegistryRetries();
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
                ? new SchemaChange(stack, settings, progress).change(n, workload, proved)
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
                    : " " + injection.component() + " (exit " + injection.exitCode() + ")")
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
      long retries = stack.routerRegistryRetries() - retriesBefore;
      proved.put(ROUTER_REGISTRY_RETRIES_COUNTED, retries > 0);
      if (faultClass.injection() == FaultClass.Injection.OUTAGE) {
        progress.accept("  router: " + retries + " registry call(s) retried during the outage");
      }
      proved.put(
          KILLED_BETWEEN_ICEBERG_AND_CONNECT_COMMIT,
          injections.stream()
              .anyMatch(i -> Boolean.TRUE.equals(i.betweenIcebergAndConnectCommit())));
      List<ProducerMetadata> poison = workload.poison();
      FaultSections.FaultSection section =
          new FaultSections.FaultSection(
              faultClass.mechanism(),
              poison.isEmpty() ? null : poison.get(0),
              captureDuring,
              poison.isEmpty()
                  ? null
                  : Sha256.hex(SteadyWorkload.poisonValue(settings.poisonEvery())),
              faultClass.component(),
              injections,
              poison,
              null);
      return new FaultStep.Faulted(
          start, injections, poison, workload.lastEventId(), lastFaultEnded, section, proved);
    }
  }

  private FaultSections.Injection inject(int number, SteadyWorkload workload) throws Exception {
    // With two Connect workers, the one running the upsert sink's tasks (else its commits go on).
    String component =
        faultClass.component().equals(ProcessStack.CONNECT) && connectWorkers() > 1
            ? (scaleOut != null ? scaleOut : new ScaleOut(stack)).upsertSinkWorker()
            : faultClass.component();
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
        SinkCommitWindow window = new SinkCommitWindow(stack);
        Snapshot committed = window.awaitNewSnapshot();
        at = Instant.now().toString();
        ended = control.kill(component);
        downFrom = System.nanoTime();
        snapshotId = committed.snapshotId();
        between = window.beyondConnectCommit(committed);
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
            back,
            FaultClass.STACK);
      }
      case OUTAGE -> {
        UnseenSchemaEvents events = new UnseenSchemaEvents(stack, settings);
        List<ChangeEvent> unseen = events.build(number);
        at = Instant.now().toString();
        ended = control.stop(component);
        downFrom = System.nanoTime();
        events.produce(unseen);
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
        started.running(),
        component);
  }

  FaultStep.Recovered recover(FaultStep.Faulted faulted) {
    ReconcileResult converged =
        stack.awaitConverged(
            "the current table equals the source after the faults", settings.run().waitTimeout());
    long ms = (System.nanoTime() - faulted.lastFaultEndedNanos()) / 1_000_000;
    progress.accept(
        "  converged "
            + ms
            + " ms after the "
            + (faulted.injections().isEmpty() ? "workload ended" : "last fault"));
    return new FaultStep.Recovered(
        faulted, ReconciliationReport.of(converged), stack.linkage(), captureStatus(), ms);
  }

  Final<FaultCheck> settle(FaultStep.Recovered recovered) throws Exception {
    FaultStep.Faulted faulted = recovered.faulted();
    long lastId = faulted.lastEventId();
    LakeReading last = shared.finalReading(audit -> audit.changelogEventIds().containsKey(lastId));
    Map<String, Long> keys = stack.keyCounts(ScenarioStack.CURRENT_TABLE, OrdersTable.KEY_COLUMN);
    Map<String, Long> duplicates = new HashMap<>(keys);
    duplicates.values().removeIf(n -> n < 2);
    List<ConsumerRecord<byte[], byte[]>> dlq =
        stack.dlqRecordsSince(faulted.start().baseline().dlqBefore());
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
                        || faultedComponents(faulted).contains(c.name()))
            .allMatch(ComponentStatus::running));
    proved.put(ZERO_RECORDS_QUARANTINED, dlq.isEmpty());
    if (faultClass.poison()) {
      InputAudit inputs = InputAudit.of(stack, faulted.start(), faulted.poison());
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
    FaultSections.ScaleOutSection scaled = null;
    if (scaleOut != null) {
      scaled = scaleOutEvidence(proved);
    }
    QuarantineSection quarantine =
        dlq.isEmpty()
            ? null
            : QuarantineSection.of(
                dlq.get(0), stack.router().health(), stack.router().threadReplacements(), false);
    FaultSections.FaultSection fault = scaled == null ? null : faulted.fault().withScaleOut(scaled);
    long dlqRecords = dlq.size();
    return shared.settled(
        recovered,
        last,
        proved,
        report -> {
          if (fault != null) {
            report.fault(fault);
          }
          report.quarantine(quarantine).dlqRecordCount(dlqRecords);
        });
  }

  /** scale-out's own checks: placement again, the workers' logs, the offsets Iceberg holds. */
  private FaultSections.ScaleOutSection scaleOutEvidence(Map<FaultCheck, Boolean> proved) {
    ScaleOut.Placement after = scaleOut.placement();
    ScaleOut.LogScan commits = ScaleOut.scan(workerLogMarks);
    List<ScaleOut.HeldOffset> held = scaleOut.heldOffsets();
    proved.put(SCALED_OUT, placementBefore.scaledOut() && after.scaledOut());
    proved.put(
        EVERY_TASK_OFFSET_HELD_IN_ICEBERG, held.stream().allMatch(ScaleOut.HeldOffset::held));
    proved.put(NO_COMMIT_FENCED_BY_MISTAKE, commits.fenced() == 0 && commits.failed() == 0);
    progress.accept(
        "  scale-out: "
            + commits.fenced()
            + " fenced and "
            + commits.failed()
            + " failed commit(s), "
            + commits.icebergRetries()
            + " commit(s) retried by Iceberg after a concurrent one; offsets in Iceberg "
            + held
            + "; tasks at the end "
            + after.tasks());
    return new FaultSections.ScaleOutSection(placementBefore, after, commits, held);
  }

  private long connectWorkers() {
    return control.status().stream().filter(c -> ScaleOut.isConnectWorker(c.name())).count();
  }

  private Set<String> faultedComponents(FaultStep.Faulted faulted) {
    Set<String> names = new HashSet<>(Set.of(faultClass.component()));
    faulted.injections().stream()
        .map(FaultSections.Injection::component)
        .filter(Objects::nonNull)
        .forEach(names::add);
    return names;
  }

  /** The storm's keys that the lake holds and the source does not. */
  private List<String> resurrected(Set<String> lakeKeys) throws Exception {
    int seed = SteadyWorkload.stormSeed(settings.run().seed());
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
  static void pause(Duration d) {
    try {
      Thread.sleep(d.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ScenarioFailure("interrupted during the fault", e);
    }
  }
}
