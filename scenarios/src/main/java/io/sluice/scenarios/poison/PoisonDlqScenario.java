package io.sluice.scenarios.poison;

import static io.sluice.scenarios.poison.PoisonCheck.MAIN_JOB_SURVIVED_POISON;
import static io.sluice.scenarios.poison.PoisonCheck.POST_POISON_EVENT_FLOW_CONTINUED;
import static io.sluice.scenarios.poison.PoisonCheck.REPAIR_REPLAYED_WITH_REGISTERED_AVRO;

import io.sluice.scenarios.Checks;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.Reader;
import io.sluice.scenarios.RunContext;
import io.sluice.scenarios.ScenarioEndpoints;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.StepChain;
import io.sluice.scenarios.VerifyScenario;
import io.sluice.scenarios.poison.PoisonStep.Final;
import io.sluice.scenarios.poison.PoisonStep.Plan;
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
 * Each step ({@link PoisonSteps}) takes the previous step's result ({@link PoisonStep}) and returns
 * its own; the report is built from the last one reached. Every wait is bounded. A step that cannot
 * go on (something did not happen in time) ends the run with its reason in the report; the checks
 * of the steps not completed stay false.
 */
public final class PoisonDlqScenario implements VerifyScenario {
  public static final String FAILURE_CLASS = "poison-dlq";

  /** The phase that repairs the DLQ record and reconciles before capture resumes. */
  static final String REPAIR_PHASE = "repair";

  /**
   * How to run the scenario.
   *
   * @param waitTimeout bound of every wait for the lake to catch up
   * @param repairWait bound of the wait for convergence after the repair, before capture resumes
   * @param skipRepair leave the DLQ record unrepaired (shows the checks can fail)
   * @param redactPayloads leave the quarantined record's key and value out of the report
   */
  public record Settings(
      int seed,
      long baselineRows,
      Duration waitTimeout,
      Duration repairWait,
      boolean skipRepair,
      boolean redactPayloads) {
    public Settings {
      ScenarioStack.checkRunSize(seed, baselineRows);
    }
  }

  private final Settings settings;

  public PoisonDlqScenario(Settings settings) {
    this.settings = settings;
  }

  @Override
  public String failureClass() {
    return FAILURE_CLASS;
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
  public Findings run(ScenarioEndpoints endpoints, RunContext context) {
    StepChain<PoisonStep, Plan> start =
        StepChain.start(FAILURE_CLASS, context.progress(), Plan.of(settings));
    StepChain<PoisonStep, ? extends PoisonStep> end =
        ScenarioStack.run(
            endpoints,
            context,
            start,
            stack -> steps(start, new PoisonSteps(stack, settings, context.progress())));
    Findings.Builder<PoisonCheck> report =
        Findings.builder(PoisonCheck.class).reader(Reader.ICEBERG_GENERICS);
    end.reached().addTo(report);
    return summarise(report, end.phase(), end.failure().orElse(null));
  }

  @Override
  public Findings notRun(String phase, String reason) {
    return summarise(
        Findings.builder(PoisonCheck.class), phase, new StepChain.Failure(phase, reason));
  }

  private StepChain<PoisonStep, Final> steps(StepChain<PoisonStep, Plan> start, PoisonSteps steps) {
    return start
        .then(
            "baseline",
            "seeding " + settings.baselineRows() + " rows of seed " + settings.seed(),
            steps::versions)
        .then(steps::baseline)
        .then(
            "inject",
            "pausing capture, inserting the intended row, injecting the poison",
            steps::inject)
        .then(
            "quarantine",
            "waiting for the DLQ record and the router's commit past the poison",
            steps::quarantine)
        .then(
            REPAIR_PHASE,
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

  private static Findings summarise(
      Findings.Builder<PoisonCheck> report, String phase, StepChain.Failure failure) {
    Checks<PoisonCheck> checks = report.checks();
    return report.build(
        phase,
        failure,
        checks.holds(MAIN_JOB_SURVIVED_POISON) && checks.holds(POST_POISON_EVENT_FLOW_CONTINUED),
        checks.holds(REPAIR_REPLAYED_WITH_REGISTERED_AVRO));
  }
}
