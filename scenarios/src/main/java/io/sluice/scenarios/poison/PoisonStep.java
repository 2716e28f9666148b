package io.sluice.scenarios.poison;

import io.sluice.scenarios.EventIdAuditReport;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.LinkageSnapshot;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.StackVersions;
import io.sluice.scenarios.StepChain;
import io.sluice.scenarios.TableDrift;
import io.sluice.scenarios.poison.PoisonSections.FaultSection;
import io.sluice.scenarios.poison.PoisonSections.QuarantineSection;
import io.sluice.scenarios.poison.PoisonSections.RecoverySection;
import io.sluice.scenarios.poison.PoisonSections.ScenarioSection;
import io.sluice.scenarios.poison.PoisonSections.Topics;
import io.sluice.stack.workload.OrderRow;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a step of the poison-dlq scenario found, as it hands it to the next step ({@link
 * PoisonSteps} runs them). Each holds the step before it, so the last step a run reached holds the
 * whole run, and {@link #addTo} writes it: the sections and checks of the steps before, then its
 * own. A step that failed hands nothing on; its checks stay false.
 */
sealed interface PoisonStep {

  /** Adds what this step and every step before it found to {@code report}. */
  void addTo(Findings.Builder<PoisonCheck> report);

  Plan plan();

  /** Before the first step: the settings, and the two rows the run adds after its baseline. */
  record Plan(PoisonDlqScenario.Settings settings, OrderRow intended, OrderRow next)
      implements PoisonStep {

    static Plan of(PoisonDlqScenario.Settings settings) {
      return new Plan(
          settings,
          ScenarioRows.row(settings.seed(), settings.baselineRows() + 1),
          ScenarioRows.row(settings.seed(), settings.baselineRows() + 2));
    }

    @Override
    public Plan plan() {
      return this;
    }

    @Override
    public void addTo(Findings.Builder<PoisonCheck> report) {
      String dlq = ScenarioStack.DLQ_TOPIC;
      report.scenario(
          new ScenarioSection(
              settings.seed(),
              ScenarioStack.ROUTER_GROUP,
              new Topics(
                  ScenarioStack.MAIN_TOPIC, ScenarioStack.CLEAN_TOPIC, dlq, Ledger.topicFor(dlq)),
              settings.baselineRows(),
              ScenarioStack.SOURCE_TABLE,
              ScenarioStack.ICEBERG_TABLES,
              intended.orderId(),
              next.orderId(),
              settings.skipRepair()));
    }
  }

  /** The versions of the stack, read first so that a run failing at its baseline has them. */
  record Versions(Plan plan, StackVersions stackVersions) implements PoisonStep {
    @Override
    public void addTo(Findings.Builder<PoisonCheck> report) {
      plan.addTo(report);
      report.stackVersions(stackVersions);
    }
  }

  /**
   * The baseline rows are in the lake.
   *
   * @param dlqBefore the DLQ records there before the run ({@code partition@offset})
   */
  record Baseline(Versions versions, Set<String> dlqBefore, LinkageSnapshot linkage)
      implements PoisonStep {
    @Override
    public Plan plan() {
      return versions.plan();
    }

    @Override
    public void addTo(Findings.Builder<PoisonCheck> report) {
      versions.addTo(report);
      report.baselineLinkage(linkage);
    }
  }

  /**
   * The poison is on the main topic, capture paused.
   *
   * @param threadReplacementsBefore the router's stream-thread replacements before the poison
   * @param routerCommitAtInjection the router's commit id before the poison
   */
  record Injection(
      Baseline baseline,
      PoisonRecord poison,
      ProducerMetadata poisonAt,
      long threadReplacementsBefore,
      long routerCommitAtInjection,
      FaultSection fault)
      implements PoisonStep {
    @Override
    public Plan plan() {
      return baseline.plan();
    }

    @Override
    public void addTo(Findings.Builder<PoisonCheck> report) {
      baseline.addTo(report);
      report.fault(fault);
    }
  }

  /**
   * The router quarantined the poison.
   *
   * @param dlqRecordCount DLQ records written since the baseline
   */
  record Quarantine(
      Injection injection,
      ConsumerRecord<byte[], byte[]> dlqRecord,
      long dlqRecordCount,
      QuarantineSection section,
      Map<PoisonCheck, Boolean> proved)
      implements PoisonStep {
    @Override
    public Plan plan() {
      return injection.plan();
    }

    @Override
    public void addTo(Findings.Builder<PoisonCheck> report) {
      injection.addTo(report);
      report.quarantine(section).dlqRecordCount(dlqRecordCount).proved(proved);
    }
  }

  /**
   * The DLQ record was repaired (or, with --skip-repair, left), and the lake reconciled while
   * capture was still paused.
   *
   * @param section the quarantine, now in state "repaired" unless the repair was skipped
   */
  record Repair(
      Quarantine quarantine,
      QuarantineSection section,
      RecoverySection recovery,
      LinkageSnapshot linkage,
      Map<PoisonCheck, Boolean> proved,
      List<TableDrift> drift)
      implements PoisonStep {
    @Override
    public Plan plan() {
      return quarantine.plan();
    }

    @Override
    public void addTo(Findings.Builder<PoisonCheck> report) {
      quarantine.addTo(report);
      report
          .quarantine(section)
          .recovery(recovery)
          .repairLinkage(linkage)
          .drift(PoisonDlqScenario.REPAIR_PHASE, drift)
          .proved(proved);
    }
  }

  /** Capture runs again, and the row after the intended one is in the source. */
  record Resumption(Repair repair, RecoverySection recovery, Map<PoisonCheck, Boolean> proved)
      implements PoisonStep {
    @Override
    public Plan plan() {
      return repair.plan();
    }

    Injection injection() {
      return repair.quarantine().injection();
    }

    @Override
    public void addTo(Findings.Builder<PoisonCheck> report) {
      repair.addTo(report);
      report.recovery(recovery).proved(proved);
    }
  }

  /** The lake caught up: the final reconciliation and event-id audit. */
  record Final(
      Resumption resumption,
      ReconciliationReport reconciliation,
      EventIdAuditReport audit,
      LinkageSnapshot linkage,
      Map<PoisonCheck, Boolean> proved,
      List<TableDrift> drift)
      implements PoisonStep {
    @Override
    public Plan plan() {
      return resumption.plan();
    }

    @Override
    public void addTo(Findings.Builder<PoisonCheck> report) {
      resumption.addTo(report);
      report
          .finalLinkage(linkage)
          .reconciliation(reconciliation)
          .eventIdAudit(audit)
          .drift(StepChain.FINAL, drift)
          .proved(proved);
    }
  }
}
