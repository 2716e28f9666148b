package io.sluice.scenarios.sinkpoison;

import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.CHANGELOG_SINK_RUNNING;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.CONNECTOR_RESUMED;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.DLQ_NAMES_FIELD_AND_TYPES;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.EVENT_IDS_CONSISTENT;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.EVERY_TABLE_EQUALS_SOURCE;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.FOLLOWING_EVENT_IN_CHANGELOG;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.FOLLOWING_EVENT_IN_CURRENT;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.ORIGINAL_VALUE_PRESERVED;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.QUARANTINED_BY_ROUTER_LINEAGE;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.REPAIR_CONVERGED_BEFORE_CONNECTOR_RESUME;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.REPAIR_REPLAYED;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.RETYPED_EVENT_QUARANTINED_ONCE;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.RETYPED_SCHEMA_REGISTERED;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.ROUTER_COMMITTED_PAST_RETYPED_EVENT;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.ROUTER_SURVIVED;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.SINKS_RUNNING_AT_END;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.SOURCE_EQUALS_CURRENT;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.UPSERT_SINK_RUNNING;

import io.sluice.scenarios.BoundedWait;
import io.sluice.scenarios.ChangeEvent;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.RetypedSchemas;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioRows;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.ScenarioStack.LakeReading;
import io.sluice.scenarios.sinkpoison.SinkPoisonScenario.Settings;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.FaultSection;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.QuarantineSection;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.RecoverySection;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.SchemaVersion;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Injection;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Plan;
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
import io.sluice.scenarios.step.Sections;
import io.sluice.scenarios.step.Sections.InjectedRecord;
import io.sluice.scenarios.step.Steps;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.stack.StackLayout;
import io.sluice.stack.workload.OrderRow;
import io.sluice.tools.dlq.repair.ReencodePlanner;
import java.time.Clock;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.avro.Schema;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * The sink-poison scenario's own steps on one stack (docs/design.md#the-sink-poison-scenario),
 * between the baseline and the final reading every scenario shares ({@link Steps}). Each takes the
 * previous step's result and returns its own; none keeps anything between calls. A step that cannot
 * go on throws {@link ScenarioFailure}; every wait is bounded.
 */
final class SinkPoisonSteps {
  private static final String MAIN = ScenarioStack.MAIN_TOPIC;
  private static final String DLQ = ScenarioStack.DLQ_TOPIC;
  private static final String VALUE_SUBJECT = MAIN + "-value";
  private static final String KEY_SUBJECT = MAIN + "-key";
  private static final String FIELD = SinkPoisonScenario.RETYPED_FIELD;
  private static final List<String> SINKS =
      List.of(StackLayout.DEFAULT.upsertSink(), StackLayout.DEFAULT.changelogSink());

  private final ScenarioStack stack;
  private final Steps<SinkPoisonCheck> shared;
  private final QuarantineSteps quarantineSteps;
  private final Plan plan;
  private final Settings settings;
  private final Clock clock;
  private final Consumer<String> progress;

  SinkPoisonSteps(Steps<SinkPoisonCheck> shared, Plan plan) {
    this.stack = shared.stack();
    this.shared = shared;
    this.progress = shared.context().progress();
    this.quarantineSteps = new QuarantineSteps(stack, progress);
    this.plan = plan;
    this.settings = plan.settings();
    this.clock = shared.context().clock();
  }

