package io.sluice.lab.verify.poison;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.sluice.embedded.TopicReader;
import io.sluice.lab.db.OrdersTable;
import io.sluice.lab.db.OrdersWorkload;
import io.sluice.lab.stack.EmbeddedStack;
import io.sluice.lab.verify.BoundedWait;
import io.sluice.lab.verify.CaptureAdmin;
import io.sluice.lab.verify.EventIdAudit;
import io.sluice.lab.verify.LakeState;
import io.sluice.lab.verify.ProducerMetadata;
import io.sluice.lab.verify.Reader;
import io.sluice.lab.verify.ReconciliationReport;
import io.sluice.lab.verify.RouterProbe;
import io.sluice.lab.verify.RunEnvironment;
import io.sluice.lab.verify.ScenarioEndpoints;
import io.sluice.lab.verify.ScenarioFailure;
import io.sluice.lab.verify.ScenarioStack;
import io.sluice.lab.verify.VerifyReport;
import io.sluice.lab.workload.OrderRow;
import io.sluice.router.RouterMain;
import io.sluice.router.dlq.DlqEnvelope;
import io.sluice.router.dlq.DlqHeaders;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.schema.wire.WireFormat;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.dlq.repair.IntendedRowPlanner;
import io.sluice.tools.reconcile.ReconcileResult;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.function.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The poison-dlq scenario of DESIGN.md, the product's reference run, against a running stack:
 *
 * <ol>
 *   <li>seed the baseline rows, wait until Iceberg equals the source, record the linkage;
 *   <li>pause capture, insert the intended row, inject its JSON (not Avro) keyed by the Avro
 *       primary key on the main topic;
 *   <li>check one DLQ record with error metadata and the original bytes, the router still running
 *       and its committed offsets past the poison;
 *   <li>repair it ({@code sluice dlq repair --strategy json-intended-row}) and reconcile before
 *       capture resumes;
 *   <li>resume capture (it re-emits the intended row), insert one more row, reconcile and audit the
 *       event ids.
 * </ol>
 *
 * Every wait is bounded. A step that cannot go on (something did not happen in time) ends the run
 * with its reason in the report; checks not reached stay false.
 */
public final class PoisonDlqScenario {
  public static final String FAILURE_CLASS = "poison-dlq";

  private static final Logger log = LoggerFactory.getLogger(PoisonDlqScenario.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String MAIN = EmbeddedStack.MAIN_TOPIC;
  private static final String CLEAN = EmbeddedStack.CLEAN_TOPIC;
  private static final String DLQ = MAIN + ".dlq";
  private static final String ROUTER_GROUP = EmbeddedStack.ROUTER_APPLICATION_ID;
  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);

  /**
   * How to run the scenario.
   *
   * @param waitTimeout bound of every wait for the lake to catch up
   * @param repairWait bound of the wait for convergence after the repair, before capture resumes
   * @param skipRepair leave the DLQ record unrepaired (shows the checks can fail)
   */
  public record Settings(
      int seed, long baselineRows, Duration waitTimeout, Duration repairWait, boolean skipRepair) {
    public Settings {
      if (seed < 0) {
        throw new IllegalArgumentException("--seed must be >= 0, got " + seed);
      }
      if (baselineRows < 1 || baselineRows >= OrdersWorkload.ID_SPAN - 2) {
        throw new IllegalArgumentException(
            "--baseline-rows must be between 1 and " + (OrdersWorkload.ID_SPAN - 3));
      }
    }
  }

  private final ScenarioEndpoints endpoints;
  private final Settings settings;
  private final Consumer<String> progress;
  private VerifyReport report;
  private String phase = "start";

  public PoisonDlqScenario(
      ScenarioEndpoints endpoints, Settings settings, Consumer<String> progress) {
    this.endpoints = endpoints;
    this.settings = settings;
    this.progress = progress;
  }

  /** The report's {@code path_b_job_class}: the router's main class. */
  public static String routerMainClass() {
    return RouterMain.class.getName();
  }

