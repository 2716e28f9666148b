package io.sluice.scenarios.poison;

import static io.sluice.scenarios.poison.PoisonCheck.MAIN_JOB_SURVIVED_POISON;
import static io.sluice.scenarios.poison.PoisonCheck.POST_POISON_EVENT_FLOW_CONTINUED;
import static io.sluice.scenarios.poison.PoisonCheck.REPAIR_REPLAYED_WITH_REGISTERED_AVRO;

import io.sluice.scenarios.Checks;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.StepChain;
import io.sluice.scenarios.poison.PoisonStep.Plan;
import io.sluice.scenarios.step.QuarantineSteps;
import io.sluice.scenarios.step.RunSettings;
import io.sluice.scenarios.step.Step;
import io.sluice.scenarios.step.StepScenario;
import io.sluice.scenarios.step.Steps;
import io.sluice.tools.dlq.repair.IntendedRowPlanner;
import java.time.Duration;

/**
 * The poison-dlq scenario (docs/design.md#the-poison-dlq-scenario), the product's reference run,
 * against a running stack:
 *
 * <ol>
 *   <li>seed the baseline rows, wait until Iceberg equals the source, record the linkage;
 *   <li>pause capture, insert the intended row, inject its JSON (not Avro) keyed by the Avro
 *       primary key on the main topic;
 *   <li>check one DLQ record with error metadata and the original bytes, the router still running
 *       and its committed offsets past the poison;
 *   <li>repair it ({@code sluice dlq repair --strategy json-intended-row}) and reconcile before
 *       capture resumes;
 *   <li>resume capture (it re-emits the intended row), insert one more row, reconcile and audit the
 *       event ids.
 * </ol>
 *
 * Each step ({@link PoisonSteps}, and {@link Steps} for the baseline and the final reading) takes
 * the previous step's result ({@link PoisonStep}) and returns its own; the report is built from the
 * last one reached. Every wait is bounded. A step that cannot go on (something did not happen in
 * time) ends the run with its reason in the report; the checks of the steps not completed stay
 * false.
 */
public final class PoisonDlqScenario extends StepScenario<PoisonCheck, Plan> {
  public static final String FAILURE_CLASS = "poison-dlq";

  /**
   * How to run the scenario.
   *
   * @param run the seed, the baseline rows and the bound of every wait for the lake
   * @param repairWait bound of the wait for convergence after the repair, before capture resumes
   * @param skipRepair leave the DLQ record unrepaired (shows the checks can fail)
   * @param redactPayloads leave the quarantined record's key and value out of the report
   */
  public record Settings(
      RunSettings run, Duration repairWait, boolean skipRepair, boolean redactPayloads) {}

  private final Settings settings;

  public PoisonDlqScenario(Settings settings) {
    super(FAILURE_CLASS, Checks.none(PoisonCheck.class), settings.run(), Plan.of(settings));
    this.settings = settings;
  }

  @Override
  public String claimBoundary(String stack) {
    return "One poison-dlq run on "
        + stack
        + ": one non-Avro record on "
        + ScenarioStack.MAIN_TOPIC
        + " is quarantined once, repaired and replayed, and the Iceberg current table then"
        + " equals the source; no claim about throughput, crash recovery or other failure"
        + " classes.";
  }

  @Override
  protected StepChain<Step<PoisonCheck>, ? extends Step<PoisonCheck>> steps(
      StepChain<Step<PoisonCheck>, Plan> start, Steps<PoisonCheck> shared) {
    PoisonSteps steps = new PoisonSteps(shared, plan());
    return shared
        .enterBaseline(start)
        .then(shared::baseline)
        .then(
            "inject",
            "pausing capture, inserting the intended row, injecting the poison",
            steps::inject)
        .then(
            "quarantine",
            "waiting for the DLQ record and the router's commit past the poison",
            steps::quarantine)
        .then(
            QuarantineSteps.REPAIR_PHASE,
            settings.skipRepair()
                ? "SKIPPED (--skip-repair): the DLQ record stays unrepaired"
                : "repairing the DLQ record with " + IntendedRowPlanner.STRATEGY,
            steps::repair)
        .then("resume", "resuming capture and inserting one more row", steps::resume)
        .then(
            StepChain.FINAL,
            "waiting for the lake to catch up, then reconciling and auditing event ids",
            steps::settle)
        .complete();
  }

  @Override
  protected boolean mainPipelineContinued(Checks<PoisonCheck> checks) {
    return checks.holds(MAIN_JOB_SURVIVED_POISON) && checks.holds(POST_POISON_EVENT_FLOW_CONTINUED);
  }

  @Override
  protected boolean repairReplayed(Checks<PoisonCheck> checks) {
    return checks.holds(REPAIR_REPLAYED_WITH_REGISTERED_AVRO);
  }
}