  /**
   * Pauses capture, inserts the intended and the following row in the source, registers the retyped
   * value schema under NONE compatibility and produces the intended row's insert encoded with it,
   * then the following row's insert encoded with the accepted schema. Capture stays paused so that
   * the retyped event is the intended row's only change until the repair, and the two events are on
   * the topic in this order whatever capture does.
   */
  Injection inject(Baseline<SinkPoisonCheck> baseline) throws Exception {
    OrderRow intended = plan.intended();
    OrderRow following = plan.following();
    Paused paused = quarantineSteps.pauseCaptureAndInsert(List.of(intended, following));

    SchemaRegistryClient registry = stack.registry();
    RegisteredSchema accepted = registry.latest(VALUE_SUBJECT);
    RegisteredSchema key = registry.latest(KEY_SUBJECT);
    String compatibilityBefore = registry.compatibility(VALUE_SUBJECT);
    registry.setCompatibility(VALUE_SUBJECT, "NONE");
    Schema retypedSchema = RetypedSchemas.retyped(accepted.schema(), FIELD);
    int retypedId = registry.register(VALUE_SUBJECT, retypedSchema);
    RegisteredSchema retyped = registry.latest(VALUE_SUBJECT);
    progress.accept(
        "  "
            + VALUE_SUBJECT
            + ": v"
            + accepted.version()
            + " (id "
            + accepted.id()
            + ", "
            + FIELD
            + " "
            + RetypedSchemas.typeOf(accepted.schema(), FIELD)
            + ") -> v"
            + retyped.version()
            + " (id "
            + retyped.id()
            + ", "
            + FIELD
            + " "
            + RetypedSchemas.typeOf(retyped.schema(), FIELD)
            + ") under NONE");

    Map<String, Object> retypedColumns = new LinkedHashMap<>(ScenarioRows.columns(intended));
    retypedColumns.put(FIELD, String.valueOf(intended.amountCents()));
    ChangeEvent retypedEvent = ChangeEvent.insert(MAIN, retyped, key, retypedColumns, clock);
    ChangeEvent followingEvent =
        ChangeEvent.insert(MAIN, accepted, key, ScenarioRows.columns(following), clock);
    List<ProducerMetadata> at = produce(List.of(retypedEvent, followingEvent));
    ProducerMetadata retypedAt = at.get(0);
    InjectedRecord injected =
        InjectedRecord.of(
            retypedAt,
            paused.captureStatus(),
            retypedEvent.key(),
            retypedEvent.value(),
            retypedEvent.keySchemaId(),
            intended);
    progress.accept(
        "  retyped event at "
            + retypedAt
            + " (schema id "
            + retypedEvent.valueSchemaId()
            + ", sha256 "
            + injected.payloadSha256()
            + "); following event at "
            + at.get(1));
    FaultSection fault =
        new FaultSection(
            FaultSection.MECHANISM,
            compatibilityBefore,
            registry.compatibility(VALUE_SUBJECT),
            SchemaVersion.of(accepted, FIELD),
            SchemaVersion.of(retyped, FIELD),
            injected,
            at.get(1),
            followingEvent.valueSchemaId(),
            following.eventId());
    boolean registered =
        retyped.id() == retypedId
            && retyped.version() > accepted.version()
            && "string".equals(RetypedSchemas.typeOf(retyped.schema(), FIELD))
            && "long".equals(RetypedSchemas.typeOf(accepted.schema(), FIELD));
    return new Injection(
        baseline,
        accepted,
        retypedEvent,
        retypedAt,
        at.get(1),
        paused.threadReplacementsBefore(),
        fault,
        Map.of(RETYPED_SCHEMA_REGISTERED, registered));
  }

