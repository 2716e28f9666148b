package io.sluice.scenarios.step;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.dlq.DlqEnvelope;
import io.sluice.scenarios.BoundedWait;
import io.sluice.scenarios.CaptureAdmin;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.LinkageSnapshot;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioRows;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.TableDrift;
import io.sluice.scenarios.step.Sections.RepairProducerMetadata;
import io.sluice.schema.wire.WireFormat;
import io.sluice.stack.workload.OrderRow;
import io.sluice.tools.dlq.ledger.LedgerEntry;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.IntPredicate;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * The steps of a scenario that injects a record on the main topic while capture is paused, waits
 * for the router to quarantine it, repairs it as an operator would and reconciles before capture
 * resumes (poison-dlq, sink-poison): each is a part of one of the scenario's own steps, which
 * decides what the results prove. A part that cannot go on throws {@link ScenarioFailure}; every
 * wait is bounded.
 */
public final class QuarantineSteps {
  /** The phase that repairs the DLQ record and reconciles before capture resumes. */
  public static final String REPAIR_PHASE = "repair";

  /** Bound of a wait for what the stack does at once: capture pausing, a DLQ record, a commit. */
  private static final Duration STEP_TIMEOUT = Duration.ofSeconds(60);

  private final ScenarioStack stack;
  private final Consumer<String> progress;

  public QuarantineSteps(ScenarioStack stack, Consumer<String> progress) {
    this.stack = stack;
    this.progress = progress;
  }

  /**
   * Notes the router's stream-thread replacements, pauses capture, waits until it reports PAUSED
   * and inserts {@code rows} in the source: rows whose changes the scenario injects itself, which
   * capture sends only once resumed.
   */
  public Paused pauseCaptureAndInsert(List<OrderRow> rows) throws SQLException {
    long replacementsBefore = stack.router().threadReplacements();
    CaptureAdmin capture = stack.capture();
    capture.pause();
    BoundedWait.until("capture reports PAUSED", STEP_TIMEOUT, capture::state, "PAUSED"::equals);
    try (Connection c = stack.connect()) {
      for (OrderRow row : rows) {
        ScenarioRows.insert(c, row);
      }
    }
    return new Paused(replacementsBefore, capture.status());
  }

  /**
   * Waits for the DLQ record of the record injected at {@code at}.
   *
   * @param what what should happen, as a failure names it
   * @param dlqBefore the DLQ records there before the run
   */
  public ConsumerRecord<byte[], byte[]> awaitDlqRecord(
      String what, ProducerMetadata at, Set<String> dlqBefore) {
    return BoundedWait.until(
        what,
        STEP_TIMEOUT,
        () ->
            stack.dlqRecordsSince(dlqBefore).stream()
                .filter(r -> Quarantined.isOf(r, at))
                .findFirst()
                .orElse(null),
        r -> r != null);
  }

  /**
   * Waits until the router's group committed past the record at {@code at}.
   *
   * @return the last committed offset of its partition read (null: none), past it or not
   */
  public Long awaitRouterCommitPast(ProducerMetadata at) {
    TopicPartition partition = new TopicPartition(ScenarioStack.MAIN_TOPIC, at.partition());
    return BoundedWait.latest(
        STEP_TIMEOUT,
        () -> stack.routerCommitted().get(partition),
        offset -> offset != null && offset > at.offset());
  }

  /**
   * What the router did with the record at {@code at}, read now: the DLQ records since {@code
   * dlqBefore}, {@code dlqRecord}'s envelope, the router's health and thread replacements.
   *
   * @param committed what {@link #awaitRouterCommitPast} returned
   */
  public Quarantined quarantined(
      ConsumerRecord<byte[], byte[]> dlqRecord,
      ProducerMetadata at,
      Set<String> dlqBefore,
      Long committed) {
    List<ConsumerRecord<byte[], byte[]>> fresh = stack.dlqRecordsSince(dlqBefore);
    long ofInjected = fresh.stream().filter(r -> Quarantined.isOf(r, at)).count();
    DlqEnvelope envelope = DlqEnvelope.fromJson(dlqRecord.value());
    String health = stack.router().health();
    long replacements = stack.router().threadReplacements();
    return new Quarantined(
        at, dlqRecord, envelope, fresh.size(), ofInjected, committed, health, replacements);
  }

