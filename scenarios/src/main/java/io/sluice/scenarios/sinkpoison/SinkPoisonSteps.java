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

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.dlq.Sha256;
import io.sluice.scenarios.BoundedWait;
import io.sluice.scenarios.CaptureAdmin;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.ScenarioStack.LakeReading;
import io.sluice.scenarios.poison.PoisonDlqRecords;
import io.sluice.scenarios.poison.PoisonSections;
import io.sluice.scenarios.poison.RepairStep;
import io.sluice.scenarios.poison.ScenarioRows;
import io.sluice.scenarios.sinkpoison.SinkPoisonScenario.Settings;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.FaultSection;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.QuarantineSection;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.RecoverySection;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.SchemaVersion;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Baseline;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Final;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Injection;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Plan;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Quarantine;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Repair;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Resumption;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Versions;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import io.sluice.stack.EmbeddedStack;
import io.sluice.stack.workload.OrderRow;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.repair.ReencodePlanner;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
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
import org.apache.kafka.common.TopicPartition;

/**
 * The steps of the sink-poison scenario on one stack (docs/design.md#the-sink-poison-scenario).
 * Each takes the previous step's result and returns its own; none keeps anything between calls. A
 * step that cannot go on throws {@link ScenarioFailure}; every wait is bounded.
 */
