package io.sluice.scenarios.sinkpoison;

import io.sluice.scenarios.EventIdAuditReport;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.LinkageSnapshot;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.StackVersions;
import io.sluice.scenarios.StepChain;
import io.sluice.scenarios.TableDrift;
import io.sluice.scenarios.poison.PoisonSections.Topics;
import io.sluice.scenarios.poison.ScenarioRows;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.FaultSection;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.QuarantineSection;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.RecoverySection;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.ScenarioSection;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.stack.EmbeddedStack;
import io.sluice.stack.workload.OrderRow;
import io.sluice.tools.dlq.ledger.Ledger;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What a step of the sink-poison scenario found, as it hands it to the next step ({@link
 * SinkPoisonSteps} runs them). Each holds the step before it, so the last step a run reached holds
 * the whole run, and {@link #addTo} writes it: the sections and checks of the steps before, then
 * its own. A step that failed hands nothing on; its checks stay false.
 */
sealed interface SinkPoisonStep {

  /** Adds what this step and every step before it found to {@code report}. */
  void addTo(Findings.Builder<SinkPoisonCheck> report);

  Plan plan();

  /** Before the first step: the settings, and the two rows the run adds after its baseline. */
  record Plan(SinkPoisonScenario.Settings settings, OrderRow intended, OrderRow following)
      implements SinkPoisonStep {

    static Plan of(SinkPoisonScenario.Settings settings) {
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
    public void addTo(Findings.Builder<SinkPoisonCheck> report) {
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
              List.of(EmbeddedStack.UPSERT_SINK, EmbeddedStack.CHANGELOG_SINK),
              SinkPoisonScenario.RETYPED_FIELD,
              intended.orderId(),
              following.orderId()));
    }
  }

  /** The versions of the stack, read first so that a run failing at its baseline has them. */
  record Versions(Plan plan, StackVersions stackVersions) implements SinkPoisonStep {
    @Override
    public void addTo(Findings.Builder<SinkPoisonCheck> report) {
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
      implements SinkPoisonStep {
    @Override
    public Plan plan() {
      return versions.plan();
    }

    @Override
    public void addTo(Findings.Builder<SinkPoisonCheck> report) {
      versions.addTo(report);
      report.baselineLinkage(linkage);
    }
  }

  /**
   * The retyped schema is registered and the retyped event and the following one are on the main
   * topic, capture paused.
   *
   * @param accepted the value schema the lake followed before the change
   * @param threadReplacementsBefore the router's stream-thread replacements before the event
   */
  record Injection(
      Baseline baseline,
      RegisteredSchema accepted,
      ChangeEvent retyped,
      ProducerMetadata retypedAt,
      ProducerMetadata followingAt,
      long threadReplacementsBefore,
      FaultSection fault,
      Map<SinkPoisonCheck, Boolean> proved)
      implements SinkPoisonStep {
    @Override
    public Plan plan() {
      return baseline.plan();
    }

    @Override
    public void addTo(Findings.Builder<SinkPoisonCheck> report) {
      baseline.addTo(report);
      report.fault(fault).proved(proved);
    }
  }

  /**
   * The retyped event was quarantined, and the following one reached both tables.
   *
   * @param dlqRecordCount DLQ records written since the baseline
   */
  record Quarantine(
      Injection injection,
      ConsumerRecord<byte[], byte[]> dlqRecord,
      long dlqRecordCount,
      QuarantineSection section,
      Map<SinkPoisonCheck, Boolean> proved)
      implements SinkPoisonStep {
    @Override
    public Plan plan() {
      return injection.plan();
    }

    @Override
    public void addTo(Findings.Builder<SinkPoisonCheck> report) {
      injection.addTo(report);
      report.quarantine(section).dlqRecordCount(dlqRecordCount).proved(proved);
    }
  }

  /**
   * The schema was reverted, the intended row repaired, and the lake reconciled while capture was
   * still paused.
   */
  record Repair(
      Quarantine quarantine,
      QuarantineSection section,
      RecoverySection recovery,
      LinkageSnapshot linkage,
      Map<SinkPoisonCheck, Boolean> proved,
      List<TableDrift> drift)
      implements SinkPoisonStep {
    @Override
    public Plan plan() {
      return quarantine.plan();
    }

    @Override
    public void addTo(Findings.Builder<SinkPoisonCheck> report) {
      quarantine.addTo(report);
      report
          .quarantine(section)
          .recovery(recovery)
          .repairLinkage(linkage)
          .drift(SinkPoisonScenario.REPAIR_PHASE, drift)
          .proved(proved);
    }
  }

  /** Capture runs again (it re-emits both rows). */
  record Resumption(Repair repair, RecoverySection recovery, Map<SinkPoisonCheck, Boolean> proved)
      implements SinkPoisonStep {
    @Override
    public Plan plan() {
      return repair.plan();
    }

    @Override
    public void addTo(Findings.Builder<SinkPoisonCheck> report) {
      repair.addTo(report);
      report.recovery(recovery).proved(proved);
    }
  }

  /** The lake caught up: the final reconciliation, event-id audit and sink status. */
  record Final(
      Resumption resumption,
      RecoverySection recovery,
      ReconciliationReport reconciliation,
      EventIdAuditReport audit,
      LinkageSnapshot linkage,
      Map<SinkPoisonCheck, Boolean> proved,
      List<TableDrift> drift)
      implements SinkPoisonStep {
    @Override
    public Plan plan() {
      return resumption.plan();
    }

    @Override
    public void addTo(Findings.Builder<SinkPoisonCheck> report) {
      resumption.addTo(report);
      report
          .recovery(recovery)
          .finalLinkage(linkage)
          .reconciliation(reconciliation)
          .eventIdAudit(audit)
          .drift(StepChain.FINAL, drift)
          .proved(proved);
    }
  }
}
