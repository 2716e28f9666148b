package io.sluice.scenarios;

import io.sluice.tools.reconcile.ReconciliationReport;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a scenario's run found: every section of the report that the scenario writes, that is all
 * but the run's own ({@link RunHeader}). Sections of steps the run did not reach are null.
 *
 * @param tableDrift by phase, in the order the run reached them: the tables that did not equal the
 *     source when the phase last read the lake (a wait that timed out, the final reading); no entry
 *     for a phase where every table was equal
 */
public record Findings(
    String phase,
    ReportSection scenario,
    StackVersions stackVersions,
    Reader reader,
    LinkageSnapshot baselineLinkage,
    LinkageSnapshot repairLinkage,
    LinkageSnapshot finalLinkage,
    ReportSection fault,
    ReportSection quarantine,
    ReportSection recovery,
    ReconciliationReport reconciliation,
    EventIdAuditReport eventIdAudit,
    Checks<?> checks,
    Summary summary,
    Map<String, List<TableDrift>> tableDrift) {

  /** The final reconciliation's diff count (the report's top-level {@code snapshot_diff_count}). */
  public Long snapshotDiffCount() {
    return reconciliation == null ? null : reconciliation.snapshotDiffCount();
  }

  public static <C extends Enum<C> & Check> Builder<C> builder(Class<C> checks) {
    return new Builder<>(Checks.none(checks));
  }

  /** A builder whose report holds only {@code checks}' own checks. */
  public static <C extends Enum<C> & Check> Builder<C> builder(Checks<C> checks) {
    return new Builder<>(checks);
  }

  /**
   * Collects the findings of a run once its steps have run: the last step reached adds what it and
   * the steps before it found, earliest first, so a later step's version of a section (the
   * quarantine once repaired) replaces an earlier one.
   */
  public static final class Builder<C extends Enum<C> & Check> {
    private Checks<C> checks;
    private ReportSection scenario;
    private StackVersions stackVersions;
    private Reader reader;
    private LinkageSnapshot baselineLinkage;
    private LinkageSnapshot repairLinkage;
    private LinkageSnapshot finalLinkage;
    private ReportSection fault;
    private ReportSection quarantine;
    private ReportSection recovery;
    private ReconciliationReport reconciliation;
    private EventIdAuditReport eventIdAudit;
    private long dlqRecordCount;
    private final Map<String, List<TableDrift>> tableDrift = new LinkedHashMap<>();

    private Builder(Checks<C> checks) {
      this.checks = checks;
    }

    public Builder<C> scenario(ReportSection scenario) {
      this.scenario = scenario;
      return this;
    }

    public Builder<C> stackVersions(StackVersions stackVersions) {
      this.stackVersions = stackVersions;
      return this;
    }

    public Builder<C> reader(Reader reader) {
      this.reader = reader;
      return this;
    }

    public Builder<C> baselineLinkage(LinkageSnapshot linkage) {
      this.baselineLinkage = linkage;
      return this;
    }

    public Builder<C> repairLinkage(LinkageSnapshot linkage) {
      this.repairLinkage = linkage;
      return this;
    }

    public Builder<C> finalLinkage(LinkageSnapshot linkage) {
      this.finalLinkage = linkage;
      return this;
    }

    public Builder<C> fault(ReportSection fault) {
      this.fault = fault;
      return this;
    }

    public Builder<C> quarantine(ReportSection quarantine) {
      this.quarantine = quarantine;
      return this;
    }

    public Builder<C> recovery(ReportSection recovery) {
      this.recovery = recovery;
      return this;
    }

    /** The final reconciliation; also the report's top-level {@code snapshot_diff_count}. */
    public Builder<C> reconciliation(ReconciliationReport reconciliation) {
      this.reconciliation = reconciliation;
      return this;
    }

    public Builder<C> eventIdAudit(EventIdAuditReport audit) {
      this.eventIdAudit = audit;
      return this;
    }

    /** The summary's {@code dlq_record_count}: new DLQ records the run saw (0 until counted). */
    public Builder<C> dlqRecordCount(long count) {
      this.dlqRecordCount = count;
      return this;
    }

    /**
     * Tables that drifted when {@code phase} last read the lake, after those known for it; an empty
     * list adds nothing.
     */
    public Builder<C> drift(String phase, List<TableDrift> tables) {
      if (!tables.isEmpty()) {
        tableDrift.computeIfAbsent(phase, p -> new ArrayList<>()).addAll(tables);
      }
      return this;
    }

    /** Outcomes a step proved, laid over those known so far. */
    public Builder<C> proved(Map<C, Boolean> outcomes) {
      this.checks = checks.with(outcomes);
      return this;
    }

    public Checks<C> checks() {
      return checks;
    }

    /**
     * The findings of a run that ended in {@code phase}.
     *
     * @param failure why a step failed, with the tables that drifted then; null when none did
     * @param mainPipelineContinued the summary's figure, as the scenario defines it
     * @param repairReplayed the summary's figure, as the scenario defines it
     */
    public Findings build(
        String phase,
        StepChain.Failure failure,
        boolean mainPipelineContinued,
        boolean repairReplayed) {
      Summary summary =
          new Summary(
              checks.allHold() && failure == null,
              dlqRecordCount,
              mainPipelineContinued,
              repairReplayed,
              reconciliation == null ? null : reconciliation.snapshotDiffCount(),
              failure == null ? null : failure.phase(),
              failure == null ? null : failure.reason());
      Map<String, List<TableDrift>> drift = new LinkedHashMap<>();
      tableDrift.forEach((reached, tables) -> drift.put(reached, new ArrayList<>(tables)));
      if (failure != null && !failure.drift().isEmpty()) {
        drift.computeIfAbsent(failure.phase(), p -> new ArrayList<>()).addAll(failure.drift());
      }
      drift.replaceAll((reached, tables) -> List.copyOf(tables));
      return new Findings(
          phase,
          scenario,
          stackVersions,
          reader,
          baselineLinkage,
          repairLinkage,
          finalLinkage,
          fault,
          quarantine,
          recovery,
          reconciliation,
          eventIdAudit,
          checks,
          summary,
          Collections.unmodifiableMap(drift));
    }
  }
}