  /**
   * Runs the scenario and fills the report's scenario sections, checks and summary (not run id,
   * times, command, environment or logs).
   */
  public void run(VerifyReport report) {
    this.report = report;
    report.put("failure_class", FAILURE_CLASS);
    report.put("scenario", scenario());
    report.put("path_b_job_class", routerMainClass());
    report.put("reader", Reader.ICEBERG_GENERICS);
    String failure = null;
    Run run = null;
    try (ScenarioStack stack = ScenarioStack.open(endpoints, Clock.systemUTC())) {
      run = new Run(stack);
      run.all();
      phase = "complete";
    } catch (ScenarioFailure e) {
      failure = e.getMessage();
    } catch (Exception e) {
      log.warn("poison-dlq scenario failed in phase {}", phase, e);
      failure = e.getClass().getSimpleName() + ": " + e.getMessage();
    }
    if (failure != null) {
      progress.accept("FAILED in phase " + phase + ": " + failure);
    }
    report.put("phase", phase);
    report.put("summary", summary(run, failure));
  }

  private Map<String, Object> summary(Run run, String failure) {
    Map<String, Boolean> checks = report.checks();
    Map<String, Object> summary = new LinkedHashMap<>();
    summary.put("passed", report.passed() && failure == null);
    summary.put("dlq_record_count", run == null ? 0 : run.dlqRecordCount);
    summary.put(
        "main_pipeline_continued",
        checks.get("main_job_survived_poison") && checks.get("post_poison_event_flow_continued"));
    summary.put("repair_replayed", checks.get("repair_replayed_with_registered_avro"));
    summary.put("snapshot_diff_count", report.get("snapshot_diff_count"));
    summary.put("failed_phase", failure == null ? null : phase);
    summary.put("failure", failure);
    return summary;
  }

  private Map<String, Object> scenario() {
    Map<String, Object> topics = new LinkedHashMap<>();
    topics.put("main", MAIN);
    topics.put("clean", CLEAN);
    topics.put("dlq", DLQ);
    topics.put("repair_ledger", Ledger.topicFor(DLQ));
    Map<String, Object> scenario = new LinkedHashMap<>();
    scenario.put("seed", settings.seed());
    scenario.put("consumer_group", ROUTER_GROUP);
    scenario.put("topics", topics);
    scenario.put("baseline_events", settings.baselineRows());
    scenario.put("source_table", OrdersTable.QUALIFIED_NAME);
    scenario.put(
        "iceberg_tables", List.of(EmbeddedStack.CURRENT_TABLE, EmbeddedStack.CHANGELOG_TABLE));
    scenario.put("intended_order_id", intendedRow().orderId());
    scenario.put("post_resume_order_id", nextRow().orderId());
    scenario.put("repair_skipped", settings.skipRepair());
    return scenario;
  }

  private OrderRow intendedRow() {
    return ScenarioRows.row(settings.seed(), settings.baselineRows() + 1);
  }

  private OrderRow nextRow() {
    return ScenarioRows.row(settings.seed(), settings.baselineRows() + 2);
  }

  private void enter(String next, String line) {
    phase = next;
    progress.accept("[" + next + "] " + line);
    log.info("poison-dlq: {}: {}", next, line);
  }

  /** One run's clients and what earlier steps found. */
  private final class Run {
    private final ScenarioStack stack;
    private final CaptureAdmin capture;
    private final RouterProbe router;
    private final SchemaRegistryClient registry;
    private final LakeState lakeState;
    private Set<String> dlqBefore;
    private PoisonRecord poison;
    private RecordMetadata poisonAt;
    private ConsumerRecord<byte[], byte[]> dlqRecord;
    private long threadReplacementsBefore;
    private long routerCommitAtInjection;
    private long dlqRecordCount;

    Run(ScenarioStack stack) {
      this.stack = stack;
      this.capture = stack.capture();
      this.router = stack.router();
      this.registry = stack.registry();
      this.lakeState = stack.lake();
    }

