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

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.Sha256;
import io.sluice.scenarios.BoundedWait;
import io.sluice.scenarios.CaptureAdmin;
import io.sluice.scenarios.LinkageSnapshot;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.ScenarioStack.LakeReading;
import io.sluice.scenarios.poison.PoisonDlqScenario.Settings;
import io.sluice.scenarios.poison.PoisonSections.FaultSection;
import io.sluice.scenarios.poison.PoisonSections.QuarantineSection;
import io.sluice.scenarios.poison.PoisonSections.RecoverySection;
import io.sluice.scenarios.poison.PoisonSections.RepairProducerMetadata;
import io.sluice.scenarios.poison.PoisonStep.Baseline;
import io.sluice.scenarios.poison.PoisonStep.Final;
import io.sluice.scenarios.poison.PoisonStep.Injection;
import io.sluice.scenarios.poison.PoisonStep.Plan;
import io.sluice.scenarios.poison.PoisonStep.Quarantine;
import io.sluice.scenarios.poison.PoisonStep.Repair;
import io.sluice.scenarios.poison.PoisonStep.Resumption;
import io.sluice.scenarios.poison.PoisonStep.Versions;
import io.sluice.schema.wire.WireFormat;
import io.sluice.stack.workload.OrderRow;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.repair.IntendedRowPlanner;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The steps of the poison-dlq scenario on one stack (docs/design.md#the-poison-dlq-scenario). Each
 * takes the previous step's result and returns its own; none keeps anything between calls (the
 * stack's clients and the settings are all it holds). A step that cannot go on throws {@link
 * ScenarioFailure}; every wait is bounded.
 */
