package io.sluice.scenarios.poison;

import static io.sluice.scenarios.poison.PoisonCheck.CHECKPOINT_ADVANCED_AFTER_POISON;
import static io.sluice.scenarios.poison.PoisonCheck.CONNECTOR_RESUMED;
import static io.sluice.scenarios.poison.PoisonCheck.DLQ_HAS_ERROR_METADATA;
import static io.sluice.scenarios.poison.PoisonCheck.DLQ_PRESERVED_ORIGINAL_VALUE;
import static io.sluice.scenarios.poison.PoisonCheck.EXACTLY_ONE_DLQ_RECORD;
import static io.sluice.scenarios.poison.PoisonCheck.FINAL_EVENT_ID_AUDIT_CONSISTENT;
import static io.sluice.scenarios.poison.PoisonCheck.FINAL_EVERY_TABLE_EQUAL;
import static io.sluice.scenarios.poison.PoisonCheck.FINAL_SNAPSHOT_DIFF_ZERO;
import static io.sluice.scenarios.poison.PoisonCheck.MAIN_JOB_SURVIVED_POISON;
import static io.sluice.scenarios.poison.PoisonCheck.POISON_WAS_NON_AVRO;
import static io.sluice.scenarios.poison.PoisonCheck.POST_POISON_EVENT_FLOW_CONTINUED;
import static io.sluice.scenarios.poison.PoisonCheck.REPAIR_CONVERGED_BEFORE_CONNECTOR_RESUME;
import static io.sluice.scenarios.poison.PoisonCheck.REPAIR_REPLAYED_WITH_REGISTERED_AVRO;

import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioRows;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.ScenarioStack.LakeReading;
import io.sluice.scenarios.poison.PoisonDlqScenario.Settings;
import io.sluice.scenarios.poison.PoisonSections.FaultSection;
import io.sluice.scenarios.poison.PoisonSections.RecoverySection;
import io.sluice.scenarios.poison.PoisonStep.Injection;
import io.sluice.scenarios.poison.PoisonStep.Plan;
import io.sluice.scenarios.step.Baseline;
import io.sluice.scenarios.step.Final;
import io.sluice.scenarios.step.Quarantine;
import io.sluice.scenarios.step.QuarantineSteps;
import io.sluice.scenarios.step.QuarantineSteps.BeforeResume;
import io.sluice.scenarios.step.QuarantineSteps.Paused;
import io.sluice.scenarios.step.QuarantineSteps.Repaired;
import io.sluice.scenarios.step.QuarantineSteps.Resumed;
import io.sluice.scenarios.step.Quarantined;
import io.sluice.scenarios.step.Repair;
import io.sluice.scenarios.step.Resumption;
import io.sluice.scenarios.step.Sections.InjectedRecord;
import io.sluice.scenarios.step.Sections.QuarantineSection;
import io.sluice.scenarios.step.Sections.RepairProducerMetadata;
import io.sluice.scenarios.step.Steps;
import io.sluice.schema.wire.WireFormat;
import io.sluice.stack.workload.OrderRow;
import io.sluice.tools.dlq.repair.IntendedRowPlanner;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The poison-dlq scenario's own steps on one stack (docs/design.md#the-poison-dlq-scenario),
 * between the baseline and the final reading every scenario shares ({@link Steps}). Each takes the
 * previous step's result and returns its own; none keeps anything between calls (the stack's
 * clients, the plan and the settings are all it holds). A step that cannot go on throws {@link
 * ScenarioFailure}; every wait is bounded.
 */
final class PoisonSteps {
  private static final String MAIN = ScenarioStack.MAIN_TOPIC;
  private static final String DLQ = ScenarioStack.DLQ_TOPIC;

  private final ScenarioStack stack;
  private final Steps<PoisonCheck> shared;
  private final QuarantineSteps quarantineSteps;
  private final Plan plan;
  private final Settings settings;
  private final Consumer<String> progress;