  /**
   * Repairs {@code dlqRecord} with {@code strategy} as an operator would ({@link DlqRepair}) and
   * reads the repaired record back.
   */
  public Repaired repair(ConsumerRecord<byte[], byte[]> dlqRecord, String strategy) {
    DlqRepair repair =
        new DlqRepair(
            stack.endpoints().bootstrapServers(),
            stack.endpoints().schemaRegistryUrl(),
            ScenarioStack.DLQ_TOPIC,
            strategy);
    LedgerEntry done = repair.repair(dlqRecord, progress);
    ConsumerRecord<byte[], byte[]> repaired = repair.readBack(done);
    return new Repaired(repaired, repair.metadata(dlqRecord, done, repaired));
  }

  /**
   * Waits (at most {@code repairWait}) until the current table equals the source while capture is
   * still paused: the repaired record alone must make the lake equal the source. Takes the linkage
   * after.
   */
  public BeforeResume reconcileBeforeResume(Duration repairWait) {
    progress.accept(
        "  waiting (at most "
            + repairWait.toSeconds()
            + " s) for the current table to equal the source while capture is paused");
    ReconcileResult before =
        BoundedWait.latest(repairWait, stack.lake()::reconcile, ReconcileResult::converged);
    String captureState = stack.capture().state();
    progress.accept(
        "  before resume: "
            + (before == null ? "no reconciliation" : before.diffCount() + " differing rows")
            + ", capture "
            + captureState);
    return new BeforeResume(before, captureState, stack.linkage(), stack.drifting(before));
  }

  /** Resumes capture and waits until it reports RUNNING. */
  public Resumed resumeCapture() {
    CaptureAdmin capture = stack.capture();
    capture.resume();
    String state = BoundedWait.latest(STEP_TIMEOUT, capture::state, "RUNNING"::equals);
    return new Resumed("RUNNING".equals(state), capture.status());
  }

  /**
   * The record a repair produced, as read back (null when it could not be), and the report's {@code
   * repair_producer_metadata} of it.
   */
  public record Repaired(ConsumerRecord<byte[], byte[]> record, RepairProducerMetadata metadata) {
    /**
     * The repaired record is registered Avro of a schema id {@code schema} accepts, keyed by {@code
     * key}, in {@code partition} (the injected record's).
     */
    public boolean replayed(byte[] key, int partition, IntPredicate schema) {
      return record != null
          && WireFormat.hasHeader(record.value())
          && schema.test(WireFormat.schemaId(record.value()))
          && Arrays.equals(record.key(), key)
          && record.partition() == partition;
    }
  }

  /**
   * The reconciliation while capture was still paused, after the repair.
   *
   * @param reconciliation the last reconciliation; null when none answered
   * @param captureState capture's state right after it
   * @param linkage where every stage stood then
   * @param drift the current table against the source, when they differed
   */
  public record BeforeResume(
      ReconcileResult reconciliation,
      String captureState,
      LinkageSnapshot linkage,
      List<TableDrift> drift) {

    /** The lake equalled the source while capture was still paused. */
    public boolean converged() {
      return reconciliation != null && reconciliation.converged() && captureState.equals("PAUSED");
    }

    /** The reconciliation as the report writes it; null when none answered. */
    public ReconciliationReport report() {
      return reconciliation == null ? null : ReconciliationReport.of(reconciliation);
    }

    /**
     * Adds the linkage after the repair and the drift of {@link #REPAIR_PHASE} to {@code report}.
     */
    public void addTo(Findings.Builder<?> report) {
      report.repairLinkage(linkage).drift(REPAIR_PHASE, drift);
    }
  }

  /**
   * Capture paused, the rows inserted.
   *
   * @param threadReplacementsBefore the router's stream-thread replacements before
   * @param captureStatus capture's status once the rows were inserted
   */
  public record Paused(long threadReplacementsBefore, JsonNode captureStatus) {}

  /**
   * Capture resumed.
   *
   * @param running capture reported RUNNING within the wait
   * @param status capture's status then
   */
  public record Resumed(boolean running, JsonNode status) {}
}