    void all() throws Exception {
      baseline();
      inject();
      quarantine();
      repair();
      resume();
    }

    private void baseline() throws Exception {
      enter("baseline", "seeding " + settings.baselineRows() + " rows of seed " + settings.seed());
      try (Connection c = connect()) {
        report.put("stack_versions", RunEnvironment.stackVersions(c));
      }
      if (lakeState.rowsOfSeed(settings.seed()) > 0) {
        throw new ScenarioFailure(
            OrdersTable.QUALIFIED_NAME
                + " already holds rows of seed "
                + settings.seed()
                + "; pick another --seed, or run without --ready-file for a fresh stack");
      }
      String state = capture.state();
      if (!state.equals("RUNNING")) {
        throw new ScenarioFailure(
            "capture is " + state + ", not RUNNING; start or resume it first");
      }
      dlqBefore = coordinates(TopicReader.readCommitted(endpoints.bootstrapServers(), DLQ));
      try (Connection c = connect()) {
        new OrdersWorkload(settings.seed())
            .run(c, settings.baselineRows(), 0, 0, line -> progress.accept("  load: " + line));
      }
      awaitConverged("the current table equals the source after the baseline");
      report.put("baseline_offset_checkpoint_snapshot_linkage", stack.linkage());
    }

    private void inject() throws Exception {
      enter("inject", "pausing capture, inserting the intended row, injecting the poison");
      threadReplacementsBefore = router.threadReplacements();
      capture.pause();
      BoundedWait.until("capture reports PAUSED", STEP_TIMEOUT, capture::state, "PAUSED"::equals);
      OrderRow intended = intendedRow();
      try (Connection c = connect()) {
        ScenarioRows.insert(c, intended);
      }
      ObjectNode statusDuringInjection = (ObjectNode) capture.status();
      poison =
          PoisonRecord.of(
              registry,
              MAIN,
              ScenarioRows.columns(intended),
              ScenarioRows.intendedPayload(intended));
      routerCommitAtInjection = commitId();
      poisonAt = produce(poison);
      progress.accept(
          "  poison at "
              + MAIN
              + "-"
              + poisonAt.partition()
              + "@"
              + poisonAt.offset()
              + " ("
              + poison.value().length
              + " bytes, sha256 "
              + sha256(poison.value())
              + ")");
      Map<String, Object> fault = new LinkedHashMap<>();
      fault.put(
          "mechanism",
          "non-Avro payload: the intended row as JSON {\"intended_after\": {...},"
              + " \"intended_operation\": \"c\"} produced to the main topic, keyed by the Avro"
              + " primary key (registered <topic>-key schema), while capture was paused");
      fault.put("producer_metadata", ProducerMetadata.of(poisonAt));
      fault.put("connector_status_during_injection", statusDuringInjection);
      fault.put("payload_sha256", sha256(poison.value()));
      fault.put("payload_size_bytes", poison.value().length);
      fault.put("key_sha256", sha256(poison.key()));
      fault.put("key_schema_id", poison.keySchemaId());
      fault.put("intended_order_id", intended.orderId());
      fault.put("intended_event_id", intended.eventId());
      report.put("fault", fault);
    }