  PoisonSteps(Steps<PoisonCheck> shared, Plan plan) {
    this.stack = shared.stack();
    this.shared = shared;
    this.progress = shared.context().progress();
    this.quarantineSteps = new QuarantineSteps(stack, progress);
    this.plan = plan;
    this.settings = plan.settings();
  }

  /**
   * Pauses capture, inserts the intended row in the source, and produces its JSON keyed by the Avro
   * primary key to the main topic: what capture would have published, but not in Avro.
   */
  Injection inject(Baseline<PoisonCheck> baseline) throws Exception {
    OrderRow intended = plan.intended();
    Paused paused = quarantineSteps.pauseCaptureAndInsert(List.of(intended));
    PoisonRecord poison =
        PoisonRecord.of(
            stack.registry(),
            MAIN,
            ScenarioRows.columns(intended),
            ScenarioRows.intendedPayload(intended));
    long commitAtInjection = stack.routerCommitId();
    ProducerMetadata at = produce(poison);
    InjectedRecord injected =
        InjectedRecord.of(
            at,
            paused.captureStatus(),
            poison.key(),
            poison.value(),
            poison.keySchemaId(),
            intended);
    progress.accept(
        "  poison at "
            + at
            + " ("
            + injected.payloadSizeBytes()
            + " bytes, sha256 "
            + injected.payloadSha256()
            + ")");
    return new Injection(
        baseline,
        poison,
        at,
        paused.threadReplacementsBefore(),
        commitAtInjection,
        new FaultSection(FaultSection.MECHANISM, injected));
  }

  /**
   * Waits for the poison's DLQ record and for the router's commit past the poison, then checks the
   * record (the only new one, its error metadata, the original bytes) and that the router runs.
   */
  Quarantine<PoisonCheck, Injection> quarantine(Injection injection) {
    ProducerMetadata at = injection.poisonAt();
    Set<String> before = injection.baseline().dlqBefore();
    ConsumerRecord<byte[], byte[]> dlqRecord =
        quarantineSteps.awaitDlqRecord(
            "the router writes a DLQ record for " + at + " to " + DLQ, at, before);
    Long committed = quarantineSteps.awaitRouterCommitPast(at);
    Quarantined found = quarantineSteps.quarantined(dlqRecord, at, before, committed);
    PoisonRecord poison = injection.poison();
    progress.accept(
        "  DLQ record "
            + found.dlqRecordName()
            + " ("
            + found.envelope().errorCode()
            + "); router "
            + found.routerHealth()
            + ", committed offset of partition "
            + at.partition()
            + " "
            + committed);
    Map<PoisonCheck, Boolean> proved = new EnumMap<>(PoisonCheck.class);
    proved.put(CHECKPOINT_ADVANCED_AFTER_POISON, found.committedPast());
    proved.put(EXACTLY_ONE_DLQ_RECORD, found.onlyRecordOfInjected());
    proved.put(
        POISON_WAS_NON_AVRO,
        !WireFormat.hasHeader(poison.value())
            && "NOT_AVRO_WIRE_FORMAT".equals(found.envelope().errorCode()));
    proved.put(DLQ_HAS_ERROR_METADATA, found.hasErrorMetadata());
    proved.put(DLQ_PRESERVED_ORIGINAL_VALUE, found.preserved(poison.key(), poison.value()));
    proved.put(
        MAIN_JOB_SURVIVED_POISON, found.routerSurvived(injection.threadReplacementsBefore()));
    QuarantineSection section =
        QuarantineSection.of(
            dlqRecord,
            found.routerHealth(),
            found.threadReplacements() - injection.threadReplacementsBefore(),
            settings.redactPayloads());
    return new Quarantine<>(injection, found, section, Map.copyOf(proved));
  }