final class SinkPoisonSteps {
  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);
  private static final String MAIN = ScenarioStack.MAIN_TOPIC;
  private static final String DLQ = ScenarioStack.DLQ_TOPIC;
  private static final String VALUE_SUBJECT = MAIN + "-value";
  private static final String KEY_SUBJECT = MAIN + "-key";
  private static final String FIELD = SinkPoisonScenario.RETYPED_FIELD;
  private static final List<String> SINKS =
      List.of(EmbeddedStack.UPSERT_SINK, EmbeddedStack.CHANGELOG_SINK);

  private final ScenarioStack stack;
  private final Settings settings;
  private final Clock clock;
  private final Consumer<String> progress;

  SinkPoisonSteps(ScenarioStack stack, Settings settings, Clock clock, Consumer<String> progress) {
    this.stack = stack;
    this.settings = settings;
    this.clock = clock;
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
   * Pauses capture, inserts the intended and the following row in the source, registers the retyped
   * value schema under NONE compatibility and produces the intended row's insert encoded with it,
   * then the following row's insert encoded with the accepted schema. Capture stays paused so that
   * the retyped event is the intended row's only change until the repair, and the two events are on
   * the topic in this order whatever capture does.
   */
  Injection inject(Baseline baseline) throws Exception {
    long replacementsBefore = stack.router().threadReplacements();
    CaptureAdmin capture = stack.capture();
    capture.pause();
    BoundedWait.until("capture reports PAUSED", STEP_TIMEOUT, capture::state, "PAUSED"::equals);
    OrderRow intended = baseline.plan().intended();
    OrderRow following = baseline.plan().following();
    try (Connection c = stack.connect()) {
      ScenarioRows.insert(c, intended);
      ScenarioRows.insert(c, following);
    }
    JsonNode statusDuringInjection = capture.status();

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
    String payloadSha256 = Sha256.hex(retypedEvent.value());
    progress.accept(
        "  retyped event at "
            + retypedAt
            + " (schema id "
            + retypedEvent.valueSchemaId()
            + ", sha256 "
            + payloadSha256
            + "); following event at "
            + at.get(1));
    FaultSection fault =
        new FaultSection(
            FaultSection.MECHANISM,
            compatibilityBefore,
            registry.compatibility(VALUE_SUBJECT),
            SchemaVersion.of(accepted, FIELD),
            SchemaVersion.of(retyped, FIELD),
            retypedAt,
            statusDuringInjection,
            payloadSha256,
            retypedEvent.value().length,
            Sha256.hex(retypedEvent.key()),
            retypedEvent.keySchemaId(),
            intended.orderId(),
            intended.eventId(),
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
        replacementsBefore,
        fault,
        Map.of(RETYPED_SCHEMA_REGISTERED, registered));
  }

  /**
   * Waits for the retyped event's DLQ record, the router's commit past it and the following event
   * in both tables, then checks the record (the only new one, its stage and code, the field and
   * types it names, the original bytes), the router and both sinks.
   */
  Quarantine quarantine(Injection injection) {
    ProducerMetadata at = injection.retypedAt();
    Set<String> before = injection.baseline().dlqBefore();
    ConsumerRecord<byte[], byte[]> dlqRecord =
        BoundedWait.until(
            "a DLQ record for the retyped event " + at + " on " + DLQ,
            STEP_TIMEOUT,
            () ->
                stack.dlqRecordsSince(before).stream()
                    .filter(r -> PoisonDlqRecords.isOf(r, at))
                    .findFirst()
                    .orElse(null),
            r -> r != null);
    Long committed =
        BoundedWait.latest(
            STEP_TIMEOUT,
            () -> stack.routerCommitted().get(new TopicPartition(MAIN, at.partition())),
            offset -> offset != null && offset > at.offset());
    long followingId = injection.plan().following().eventId();
    boolean inCurrent =
        BoundedWait.latest(
                settings.waitTimeout(),
                () -> stack.lake().eventIds(ScenarioStack.CURRENT_TABLE).contains(followingId),
                Boolean::booleanValue)
            == Boolean.TRUE;
    boolean inChangelog =
        BoundedWait.latest(
                settings.waitTimeout(),
                () -> stack.lake().eventIds(ScenarioStack.CHANGELOG_TABLE).contains(followingId),
                Boolean::booleanValue)
            == Boolean.TRUE;
    List<SinkStatus> sinks = sinks();

    List<ConsumerRecord<byte[], byte[]>> fresh = stack.dlqRecordsSince(before);
    long ofRetyped = fresh.stream().filter(r -> PoisonDlqRecords.isOf(r, at)).count();
    DlqEnvelope envelope = DlqEnvelope.fromJson(dlqRecord.value());
    String health = stack.router().health();
    long replacements = stack.router().threadReplacements();
    String stage = envelope.quarantinedBySink() ? "sink" : "router";
    progress.accept(
        "  DLQ record "
            + DLQ
            + "-"
            + dlqRecord.partition()
            + "@"
            + dlqRecord.offset()
            + " ("
            + envelope.errorCode()
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
    String message = envelope.errorMessage() == null ? "" : envelope.errorMessage();
    Map<SinkPoisonCheck, Boolean> proved = new EnumMap<>(SinkPoisonCheck.class);
    proved.put(RETYPED_EVENT_QUARANTINED_ONCE, ofRetyped == 1 && fresh.size() == 1);
    proved.put(
        QUARANTINED_BY_ROUTER_LINEAGE,
        stage.equals("router") && "SCHEMA_INCOMPATIBLE".equals(envelope.errorCode()));
    proved.put(
        DLQ_NAMES_FIELD_AND_TYPES,
        PoisonDlqRecords.hasErrorMetadata(dlqRecord, envelope, at)
            && message.contains(FIELD)
            && message.contains("long")
            && message.contains("string")
            && Integer.valueOf(retyped.valueSchemaId()).equals(envelope.schemaId()));
    proved.put(
        ORIGINAL_VALUE_PRESERVED,
        Arrays.equals(envelope.originalValue(), retyped.value())
            && Arrays.equals(envelope.originalKey(), retyped.key())
            && Sha256.hex(retyped.value()).equals(envelope.originalValueSha256()));
    proved.put(
        ROUTER_SURVIVED,
        health.equals("RUNNING") && replacements == injection.threadReplacementsBefore());
    proved.put(ROUTER_COMMITTED_PAST_RETYPED_EVENT, committed != null && committed > at.offset());
    proved.put(UPSERT_SINK_RUNNING, sinks.get(0).running());
    proved.put(CHANGELOG_SINK_RUNNING, sinks.get(1).running());
    proved.put(FOLLOWING_EVENT_IN_CURRENT, inCurrent);
    proved.put(FOLLOWING_EVENT_IN_CHANGELOG, inChangelog);
    PoisonSections.QuarantineSection dlq =
        PoisonSections.QuarantineSection.of(
            dlqRecord,
            health,
            replacements - injection.threadReplacementsBefore(),
            settings.redactPayloads());
    QuarantineSection section =
        new QuarantineSection(
            dlq.dlqKafkaRecord(),
            dlq.errorMetadata(),
            "quarantined",
            stage,
            envelope.errorCode(),
            health,
            replacements - injection.threadReplacementsBefore(),
            sinks,
            inCurrent,
            inChangelog);
    return new Quarantine(injection, dlqRecord, fresh.size(), section, Map.copyOf(proved));
  }

  /**
   * Reverts the schema as the DBA would (a new version with the field long again, which the lineage
   * accepts and which becomes the latest the repair encodes with), repairs the quarantined record
   * through {@code sluice dlq repair <id> --strategy avro-reencode} (the same event, encoded with
   * the reverted version), and reconciles while capture is still paused: the repaired record alone
   * must make the lake equal the source.
   */
  Repair repair(Quarantine quarantine) {
    SchemaRegistryClient registry = stack.registry();
    RegisteredSchema accepted = quarantine.injection().accepted();
    int revertedId =
        registry.register(
            VALUE_SUBJECT,
            RetypedSchemas.reverted(
                accepted.schema(),
                FIELD,
                "long again after sluice verify --failure sink-poison, seed " + settings.seed()));
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
    ConsumerRecord<byte[], byte[]> dlqRecord = quarantine.dlqRecord();
    RepairStep step =
        new RepairStep(
            stack.endpoints().bootstrapServers(),
            stack.endpoints().schemaRegistryUrl(),
            DLQ,
            ReencodePlanner.STRATEGY);
    LedgerEntry done = step.repair(dlqRecord, progress);
    ConsumerRecord<byte[], byte[]> repaired = step.readBack(done);
    ChangeEvent retyped = quarantine.injection().retyped();
    Map<SinkPoisonCheck, Boolean> proved = new EnumMap<>(SinkPoisonCheck.class);
    proved.put(
        REPAIR_REPLAYED,
        repaired != null
            && WireFormat.hasHeader(repaired.value())
            && WireFormat.schemaId(repaired.value()) == reverted.id()
            && Arrays.equals(repaired.key(), retyped.key())
            && repaired.partition() == quarantine.injection().retypedAt().partition());
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
            "schema reverted by a new version, then repair --strategy " + ReencodePlanner.STRATEGY,
            SchemaVersion.of(reverted, FIELD),
            step.metadata(dlqRecord, done, repaired),
            before == null ? null : ReconciliationReport.of(before),
            captureState,
            null,
            null);
    return new Repair(
        quarantine,
        quarantine.section().repaired(),
        recovery,
        stack.linkage(),
        Map.copyOf(proved),
        stack.drifting(before));
  }

  /** Resumes capture; it re-emits both rows, encoded with the accepted schema. */
  Resumption resume(Repair repair) {
    CaptureAdmin capture = stack.capture();
    capture.resume();
    String state = BoundedWait.latest(STEP_TIMEOUT, capture::state, "RUNNING"::equals);
    return new Resumption(
        repair,
        repair.recovery().resumed(capture.status()),
        Map.of(CONNECTOR_RESUMED, "RUNNING".equals(state)));
  }

  /**
   * Waits until the lake equals the source, the event-id audit is consistent and capture's copies
   * of both rows reached the changelog (each row twice: the repair or the injected event, and
   * capture), then checks that both sinks still run.
   */
  Final settle(Resumption resumption) {
    long intendedId = resumption.plan().intended().eventId();
    long followingId = resumption.plan().following().eventId();
    LakeReading last =
        stack.finalReading(
            settings.waitTimeout(),
            audit ->
                audit.changelogEventIds().getOrDefault(intendedId, 0L) >= 2
                    && audit.changelogEventIds().getOrDefault(followingId, 0L) >= 2);
    List<SinkStatus> sinks = sinks();
    progress.accept(
        "  final: "
            + last.reconcile().diffCount()
            + " differing rows, "
            + last.audit().changelogRowCount()
            + " changelog rows, "
            + last.audit().duplicateOccurrenceCount()
            + " duplicate event(s); sinks "
            + sinks.stream().map(s -> s.connector() + " " + s.state()).toList()
            + "; tables: "
            + ScenarioStack.describe(last.tables()));
    return new Final(
        resumption,
        resumption.recovery().ended(sinks),
        ReconciliationReport.of(last.reconcile()),
        last.audit().toReport(),
        stack.linkage(),
        Map.of(
            SOURCE_EQUALS_CURRENT, last.reconcile().converged(),
            EVENT_IDS_CONSISTENT, last.audit().consistent(),
            SINKS_RUNNING_AT_END, sinks.stream().allMatch(SinkStatus::running),
            EVERY_TABLE_EQUALS_SOURCE, ScenarioStack.everyTableEqual(last.tables())),
        stack.drifting(last.tables()));
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
