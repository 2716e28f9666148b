package io.sluice.scenarios.sinkpoison;

import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.FOLLOWING_EVENT_IN_CHANGELOG;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.FOLLOWING_EVENT_IN_CURRENT;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.REPAIR_REPLAYED;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.ROUTER_SURVIVED;
import static io.sluice.scenarios.sinkpoison.SinkPoisonCheck.SINKS_RUNNING_AT_END;

import io.sluice.scenarios.Checks;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.Reader;
import io.sluice.scenarios.RunContext;
import io.sluice.scenarios.ScenarioEndpoints;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.StepChain;
import io.sluice.scenarios.VerifyScenario;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Final;
import io.sluice.scenarios.sinkpoison.SinkPoisonStep.Plan;
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
public final class SinkPoisonScenario implements VerifyScenario {
  public static final String FAILURE_CLASS = "sink-poison";

  /** The phase that reverts the schema, repairs and reconciles before capture resumes. */
  static final String REPAIR_PHASE = "repair";

  /** The row field the schema change retypes from long to string. */
  public static final String RETYPED_FIELD = "amount_cents";

  /**
   * How to run the scenario.
   *
   * @param waitTimeout bound of every wait for the lake to catch up
   * @param repairWait bound of the wait for convergence after the repair, before capture resumes
   * @param redactPayloads leave the quarantined record's key and value out of the report
   */
  public record Settings(
      int seed,
      long baselineRows,
      Duration waitTimeout,
      Duration repairWait,
      boolean redactPayloads) {
    public Settings {
      ScenarioStack.checkRunSize(seed, baselineRows);
    }
  }

  private final Settings settings;

  public SinkPoisonScenario(Settings settings) {
    this.settings = settings;
  }

  @Override
  public String failureClass() {
    return FAILURE_CLASS;
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
  public Findings run(ScenarioEndpoints endpoints, RunContext context) {
    StepChain<SinkPoisonStep, Plan> start =
        StepChain.start(FAILURE_CLASS, context.progress(), Plan.of(settings));
    StepChain<SinkPoisonStep, ? extends SinkPoisonStep> end =
        ScenarioStack.run(
            endpoints,
            context,
            start,
            stack ->
                steps(
                    start,
                    new SinkPoisonSteps(stack, settings, context.clock(), context.progress())));
    Findings.Builder<SinkPoisonCheck> report =
        Findings.builder(SinkPoisonCheck.class).reader(Reader.ICEBERG_GENERICS);
    end.reached().addTo(report);
    return summarise(report, end.phase(), end.failure().orElse(null));
  }

  @Override
  public Findings notRun(String phase, String reason) {
    return summarise(
        Findings.builder(SinkPoisonCheck.class), phase, new StepChain.Failure(phase, reason));
  }

  private StepChain<SinkPoisonStep, Final> steps(
      StepChain<SinkPoisonStep, Plan> start, SinkPoisonSteps steps) {
    return start
        .then(
            "baseline",
            "seeding " + settings.baselineRows() + " rows of seed " + settings.seed(),
            steps::versions)
        .then(steps::baseline)
        .then(
            "inject",
            "pausing capture, retyping " + RETYPED_FIELD + ", producing the retyped event",
            steps::inject)
        .then(
            "quarantine",
            "waiting for the DLQ record, the router's commit and the following event",
            steps::quarantine)
        .then(REPAIR_PHASE, "reverting the schema and repairing the intended row", steps::repair)
        .then("resume", "resuming capture", steps::resume)
        .then(
            StepChain.FINAL,
            "waiting for the lake to catch up, then reconciling and auditing event ids",
            steps::settle)
        .complete();
  }

  private static Findings summarise(
      Findings.Builder<SinkPoisonCheck> report, String phase, StepChain.Failure failure) {
    Checks<SinkPoisonCheck> checks = report.checks();
    return report.build(
        phase,
        failure,
        checks.holds(ROUTER_SURVIVED)
            && checks.holds(FOLLOWING_EVENT_IN_CURRENT)
            && checks.holds(FOLLOWING_EVENT_IN_CHANGELOG)
            && checks.holds(SINKS_RUNNING_AT_END),
        checks.holds(REPAIR_REPLAYED));
  }
}
