package io.sluice.lab.verify;

import io.sluice.tools.reconcile.ReconciliationReport;
import java.util.Map;

/**
 * What a scenario's run found: every section of the report that the scenario writes, that is all
 * but the run's own ({@link RunHeader}). Sections of steps the run did not reach are null.
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
    Summary summary) {

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
     * @param failure why a step failed; null when none did
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
          summary);
    }
  }
}
