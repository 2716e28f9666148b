package io.sluice.scenarios.fault;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.LinkageSnapshot;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.step.Baseline;
import io.sluice.scenarios.step.Sections.ScenarioKeys;
import io.sluice.scenarios.step.Sections.Topics;
import io.sluice.scenarios.step.Step;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.util.List;
import java.util.Map;

/**
 * What a process-fault class's own steps found ({@link FaultSteps}): the plan, then where the
 * workload starts, the faults and the recovery between the {@link Baseline} and the final step
 * every scenario takes.
 */
sealed interface FaultStep extends Step<FaultCheck> {

  record Plan(FaultClass faultClass, FaultScenario.Settings settings) implements FaultStep {
    @Override
    public void addTo(Findings.Builder<FaultCheck> report) {
      report.scenario(
          new FaultSections.ScenarioSection(
              ScenarioKeys.of(settings.run(), Topics.withoutRepairLedger()),
              faultClass.component(),
              settings.faults(),
              settings.rounds(),
              settings.rowsPerRound(),
              settings.roundPause().toMillis(),
              faultClass.poison() ? settings.poisonEvery() : null));
    }
  }

  /**
   * After the baseline, where the workload starts.
   *
   * @param mainEnd the main topic's end offsets when the workload started, per partition
   * @param cleanEnd the clean topic's end offsets then
   */
  record WorkloadStart(
      Baseline<FaultCheck> baseline, Map<Integer, Long> mainEnd, Map<Integer, Long> cleanEnd)
      implements FaultStep {
    @Override
    public void addTo(Findings.Builder<FaultCheck> report) {
      baseline.addTo(report);
    }
  }

  /**
   * After the faults, with the workload done.
   *
   * @param poison where each poison record the workload sent landed
   * @param lastEventId the event id of the workload's last change
   * @param fault the report's {@code fault}; scale-out's final step completes it
   */
  record Faulted(
      WorkloadStart start,
      List<FaultSections.Injection> injections,
      List<ProducerMetadata> poison,
      long lastEventId,
      long lastFaultEndedNanos,
      FaultSections.FaultSection fault,
      Map<FaultCheck, Boolean> proved)
      implements FaultStep {
    @Override
    public void addTo(Findings.Builder<FaultCheck> report) {
      start.addTo(report);
      report.fault(fault);
      report.proved(proved);
    }
  }

  /** Once the lake caught up after the faults. */
  record Recovered(
      Faulted faulted,
      ReconciliationReport afterRecovery,
      LinkageSnapshot linkage,
      JsonNode captureStatusAfter,
      long convergedAfterLastFaultMs)
      implements FaultStep {
    @Override
    public void addTo(Findings.Builder<FaultCheck> report) {
      faulted.addTo(report);
      report.repairLinkage(linkage);
      report.recovery(
          new FaultSections.RecoverySection(
              FaultSections.RecoverySection.MODE,
              null,
              afterRecovery,
              captureStatusAfter,
              convergedAfterLastFaultMs));
    }
  }
}
