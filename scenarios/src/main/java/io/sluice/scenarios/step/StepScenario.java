package io.sluice.scenarios.step;

import io.sluice.scenarios.Check;
import io.sluice.scenarios.Checks;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.Reader;
import io.sluice.scenarios.RunContext;
import io.sluice.scenarios.ScenarioEndpoints;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.StepChain;
import io.sluice.scenarios.VerifyScenario;

/**
 * A scenario run as a chain of steps ({@link StepChain}) on the stack, each step's result a {@link
 * Step} of the scenario's checks: the last step reached writes the findings, the steps not reached
 * leave their checks false. A scenario names its plan, its steps and what its summary counts as the
 * main pipeline continuing and the repair replaying; opening the stack, reading the findings and a
 * run that never started are here.
 *
 * @param <C> the scenario's enum of checks
 * @param <P> the scenario's plan: its first step, what the run was asked to do
 */
public abstract class StepScenario<C extends Enum<C> & Check, P extends Step<C>>
    implements VerifyScenario {
  private final String failureClass;
  private final Checks<C> checks;
  private final RunSettings run;
  private final P plan;

  /**
   * @param failureClass the {@code --failure} name
   * @param checks the checks the report holds, none proved yet
   * @param run what the run is asked: its seed, baseline and bound of every wait for the lake
   * @param plan the first step; it writes the report's {@code scenario}
   */
  protected StepScenario(String failureClass, Checks<C> checks, RunSettings run, P plan) {
    this.failureClass = failureClass;
    this.checks = checks;
    this.run = run;
    this.plan = plan;
  }

  @Override
  public final String failureClass() {
    return failureClass;
  }

  /** The first step: what the run was asked to do. */
  protected final P plan() {
    return plan;
  }

  /**
   * The run's steps, from {@code start} (at the {@link #plan}) to {@link StepChain#complete}: the
   * scenario's own, and those every scenario takes ({@code shared}, which also holds the opened
   * stack and the run).
   */
  protected abstract StepChain<Step<C>, ? extends Step<C>> steps(
      StepChain<Step<C>, P> start, Steps<C> shared);

  /** The summary's {@code main_pipeline_continued}, as the scenario defines it. */
  protected abstract boolean mainPipelineContinued(Checks<C> checks);

  /** The summary's {@code repair_replayed}: false unless the scenario repairs. */
  protected boolean repairReplayed(Checks<C> checks) {
    return false;
  }

  @Override
  public final Findings run(ScenarioEndpoints endpoints, RunContext context) {
    StepChain<Step<C>, P> start = StepChain.start(failureClass, context.progress(), plan);
    StepChain<Step<C>, ? extends Step<C>> end = open(endpoints, context, start);
    Findings.Builder<C> report = Findings.builder(checks).reader(Reader.ICEBERG_GENERICS);
    end.reached().addTo(report);
    return summarise(report, end.phase(), end.failure().orElse(null));
  }

  /**
   * Opens the stack at {@code endpoints}, runs the {@link #steps} on it and closes it; a scenario
   * that needs more of the endpoints than the stack checks them first.
   */
  protected StepChain<Step<C>, ? extends Step<C>> open(
      ScenarioEndpoints endpoints, RunContext context, StepChain<Step<C>, P> start) {
    return ScenarioStack.run(
        endpoints, context, start, stack -> steps(start, new Steps<>(stack, run, context)));
  }

  @Override
  public final Findings notRun(String phase, String reason) {
    return summarise(Findings.builder(checks), phase, new StepChain.Failure(phase, reason));
  }

  private Findings summarise(Findings.Builder<C> report, String phase, StepChain.Failure failure) {
    Checks<C> proved = report.checks();
    return report.build(phase, failure, mainPipelineContinued(proved), repairReplayed(proved));
  }
}