    private void quarantine() throws Exception {
      enter("quarantine", "waiting for the DLQ record and the router's commit past the poison");
      dlqRecord =
          BoundedWait.until(
              "the router writes a DLQ record for "
                  + MAIN
                  + "-"
                  + poisonAt.partition()
                  + "@"
                  + poisonAt.offset()
                  + " to "
                  + DLQ,
              STEP_TIMEOUT,
              () -> newDlqRecords().stream().filter(this::isOfPoison).findFirst().orElse(null),
              r -> r != null);
      TopicPartition poisonPartition = new TopicPartition(MAIN, poisonAt.partition());
      Long committed =
          BoundedWait.latest(
              STEP_TIMEOUT,
              () -> stack.routerCommitted().get(poisonPartition),
              offset -> offset != null && offset > poisonAt.offset());
      report.check(
          "checkpoint_advanced_after_poison", committed != null && committed > poisonAt.offset());

      List<ConsumerRecord<byte[], byte[]>> fresh = newDlqRecords();
      dlqRecordCount = fresh.size();
      long ofPoison = fresh.stream().filter(this::isOfPoison).count();
      report.check("exactly_one_dlq_record", ofPoison == 1 && fresh.size() == 1);

      DlqEnvelope envelope = DlqEnvelope.fromJson(dlqRecord.value());
      report.check(
          "poison_was_non_avro",
          !WireFormat.hasHeader(poison.value())
              && "NOT_AVRO_WIRE_FORMAT".equals(envelope.errorCode()));
      report.check("dlq_has_error_metadata", hasErrorMetadata(envelope));
      report.check(
          "dlq_preserved_original_value",
          Arrays.equals(envelope.originalValue(), poison.value())
              && Arrays.equals(envelope.originalKey(), poison.key())
              && sha256(poison.value()).equals(envelope.originalValueSha256()));
      String health = router.health();
      long replacements = router.threadReplacements();
      report.check(
          "main_job_survived_poison",
          health.equals("RUNNING") && replacements == threadReplacementsBefore);
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
              + poisonAt.partition()
              + " "
              + committed);
      report.put("quarantine", quarantineSection("quarantined", health, replacements));
    }

    private void repair() throws Exception {
      Map<String, Object> recovery = new LinkedHashMap<>();
      if (settings.skipRepair()) {
        enter("repair", "SKIPPED (--skip-repair): the DLQ record stays unrepaired");
        recovery.put("mode", "skipped");
        recovery.put("repair_producer_metadata", null);
      } else {
        enter("repair", "repairing the DLQ record with " + IntendedRowPlanner.STRATEGY);
        RepairStep step =
            new RepairStep(endpoints.bootstrapServers(), endpoints.schemaRegistryUrl(), DLQ);
        LedgerEntry done = step.repair(dlqRecord, progress);
        ConsumerRecord<byte[], byte[]> repaired = recordAt(done);
        boolean registered =
            repaired != null
                && WireFormat.hasHeader(repaired.value())
                && registry.isIdInSubject(MAIN + "-value", WireFormat.schemaId(repaired.value()))
                && Arrays.equals(repaired.key(), poison.key())
                && repaired.partition() == poisonAt.partition();
        report.check("repair_replayed_with_registered_avro", registered);
        recovery.put("mode", "repair --strategy " + IntendedRowPlanner.STRATEGY);
        recovery.put("repair_producer_metadata", repairMetadata(step, done, repaired));
        @SuppressWarnings("unchecked")
        Map<String, Object> quarantine = (Map<String, Object>) report.get("quarantine");
        quarantine.put("state", "repaired");
      }
      progress.accept(
          "  waiting (at most "
              + settings.repairWait().toSeconds()
              + " s) for the current table to equal the source while capture is paused");
      ReconcileResult before =
          BoundedWait.latest(
              settings.repairWait(), lakeState::reconcile, ReconcileResult::converged);
      String captureState = capture.state();
      boolean converged = before != null && before.converged() && captureState.equals("PAUSED");
      report.check("repair_converged_before_connector_resume", converged);
      recovery.put(
          "reconciliation_before_connector_resume",
          before == null ? null : ReconciliationReport.of(before));
      recovery.put("capture_state_at_reconciliation", captureState);
      progress.accept(
          "  before resume: "
              + (before == null ? "no reconciliation" : before.diffCount() + " differing rows")
              + ", capture "
              + captureState);
      report.put("recovery", recovery);
      report.put("repair_offset_checkpoint_snapshot_linkage", stack.linkage());
    }

