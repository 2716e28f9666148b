package io.sluice.scenarios.fault;

import com.fasterxml.jackson.databind.JsonNode;
import io.sluice.dlq.Sha256;
import io.sluice.scenarios.EventIdAuditReport;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.LinkageSnapshot;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.StackVersions;
import io.sluice.scenarios.StepChain;
import io.sluice.scenarios.TableDrift;
import io.sluice.scenarios.poison.PoisonSections.QuarantineSection;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What a step of a process-fault class found, as it hands it to the next ({@link FaultSteps}). Each
 * holds the step before it, so the last step reached writes the whole run ({@link #addTo}).
 */
sealed interface FaultStep {
  void addTo(Findings.Builder<FaultCheck> report);

  Plan plan();

  record Plan(FaultClass faultClass, FaultScenario.Settings settings) implements FaultStep {
    @Override
    public Plan plan() {
      return this;
    }

    @Override
    public void addTo(Findings.Builder<FaultCheck> report) {
      report.scenario(
          new FaultSections.ScenarioSection(
              settings.seed(),
              ScenarioStack.ROUTER_GROUP,
              new FaultSections.Topics(
                  ScenarioStack.MAIN_TOPIC, ScenarioStack.CLEAN_TOPIC, ScenarioStack.DLQ_TOPIC),
              settings.baselineRows(),
              ScenarioStack.SOURCE_TABLE,
              ScenarioStack.ICEBERG_TABLES,
              faultClass.component(),
              settings.faults(),
              settings.rounds(),
              settings.rowsPerRound(),
              settings.roundPause().toMillis(),
              faultClass.poison() ? settings.poisonEvery() : null));
    }
  }

  record Versions(Plan plan, StackVersions versions) implements FaultStep {
    @Override
    public void addTo(Findings.Builder<FaultCheck> report) {
      plan.addTo(report);
      report.stackVersions(versions);
    }
  }

  /**
   * After the baseline.
   *
   * @param dlqBefore the DLQ records there before the run
   * @param mainEnd the main topic's end offsets when the workload started, per partition
   * @param cleanEnd the clean topic's end offsets then
   */
  record Baseline(
      Versions versions,
      Set<String> dlqBefore,
      LinkageSnapshot linkage,
      Map<Integer, Long> mainEnd,
      Map<Integer, Long> cleanEnd)
      implements FaultStep {
    @Override
    public Plan plan() {
      return versions.plan();
    }

    @Override
    public void addTo(Findings.Builder<FaultCheck> report) {
      versions.addTo(report);
      report.baselineLinkage(linkage);
    }
  }

  /** After the faults, with the workload done. */
  record Faulted(
      Baseline baseline,
      List<FaultSections.Injection> injections,
      List<ProducerMetadata> poison,
      JsonNode captureStatusDuringInjection,
      long lastEventId,
      long lastFaultEndedNanos,
      Map<FaultCheck, Boolean> proved)
      implements FaultStep {
    @Override
    public Plan plan() {
      return baseline.plan();
    }

    @Override
    public void addTo(Findings.Builder<FaultCheck> report) {
      baseline.addTo(report);
      report.fault(section());
      report.proved(proved);
    }

    FaultSections.FaultSection section() {
      FaultClass c = plan().faultClass();
      return new FaultSections.FaultSection(
          c.mechanism(),
          poison.isEmpty() ? null : poison.get(0),
          captureStatusDuringInjection,
          poison.isEmpty() ? null : Sha256.hex(SteadyWorkload.poisonValue(firstPoisonRound())),
          c.component(),
          injections,
          poison,
          null);
    }

    private int firstPoisonRound() {
      return plan().settings().poisonEvery();
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
    public Plan plan() {
      return faulted.plan();
    }

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

  record Final(
      Recovered recovered,
      ReconciliationReport reconciliation,
      EventIdAuditReport audit,
      LinkageSnapshot linkage,
      QuarantineSection quarantine,
      long dlqRecordCount,
      FaultSections.ScaleOutSection scaleOut,
      Map<FaultCheck, Boolean> proved,
      List<TableDrift> drift)
      implements FaultStep {
    @Override
    public Plan plan() {
      return recovered.plan();
    }

    @Override
    public void addTo(Findings.Builder<FaultCheck> report) {
      recovered.addTo(report);
      if (scaleOut != null) {
        report.fault(recovered.faulted().section().withScaleOut(scaleOut));
      }
      report
          .finalLinkage(linkage)
          .reconciliation(reconciliation)
          .eventIdAudit(audit)
          .quarantine(quarantine)
          .dlqRecordCount(dlqRecordCount)
          .drift(StepChain.FINAL, drift)
          .proved(proved);
    }
  }
}
