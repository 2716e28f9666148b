package io.sluice.scenarios.poison;

import io.sluice.scenarios.Findings;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.poison.PoisonSections.FaultSection;
import io.sluice.scenarios.poison.PoisonSections.ScenarioSection;
import io.sluice.scenarios.step.Baseline;
import io.sluice.scenarios.step.Sections.ScenarioKeys;
import io.sluice.scenarios.step.Sections.Topics;
import io.sluice.scenarios.step.Step;
import io.sluice.stack.workload.OrderRow;

/**
 * What the poison-dlq scenario's own steps found ({@link PoisonSteps} runs them): the plan and the
 * injection of the poison. Its baseline and final step are every scenario's ({@link Baseline},
 * {@link io.sluice.scenarios.step.Final}); its quarantine, repair and resumption those of every
 * scenario that injects one record ({@link io.sluice.scenarios.step.Quarantine}, {@link
 * io.sluice.scenarios.step.Repair}, {@link io.sluice.scenarios.step.Resumption}).
 */
sealed interface PoisonStep extends Step<PoisonCheck> {

  /** Before the first step: the settings, and the two rows the run adds after its baseline. */
  record Plan(PoisonDlqScenario.Settings settings, OrderRow intended, OrderRow next)
      implements PoisonStep {

    static Plan of(PoisonDlqScenario.Settings settings) {
      return new Plan(
          settings, settings.run().rowAfterBaseline(1), settings.run().rowAfterBaseline(2));
    }

    @Override
    public void addTo(Findings.Builder<PoisonCheck> report) {
      report.scenario(
          new ScenarioSection(
              ScenarioKeys.of(settings.run(), Topics.withRepairLedger()),
              intended.orderId(),
              next.orderId(),
              settings.skipRepair()));
    }
  }

  /**
   * The poison is on the main topic, capture paused.
   *
   * @param threadReplacementsBefore the router's stream-thread replacements before the poison
   * @param routerCommitAtInjection the router's commit id before the poison
   */
  record Injection(
      Baseline<PoisonCheck> baseline,
      PoisonRecord poison,
      ProducerMetadata poisonAt,
      long threadReplacementsBefore,
      long routerCommitAtInjection,
      FaultSection fault)
      implements PoisonStep {
    @Override
    public void addTo(Findings.Builder<PoisonCheck> report) {
      baseline.addTo(report);
      report.fault(fault);
    }
  }
}