    @SuppressWarnings("unchecked")
    private void resume() throws Exception {
      enter("resume", "resuming capture and inserting one more row");
      capture.resume();
      String state = BoundedWait.latest(STEP_TIMEOUT, capture::state, "RUNNING"::equals);
      report.check("connector_resumed", "RUNNING".equals(state));
      ((Map<String, Object>) report.get("recovery"))
          .put("connector_status_after_resume", capture.status());
      OrderRow next = nextRow();
      try (Connection c = connect()) {
        ScenarioRows.insert(c, next);
      }

      enter("final", "waiting for the lake to catch up, then reconciling and auditing event ids");
      long intendedCopies = settings.skipRepair() ? 1 : 2;
      long intendedId = intendedRow().eventId();
      Final last =
          BoundedWait.latest(
              settings.waitTimeout(),
              () -> new Final(lakeState.reconcile(), lakeState.audit()),
              f ->
                  f.reconcile().converged()
                      && f.audit().consistent()
                      && f.audit().changelogEventIds().getOrDefault(intendedId, 0L)
                          >= intendedCopies);
      if (last == null) {
        throw new ScenarioFailure("the final reconciliation could not read the source or Iceberg");
      }
      List<Long> current = lakeState.eventIds(EmbeddedStack.CURRENT_TABLE);
      boolean flowed =
          current.contains(next.eventId())
              && last.audit().changelogEventIds().containsKey(next.eventId())
              && commitId() > routerCommitAtInjection + 1;
      report.check("post_poison_event_flow_continued", flowed);
      report.put("offset_checkpoint_snapshot_linkage", stack.linkage());
      report.put("reconciliation", ReconciliationReport.of(last.reconcile()));
      report.put("snapshot_diff_count", last.reconcile().diffCount());
      report.put("event_id_audit", last.audit().toReport());
      report.check("final_snapshot_diff_zero", last.reconcile().converged());
      report.check("final_event_id_audit_consistent", last.audit().consistent());
      progress.accept(
          "  final: "
              + last.reconcile().diffCount()
              + " differing rows, "
              + last.audit().changelogRowCount()
              + " changelog rows, "
              + last.audit().duplicateOccurrenceCount()
              + " duplicate event(s)");
    }

    private void awaitConverged(String what) {
      BoundedWait.until(what, settings.waitTimeout(), lakeState::reconcile, r -> r.converged());
    }

    private long commitId() {
      return stack.routerCommitId();
    }