  /**
   * Repairs the DLQ record as an operator would (unless --skip-repair), then reconciles while
   * capture is still paused: the repaired record alone must make the lake equal the source.
   */
  Repair<PoisonCheck, Injection, RecoverySection> repair(
      Quarantine<PoisonCheck, Injection> quarantined) {
    Map<PoisonCheck, Boolean> proved = new EnumMap<>(PoisonCheck.class);
    String mode = "skipped";
    RepairProducerMetadata produced = null;
    Quarantine.Section section = quarantined.section();
    if (!settings.skipRepair()) {
      Injection injection = quarantined.injection();
      Repaired repaired =
          quarantineSteps.repair(quarantined.found().dlqRecord(), IntendedRowPlanner.STRATEGY);
      proved.put(
          REPAIR_REPLAYED_WITH_REGISTERED_AVRO,
          repaired.replayed(
              injection.poison().key(),
              injection.poisonAt().partition(),
              id -> stack.registry().isIdInSubject(MAIN + "-value", id)));
      mode = "repair --strategy " + IntendedRowPlanner.STRATEGY;
      produced = repaired.metadata();
      section = section.repaired();
    }
    BeforeResume reconciled = quarantineSteps.reconcileBeforeResume(settings.repairWait());
    proved.put(REPAIR_CONVERGED_BEFORE_CONNECTOR_RESUME, reconciled.converged());
    RecoverySection recovery =
        new RecoverySection(mode, produced, reconciled.report(), reconciled.captureState(), null);
    return new Repair<>(quarantined, section, recovery, reconciled, Map.copyOf(proved));
  }

  /** Resumes capture (it re-emits the intended row) and inserts the next row. */
  Resumption<PoisonCheck, Injection, RecoverySection> resume(
      Repair<PoisonCheck, Injection, RecoverySection> repair) throws SQLException {
    Resumed resumed = quarantineSteps.resumeCapture();
    RecoverySection recovery = repair.recovery().resumed(resumed.status());
    try (Connection c = stack.connect()) {
      ScenarioRows.insert(c, plan.next());
    }
    return new Resumption<>(repair, recovery, Map.of(CONNECTOR_RESUMED, resumed.running()));
  }

  /**
   * Waits until the lake equals the source, the event-id audit is consistent and the intended row's
   * event reached the changelog as often as it was sent (repair and capture: twice), then checks
   * that events kept flowing past the poison.
   */
  Final<PoisonCheck> settle(Resumption<PoisonCheck, Injection, RecoverySection> resumption) {
    long intendedCopies = settings.skipRepair() ? 1 : 2;
    long intendedId = plan.intended().eventId();
    LakeReading last =
        shared.finalReading(
            audit -> audit.changelogEventIds().getOrDefault(intendedId, 0L) >= intendedCopies);
    long nextId = plan.next().eventId();
    List<Long> current = stack.lake().eventIds(ScenarioStack.CURRENT_TABLE);
    boolean flowed =
        current.contains(nextId)
            && last.audit().changelogEventIds().containsKey(nextId)
            && stack.routerCommitId() > resumption.injection().routerCommitAtInjection() + 1;
    progress.accept(Steps.finalLine(last, ""));
    return shared.settled(
        resumption,
        last,
        Map.of(
            POST_POISON_EVENT_FLOW_CONTINUED, flowed,
            FINAL_SNAPSHOT_DIFF_ZERO, last.reconcile().converged(),
            FINAL_EVENT_ID_AUDIT_CONSISTENT, last.audit().consistent(),
            FINAL_EVERY_TABLE_EQUAL, ScenarioStack.everyTableEqual(last.tables())));
  }

  private ProducerMetadata produce(PoisonRecord record)
      throws InterruptedException, ExecutionException {
    try (KafkaProducer<byte[], byte[]> producer = stack.producer("sluice-verify-poison")) {
      return ProducerMetadata.of(
          producer.send(new ProducerRecord<>(MAIN, record.key(), record.value())).get());
    }
  }
}