  /**
   * Waits for the retyped event's DLQ record, the router's commit past it and the following event
   * in both tables, then checks the record (the only new one, its stage and code, the field and
   * types it names, the original bytes), the router and both sinks.
   */
  Quarantine<SinkPoisonCheck, Injection> quarantine(Injection injection) {
    ProducerMetadata at = injection.retypedAt();
    Set<String> before = injection.baseline().dlqBefore();
    ConsumerRecord<byte[], byte[]> dlqRecord =
        quarantineSteps.awaitDlqRecord(
            "a DLQ record for the retyped event " + at + " on " + DLQ, at, before);
    Long committed = quarantineSteps.awaitRouterCommitPast(at);
    long followingId = plan.following().eventId();
    boolean inCurrent =
        BoundedWait.latest(
                settings.run().waitTimeout(),
                () -> stack.lake().eventIds(ScenarioStack.CURRENT_TABLE).contains(followingId),
                Boolean::booleanValue)
            == Boolean.TRUE;
    boolean inChangelog =
        BoundedWait.latest(
                settings.run().waitTimeout(),
                () -> stack.lake().eventIds(ScenarioStack.CHANGELOG_TABLE).contains(followingId),
                Boolean::booleanValue)
            == Boolean.TRUE;
    List<SinkStatus> sinks = sinks();

    Quarantined found = quarantineSteps.quarantined(dlqRecord, at, before, committed);
    String health = found.routerHealth();
    long replaced = found.threadReplacements() - injection.threadReplacementsBefore();
    String code = found.envelope().errorCode();
    String stage = found.envelope().quarantinedBySink() ? "sink" : "router";
    progress.accept(
        "  DLQ record "
            + found.dlqRecordName()
            + " ("
            + code
            + ", stage "
            + stage
            + "); router "
            + health
            + ", committed "
            + committed
            + "; following event in current "
            + inCurrent
            + ", in changelog "
            + inChangelog
            + "; sinks "
            + sinks.stream().map(s -> s.connector() + " " + s.state()).toList());
    ChangeEvent retyped = injection.retyped();
    String message = found.envelope().errorMessage() == null ? "" : found.envelope().errorMessage();
    Map<SinkPoisonCheck, Boolean> proved = new EnumMap<>(SinkPoisonCheck.class);
    proved.put(RETYPED_EVENT_QUARANTINED_ONCE, found.onlyRecordOfInjected());
    proved.put(
        QUARANTINED_BY_ROUTER_LINEAGE,
        stage.equals("router") && "SCHEMA_INCOMPATIBLE".equals(code));
    proved.put(
        DLQ_NAMES_FIELD_AND_TYPES,
        found.hasErrorMetadata()
            && message.contains(FIELD)
            && message.contains("long")
            && message.contains("string")
            && Integer.valueOf(retyped.valueSchemaId()).equals(found.envelope().schemaId()));
    proved.put(ORIGINAL_VALUE_PRESERVED, found.preserved(retyped.key(), retyped.value()));
    proved.put(ROUTER_SURVIVED, found.routerSurvived(injection.threadReplacementsBefore()));
    proved.put(ROUTER_COMMITTED_PAST_RETYPED_EVENT, found.committedPast());
    proved.put(UPSERT_SINK_RUNNING, sinks.get(0).running());
    proved.put(CHANGELOG_SINK_RUNNING, sinks.get(1).running());
    proved.put(FOLLOWING_EVENT_IN_CURRENT, inCurrent);
    proved.put(FOLLOWING_EVENT_IN_CHANGELOG, inChangelog);
    Sections.QuarantineSection dlq =
        Sections.QuarantineSection.of(dlqRecord, health, replaced, settings.redactPayloads());
    QuarantineSection section =
        new QuarantineSection(
            dlq.dlqKafkaRecord(),
            dlq.errorMetadata(),
            "quarantined",
            stage,
            code,
            health,
            replaced,
            sinks,
            inCurrent,
            inChangelog);
    return new Quarantine<>(injection, found, section, Map.copyOf(proved));
  }