    private RecordMetadata produce(PoisonRecord record)
        throws InterruptedException, ExecutionException {
      Map<String, Object> config =
          Map.of(
              ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
              endpoints.bootstrapServers(),
              ProducerConfig.CLIENT_ID_CONFIG,
              "sluice-verify-poison",
              ProducerConfig.ACKS_CONFIG,
              "all",
              ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
              true);
      try (KafkaProducer<byte[], byte[]> producer =
          new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer())) {
        return producer.send(new ProducerRecord<>(MAIN, record.key(), record.value())).get();
      }
    }

    private List<ConsumerRecord<byte[], byte[]>> newDlqRecords() {
      return TopicReader.readCommitted(endpoints.bootstrapServers(), DLQ).stream()
          .filter(r -> !dlqBefore.contains(r.partition() + "@" + r.offset()))
          .toList();
    }

    private boolean isOfPoison(ConsumerRecord<byte[], byte[]> record) {
      try {
        DlqEnvelope e = DlqEnvelope.fromJson(record.value());
        return e.originalTopic().equals(MAIN)
            && e.originalPartition() == poisonAt.partition()
            && e.originalOffset() == poisonAt.offset();
      } catch (RuntimeException e) {
        return false;
      }
    }

    private boolean hasErrorMetadata(DlqEnvelope e) {
      Set<String> headers = new HashSet<>();
      for (Header h : dlqRecord.headers()) {
        headers.add(h.key());
      }
      return e.dlqSchemaVersion() == DlqEnvelope.VERSION
          && e.quarantinedAt() != null
          && notBlank(e.errorType())
          && notBlank(e.errorMessage())
          && notBlank(e.errorCode())
          && e.originalTimestampMs() == poisonAt.timestamp()
          && headers.containsAll(
              List.of(
                  DlqHeaders.ERRORS_TOPIC,
                  DlqHeaders.ERRORS_PARTITION,
                  DlqHeaders.ERRORS_OFFSET,
                  DlqHeaders.ERRORS_EXCEPTION,
                  DlqHeaders.ERRORS_MESSAGE,
                  DlqHeaders.ERROR_CODE));
    }

    private Map<String, Object> quarantineSection(
        String state, String routerHealth, long replacements) {
      Map<String, Object> record = new LinkedHashMap<>();
      record.put("topic", dlqRecord.topic());
      record.put("partition", dlqRecord.partition());
      record.put("offset", dlqRecord.offset());
      record.put("timestamp_ms", dlqRecord.timestamp());
      record.put(
          "key_base64",
          dlqRecord.key() == null ? null : Base64.getEncoder().encodeToString(dlqRecord.key()));
      record.put("value_base64", Base64.getEncoder().encodeToString(dlqRecord.value()));
      // The envelope without the payload it carries (that is in value_base64 above).
      ObjectNode metadata = envelopeJson();
      metadata.remove("original_key_base64");
      metadata.remove("original_value_base64");
      ObjectNode headers = metadata.putObject("dlq_headers");
      for (Header h : dlqRecord.headers()) {
        headers.put(
            h.key(), h.value() == null ? null : new String(h.value(), StandardCharsets.UTF_8));
      }
      Map<String, Object> quarantine = new LinkedHashMap<>();
      quarantine.put("dlq_kafka_record", record);
      quarantine.put("error_metadata", metadata);
      quarantine.put("state", state);
      quarantine.put("router_health_after_poison", routerHealth);
      quarantine.put("router_thread_replacements", replacements - threadReplacementsBefore);
      return quarantine;
    }

    private ObjectNode envelopeJson() {
      try {
        return (ObjectNode) JSON.readTree(dlqRecord.value());
      } catch (java.io.IOException | ClassCastException e) {
        throw new ScenarioFailure("the DLQ record's value is not a JSON object", e);
      }
    }

    private ConsumerRecord<byte[], byte[]> recordAt(LedgerEntry done) {
      return TopicReader.readCommitted(endpoints.bootstrapServers(), done.produced().topic())
          .stream()
          .filter(
              r ->
                  r.partition() == done.produced().partition()
                      && r.offset() == done.produced().offset())
          .findFirst()
          .orElse(null);
    }

    private Map<String, Object> repairMetadata(
        RepairStep step, LedgerEntry done, ConsumerRecord<byte[], byte[]> repaired) {
      Map<String, Object> meta = new LinkedHashMap<>();
      meta.put("topic", done.produced().topic());
      meta.put("partition", done.produced().partition());
      meta.put("offset", done.produced().offset());
      meta.put("timestamp_ms", repaired == null ? null : repaired.timestamp());
      meta.put(
          "value_schema_id",
          repaired == null || !WireFormat.hasHeader(repaired.value())
              ? null
              : WireFormat.schemaId(repaired.value()));
      meta.put("value_sha256", done.valueSha256());
      meta.put("strategy", done.strategy());
      meta.put("ledger_topic", Ledger.topicFor(DLQ));
      meta.put("handled_at", done.handledAt().toString());
      meta.put("command", "sluice " + String.join(" ", step.arguments(dlqRecord)));
      return meta;
    }
  }

  /** What the final wait saw. */
  private record Final(ReconcileResult reconcile, EventIdAudit audit) {}

  private Connection connect() throws SQLException {
    return DriverManager.getConnection(
        endpoints.jdbcUrl(), endpoints.jdbcUser(), endpoints.jdbcPassword());
  }

  private static Set<String> coordinates(List<ConsumerRecord<byte[], byte[]>> records) {
    Set<String> at = new HashSet<>();
    records.forEach(r -> at.add(r.partition() + "@" + r.offset()));
    return at;
  }

  private static boolean notBlank(String s) {
    return s != null && !s.isBlank();
  }

  static String sha256(byte[] bytes) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is not available", e);
    }
  }
}
