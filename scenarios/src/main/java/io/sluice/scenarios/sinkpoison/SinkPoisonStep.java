package io.sluice.scenarios.sinkpoison;

import io.sluice.scenarios.ChangeEvent;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.ProducerMetadata;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.FaultSection;
import io.sluice.scenarios.sinkpoison.SinkPoisonSections.ScenarioSection;
import io.sluice.scenarios.step.Baseline;
import io.sluice.scenarios.step.Sections.ScenarioKeys;
import io.sluice.scenarios.step.Sections.Topics;
import io.sluice.scenarios.step.Step;
import io.sluice.schema.registry.RegisteredSchema;
import io.sluice.stack.StackLayout;
import io.sluice.stack.workload.OrderRow;
import java.util.List;
import java.util.Map;

/**
 * What the sink-poison scenario's own steps found ({@link SinkPoisonSteps} runs them): the plan and
 * the injection of the retyped event. Its baseline and final step are every scenario's ({@link
 * Baseline}, {@link io.sluice.scenarios.step.Final}); its quarantine, repair and resumption those
 * of every scenario that injects one record ({@link io.sluice.scenarios.step.Quarantine}, {@link
 * io.sluice.scenarios.step.Repair}, {@link io.sluice.scenarios.step.Resumption}).
 */
sealed interface SinkPoisonStep extends Step<SinkPoisonCheck> {

  /** Before the first step: the settings, and the two rows the run adds after its baseline. */
  record Plan(SinkPoisonScenario.Settings settings, OrderRow intended, OrderRow following)
      implements SinkPoisonStep {

    static Plan of(SinkPoisonScenario.Settings settings) {
      return new Plan(
          settings, settings.run().rowAfterBaseline(1), settings.run().rowAfterBaseline(2));
    }

    @Override
    public void addTo(Findings.Builder<SinkPoisonCheck> report) {
      report.scenario(
          new ScenarioSection(
              ScenarioKeys.of(settings.run(), Topics.withRepairLedger()),
              List.of(StackLayout.DEFAULT.upsertSink(), StackLayout.DEFAULT.changelogSink()),
              SinkPoisonScenario.RETYPED_FIELD,
              intended.orderId(),
              following.orderId()));
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
      Baseline<SinkPoisonCheck> baseline,
      RegisteredSchema accepted,
      ChangeEvent retyped,
      ProducerMetadata retypedAt,
      ProducerMetadata followingAt,
      long threadReplacementsBefore,
      FaultSection fault,
      Map<SinkPoisonCheck, Boolean> proved)
      implements SinkPoisonStep {
    @Override
    public void addTo(Findings.Builder<SinkPoisonCheck> report) {
      baseline.addTo(report);
      report.fault(fault).proved(proved);
    }
  }
}