  /**
   * Reverts the schema as the DBA would (a new version with the field long again, which the lineage
   * accepts and which becomes the latest the repair encodes with), repairs the quarantined record
   * through {@code sluice dlq repair <id> --strategy avro-reencode} (the same event, encoded with
   * the reverted version), and reconciles while capture is still paused: the repaired record alone
   * must make the lake equal the source.
   */
  Repair<SinkPoisonCheck, Injection, RecoverySection> repair(
      Quarantine<SinkPoisonCheck, Injection> quarantined) {
    SchemaRegistryClient registry = stack.registry();
    Injection injection = quarantined.injection();
    RegisteredSchema accepted = injection.accepted();
    int revertedId =
        registry.register(
            VALUE_SUBJECT,
            RetypedSchemas.reverted(
                accepted.schema(),
                FIELD,
                "long again after sluice verify --failure sink-poison, seed "
                    + settings.run().seed()));
    RegisteredSchema reverted = registry.latest(VALUE_SUBJECT);
    if (reverted.id() != revertedId) {
      throw new ScenarioFailure(
          "the reverted schema (id "
              + revertedId
              + ") is not the latest version of "
              + VALUE_SUBJECT
              + " (id "
              + reverted.id()
              + "); the repair encodes with the latest");
    }
    Repaired repaired =
        quarantineSteps.repair(quarantined.found().dlqRecord(), ReencodePlanner.STRATEGY);
    Map<SinkPoisonCheck, Boolean> proved = new EnumMap<>(SinkPoisonCheck.class);
    proved.put(
        REPAIR_REPLAYED,
        repaired.replayed(
            injection.retyped().key(),
            injection.retypedAt().partition(),
            id -> id == reverted.id()));
    BeforeResume reconciled = quarantineSteps.reconcileBeforeResume(settings.repairWait());
    proved.put(REPAIR_CONVERGED_BEFORE_CONNECTOR_RESUME, reconciled.converged());
    RecoverySection recovery =
        new RecoverySection(
            "schema reverted by a new version, then repair --strategy " + ReencodePlanner.STRATEGY,
            SchemaVersion.of(reverted, FIELD),
            repaired.metadata(),
            reconciled.report(),
            reconciled.captureState(),
            null,
            null);
    return new Repair<>(
        quarantined, quarantined.section().repaired(), recovery, reconciled, Map.copyOf(proved));
  }

  /** Resumes capture; it re-emits both rows, encoded with the accepted schema. */
  Resumption<SinkPoisonCheck, Injection, RecoverySection> resume(
      Repair<SinkPoisonCheck, Injection, RecoverySection> repair) {
    Resumed resumed = quarantineSteps.resumeCapture();
    return new Resumption<>(
        repair,
        repair.recovery().resumed(resumed.status()),
        Map.of(CONNECTOR_RESUMED, resumed.running()));
  }

  /**
   * Waits until the lake equals the source, the event-id audit is consistent and capture's copies
   * of both rows reached the changelog (each row twice: the repair or the injected event, and
   * capture), then checks that both sinks still run.
   */
  Final<SinkPoisonCheck> settle(
      Resumption<SinkPoisonCheck, Injection, RecoverySection> resumption) {
    long intendedId = plan.intended().eventId();
    long followingId = plan.following().eventId();
    LakeReading last =
        shared.finalReading(
            audit ->
                audit.changelogEventIds().getOrDefault(intendedId, 0L) >= 2
                    && audit.changelogEventIds().getOrDefault(followingId, 0L) >= 2);
    List<SinkStatus> sinks = sinks();
    progress.accept(
        Steps.finalLine(
            last, "; sinks " + sinks.stream().map(s -> s.connector() + " " + s.state()).toList()));
    RecoverySection recovery = resumption.recovery().ended(sinks);
    return shared.settled(
        resumption,
        last,
        Map.of(
            SOURCE_EQUALS_CURRENT, last.reconcile().converged(),
            EVENT_IDS_CONSISTENT, last.audit().consistent(),
            SINKS_RUNNING_AT_END, sinks.stream().allMatch(SinkStatus::running),
            EVERY_TABLE_EQUALS_SOURCE, ScenarioStack.everyTableEqual(last.tables())),
        report -> report.recovery(recovery));
  }

  private List<SinkStatus> sinks() {
    return SINKS.stream().map(s -> SinkStatus.of(stack.endpoints().connectUrl(), s)).toList();
  }

  private List<ProducerMetadata> produce(List<ChangeEvent> events)
      throws InterruptedException, ExecutionException {
    try (KafkaProducer<byte[], byte[]> producer = stack.producer("sluice-verify-sink-poison")) {
      List<ProducerMetadata> at = new ArrayList<>();
      for (ChangeEvent e : events) {
        // One at a time: the following event is sent only once the retyped one is acknowledged.
        at.add(
            ProducerMetadata.of(
                producer.send(new ProducerRecord<>(MAIN, e.key(), e.value())).get()));
      }
      return List.copyOf(at);
    }
  }
}
