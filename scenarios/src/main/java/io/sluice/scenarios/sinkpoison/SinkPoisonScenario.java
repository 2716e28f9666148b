package io.sluice.scenarios.sinkpoison;

import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.FOLLOWING_EVENT_IN_CHANGELOG;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.FOLLOWING_EVENT_IN_CURRENT;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.REPAIR_REPLAYED;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.ROUTER_SURVIVED;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.SINKS_RUNNING_AT_END;

import io.sluice.scenarios.Checks;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.StepChain;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Plan;
import io.sluice.scenarios.step.QuarantineSteps;
import io.sluice.scenarios.step.RunSettings;
import io.sluice.scenarios.step.Step;
import io.sluice.scenarios.step.StepScenario;
import io.sluice.scenarios.step.Steps;
import java.time.Duration;

/**
 * The sink-poison scenario (docs/design.md#the-sink-poison-scenario) against a running stack: a
 * schema change the lake cannot follow must not stop the lake.
 *
 * <ol>
 *   <li>seed the baseline rows, wait until Iceberg equals the source, record the linkage;
 *   <li>pause capture, insert the intended and the following row; register a version of {@code
 *       <main>-value} whose {@value #RETYPED_FIELD} is a string, under NONE compatibility; produce
 *       the intended row's insert with it, then the following row's insert with the accepted
 *       version;
 *   <li>check one DLQ record, {@code SCHEMA_INCOMPATIBLE} from the router's lineage stage, naming
 *       the field and both types, with the original bytes; the router running and committed past
 *       it; both sinks RUNNING; the following event in the current and the changelog table;
 *   <li>revert the schema (a new version with the field long again), decode the intended row from
 *       the quarantined record and repair it ({@code sluice dlq repair --from-file}); reconcile
 *       before capture resumes;
 *   <li>resume capture (it re-emits both rows), reconcile, audit the event ids and check both sinks
 *       again.
 * </ol>
 */
public final class SinkPoisonScenario extends StepScenario<SinkPoisonCheck, Plan> {
  public static final String FAILURE_CLASS = "sink-poison";

  /** The row field the schema change retypes from long to string. */
  public static final String RETYPED_FIELD = "amount_cents";

  /**
   * How to run the scenario.
   *
   * @param run the seed, the baseline rows and the bound of every wait for the lake
   * @param repairWait bound of the wait for convergence after the repair, before capture resumes
   * @param redactPayloads leave the quarantined record's key and value out of the report
   */
  public record Settings(RunSettings run, Duration repairWait, boolean redactPayloads) {}

  public SinkPoisonScenario(Settings settings) {
    super(FAILURE_CLASS, Checks.none(SinkPoisonCheck.class), settings.run(), Plan.of(settings));
  }

  @Override
  public String claimBoundary(String stack) {
    return "One sink-poison run on "
        + stack
        + ": one change event of a value schema version that retypes "
        + RETYPED_FIELD
        + " long -> string on "
        + ScenarioStack.MAIN_TOPIC
        + " is quarantined once while both sinks keep running and the next event reaches both"
        + " tables; its intended row is repaired after the schema is reverted, and the current"
        + " table then equals the source; no claim about other schema changes, sink-side"
        + " quarantine, throughput or crash recovery.";
  }

  @Override
  protected StepChain<Step<SinkPoisonCheck>, ? extends Step<SinkPoisonCheck>> steps(
      StepChain<Step<SinkPoisonCheck>, Plan> start, Steps<SinkPoisonCheck> shared) {
    SinkPoisonSteps steps = new SinkPoisonSteps(shared, plan());
    return shared
        .enterBaseline(start)
        .then(shared::baseline)
        .then(
            "inject",
            "pausing capture, retyping " + RETYPED_FIELD + ", producing the retyped event",
            steps::inject)
        .then(
            "quarantine",
            "waiting for the DLQ record, the router's commit and the following event",
            steps::quarantine)
        .then(
            QuarantineSteps.REPAIR_PHASE,
            "reverting the schema and repairing the intended row",
            steps::repair)
        .then("resume", "resuming capture", steps::resume)
        .then(
            StepChain.FINAL,
            "waiting for the lake to catch up, then reconciling and auditing event ids",
            steps::settle)
        .complete();
  }

  @Override
  protected boolean mainPipelineContinued(Checks<SinkPoisonCheck> checks) {
    return checks.holds(ROUTER_SURVIVED)
        && checks.holds(FOLLOWING_EVENT_IN_CURRENT)
        && checks.holds(FOLLOWING_EVENT_IN_CHANGELOG)
        && checks.holds(SINKS_RUNNING_AT_END);
  }

  @Override
  protected boolean repairReplayed(Checks<SinkPoisonCheck> checks) {
    return checks.holds(REPAIR_REPLAYED);
  }
}