final class PoisonSteps {
  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);
  private static final String MAIN = ScenarioStack.MAIN_TOPIC;
  private static final String DLQ = ScenarioStack.DLQ_TOPIC;

  private final ScenarioStack stack;
  private final Settings settings;
  private final Consumer<String> progress;

  PoisonSteps(ScenarioStack stack, Settings settings, Consumer<String> progress) {
    this.stack = stack;
    this.settings = settings;
    this.progress = progress;
  }

  Versions versions(Plan plan) throws SQLException {
    return new Versions(plan, stack.stackVersions());
  }

  /** Seeds the baseline rows and waits until the current table equals the source. */
  Baseline baseline(Versions versions) throws SQLException {
    ScenarioStack.Baselined baselined =
        stack.baseline(settings.seed(), settings.baselineRows(), settings.waitTimeout(), progress);
    return new Baseline(versions, baselined.dlqBefore(), baselined.linkage());
  }

  /**
   * Pauses capture, inserts the intended row in the source, and produces its JSON keyed by the Avro
   * primary key to the main topic: what capture would have published, but not in Avro.
   */
  Injection inject(Baseline baseline) throws Exception {
    long replacementsBefore = stack.router().threadReplacements();
    CaptureAdmin capture = stack.capture();
    capture.pause();
    BoundedWait.until("capture reports PAUSED", STEP_TIMEOUT, capture::state, "PAUSED"::equals);
    OrderRow intended = baseline.plan().intended();
    try (Connection c = stack.connect()) {
      ScenarioRows.insert(c, intended);
    }
    JsonNode statusDuringInjection = capture.status();
    PoisonRecord poison =
        PoisonRecord.of(
            stack.registry(),
            MAIN,
            ScenarioRows.columns(intended),
            ScenarioRows.intendedPayload(intended));
    long commitAtInjection = stack.routerCommitId();
    ProducerMetadata at = produce(poison);
    String payloadSha256 = Sha256.hex(poison.value());
    progress.accept(
        "  poison at "
            + at
            + " ("
            + poison.value().length
            + " bytes, sha256 "
            + payloadSha256
            + ")");
    FaultSection fault =
        new FaultSection(
            FaultSection.MECHANISM,
            at,
            statusDuringInjection,
            payloadSha256,
            poison.value().length,
            Sha256.hex(poison.key()),
            poison.keySchemaId(),
            intended.orderId(),
            intended.eventId());
    return new Injection(baseline, poison, at, replacementsBefore, commitAtInjection, fault);
  }

  /**
   * Waits for the poison's DLQ record and for the router's commit past the poison, then checks the
   * record (the only new one, its error metadata, the original bytes) and that the router runs.
   */
  Quarantine quarantine(Injection injection) {
    ProducerMetadata at = injection.poisonAt();
    Set<String> before = injection.baseline().dlqBefore();
    ConsumerRecord<byte[], byte[]> dlqRecord =
        BoundedWait.until(
            "the router writes a DLQ record for " + at + " to " + DLQ,
            STEP_TIMEOUT,
            () ->
                stack.dlqRecordsSince(before).stream()
                    .filter(r -> PoisonDlqRecords.isOf(r, at))
                    .findFirst()
                    .orElse(null),
            r -> r != null);
    TopicPartition poisonPartition = new TopicPartition(MAIN, at.partition());
    Long committed =
        BoundedWait.latest(
            STEP_TIMEOUT,
            () -> stack.routerCommitted().get(poisonPartition),
            offset -> offset != null && offset > at.offset());

    List<ConsumerRecord<byte[], byte[]>> fresh = stack.dlqRecordsSince(before);
    long ofPoison = fresh.stream().filter(r -> PoisonDlqRecords.isOf(r, at)).count();
    PoisonRecord poison = injection.poison();
    DlqEnvelope envelope = DlqEnvelope.fromJson(dlqRecord.value());
    String health = stack.router().health();
    long replacements = stack.router().threadReplacements();
    progress.accept(
        "  DLQ record "
            + DLQ
            + "-"
            + dlqRecord.partition()
            + "@"
            + dlqRecord.offset()
            + " ("
            + envelope.errorCode()
            + "); router "
            + health
            + ", committed offset of partition "
            + at.partition()
            + " "
            + committed);
    Map<PoisonCheck, Boolean> proved = new EnumMap<>(PoisonCheck.class);
    proved.put(CHECKPOINT_ADVANCED_AFTER_POISON, committed != null && committed > at.offset());
    proved.put(EXACTLY_ONE_DLQ_RECORD, ofPoison == 1 && fresh.size() == 1);
    proved.put(
        POISON_WAS_NON_AVRO,
        !WireFormat.hasHeader(poison.value())
            && "NOT_AVRO_WIRE_FORMAT".equals(envelope.errorCode()));
    proved.put(DLQ_HAS_ERROR_METADATA, PoisonDlqRecords.hasErrorMetadata(dlqRecord, envelope, at));
    proved.put(
        DLQ_PRESERVED_ORIGINAL_VALUE,
        Arrays.equals(envelope.originalValue(), poison.value())
            && Arrays.equals(envelope.originalKey(), poison.key())
            && Sha256.hex(poison.value()).equals(envelope.originalValueSha256()));
    proved.put(
        MAIN_JOB_SURVIVED_POISON,
        health.equals("RUNNING") && replacements == injection.threadReplacementsBefore());
    QuarantineSection section =
        QuarantineSection.of(
            dlqRecord,
            health,
            replacements - injection.threadReplacementsBefore(),
            settings.redactPayloads());
    return new Quarantine(injection, dlqRecord, fresh.size(), section, Map.copyOf(proved));
  }

  /**
   * Repairs the DLQ record as an operator would (unless --skip-repair), then reconciles while
   * capture is still paused: the repaired record alone must make the lake equal the source.
   */
  Repair repair(Quarantine quarantine) {
    Map<PoisonCheck, Boolean> proved = new EnumMap<>(PoisonCheck.class);
    String mode = "skipped";
    RepairProducerMetadata produced = null;
    QuarantineSection section = quarantine.section();
    if (!settings.skipRepair()) {
      ConsumerRecord<byte[], byte[]> dlqRecord = quarantine.dlqRecord();
      PoisonRecord poison = quarantine.injection().poison();
      RepairStep step =
          new RepairStep(
              stack.endpoints().bootstrapServers(),
              stack.endpoints().schemaRegistryUrl(),
              DLQ,
              IntendedRowPlanner.STRATEGY);
      LedgerEntry done = step.repair(dlqRecord, progress);
      ConsumerRecord<byte[], byte[]> repaired = step.readBack(done);
      proved.put(
          REPAIR_REPLAYED_WITH_REGISTERED_AVRO,
          repaired != null
              && WireFormat.hasHeader(repaired.value())
              && stack
                  .registry()
                  .isIdInSubject(MAIN + "-value", WireFormat.schemaId(repaired.value()))
              && Arrays.equals(repaired.key(), poison.key())
              && repaired.partition() == quarantine.injection().poisonAt().partition());
      mode = "repair --strategy " + IntendedRowPlanner.STRATEGY;
      produced = step.metadata(dlqRecord, done, repaired);
      section = section.repaired();
    }
    progress.accept(
        "  waiting (at most "
            + settings.repairWait().toSeconds()
            + " s) for the current table to equal the source while capture is paused");
    ReconcileResult before =
        BoundedWait.latest(
            settings.repairWait(), stack.lake()::reconcile, ReconcileResult::converged);
    String captureState = stack.capture().state();
    proved.put(
        REPAIR_CONVERGED_BEFORE_CONNECTOR_RESUME,
        before != null && before.converged() && captureState.equals("PAUSED"));
    progress.accept(
        "  before resume: "
            + (before == null ? "no reconciliation" : before.diffCount() + " differing rows")
            + ", capture "
            + captureState);
    RecoverySection recovery =
        new RecoverySection(
            mode,
            produced,
            before == null ? null : ReconciliationReport.of(before),
            captureState,
            null);
    return new Repair(
        quarantine, section, recovery, stack.linkage(), Map.copyOf(proved), stack.drifting(before));
  }

  /** Resumes capture (it re-emits the intended row) and inserts the next row. */
  Resumption resume(Repair repair) throws SQLException {
    CaptureAdmin capture = stack.capture();
    capture.resume();
    String state = BoundedWait.latest(STEP_TIMEOUT, capture::state, "RUNNING"::equals);
    RecoverySection recovery = repair.recovery().resumed(capture.status());
    try (Connection c = stack.connect()) {
      ScenarioRows.insert(c, repair.plan().next());
    }
    return new Resumption(repair, recovery, Map.of(CONNECTOR_RESUMED, "RUNNING".equals(state)));
  }

  /**
   * Waits until the lake equals the source, the event-id audit is consistent and the intended row's
   * event reached the changelog as often as it was sent (repair and capture: twice), then checks
   * that events kept flowing past the poison.
   */
  Final settle(Resumption resumption) {
    long intendedCopies = settings.skipRepair() ? 1 : 2;
    long intendedId = resumption.plan().intended().eventId();
    LakeReading last =
        stack.finalReading(
            settings.waitTimeout(),
            audit -> audit.changelogEventIds().getOrDefault(intendedId, 0L) >= intendedCopies);
    long nextId = resumption.plan().next().eventId();
    List<Long> current = stack.lake().eventIds(ScenarioStack.CURRENT_TABLE);
    boolean flowed =
        current.contains(nextId)
            && last.audit().changelogEventIds().containsKey(nextId)
            && stack.routerCommitId() > resumption.injection().routerCommitAtInjection() + 1;
    LinkageSnapshot linkage = stack.linkage();
    progress.accept(
        "  final: "
            + last.reconcile().diffCount()
            + " differing rows, "
            + last.audit().changelogRowCount()
            + " changelog rows, "
            + last.audit().duplicateOccurrenceCount()
            + " duplicate event(s); tables: "
            + ScenarioStack.describe(last.tables()));
    return new Final(
        resumption,
        ReconciliationReport.of(last.reconcile()),
        last.audit().toReport(),
        linkage,
        Map.of(
            POST_POISON_EVENT_FLOW_CONTINUED, flowed,
            FINAL_SNAPSHOT_DIFF_ZERO, last.reconcile().converged(),
            FINAL_EVENT_ID_AUDIT_CONSISTENT, last.audit().consistent(),
            FINAL_EVERY_TABLE_EQUAL, ScenarioStack.everyTableEqual(last.tables())),
        stack.drifting(last.tables()));
  }

  private ProducerMetadata produce(PoisonRecord record)
      throws InterruptedException, ExecutionException {
    try (KafkaProducer<byte[], byte[]> producer = stack.producer("sluice-verify-poison")) {
      return ProducerMetadata.of(
          producer.send(new ProducerRecord<>(MAIN, record.key(), record.value())).get());
    }
  }
}
