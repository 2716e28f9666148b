package io.sluice.scenarios.fault;

import static io.sluice.scenarios.fault.FaultCheck.POST_FAULT_EVENT_FLOW_CONTINUED;

import io.sluice.scenarios.Checks;
import io.sluice.scenarios.RunContext;
import io.sluice.scenarios.ScenarioEndpoints;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.StepChain;
import io.sluice.scenarios.step.RunSettings;
import io.sluice.scenarios.step.Step;
import io.sluice.scenarios.step.StepScenario;
import io.sluice.scenarios.step.Steps;
import io.sluice.stack.ProcessScale;
import io.sluice.stack.control.StackControlClient;
import java.time.Duration;
import java.util.Locale;

/**
 * A failure class that faults one process of the process stack ({@code sluice up --processes})
 * under a steady workload, and proves the lake equals the source afterwards:
 *
 * <ol>
 *   <li>seed the baseline rows, wait until every table reached the lake, record the linkage;
 *   <li>start the workload ({@link SteadyWorkload}: rounds of inserts, updates and deletes, poison
 *       records mixed in for router-crash) and fault the component {@code faults} times while it
 *       runs, each time through the supervisor's control API ({@link FaultClass});
 *   <li>once the workload ended, wait until the lake caught up; record the linkage after recovery;
 *   <li>reconcile every table, audit the event ids, check the class's own checks; final linkage.
 * </ol>
 */
public final class FaultScenario extends StepScenario<FaultCheck, FaultStep.Plan> {
  /**
   * How to run it.
   *
   * @param run the seed (at most {@link SteadyWorkload#MAX_SEED}), the baseline rows and the bound
   *     of every wait for the lake
   * @param faults how often the component is faulted
   * @param rounds the workload's rounds; the faults fall between them, evenly spread
   * @param rowsPerRound rows each round inserts (a third updated, a fifth deleted)
   * @param roundPause the pause between two rounds (the load's pace)
   * @param poisonEvery router-crash: one poison record after every this many rounds
   * @param downRounds SIGKILL classes: rounds the workload runs while the component is down
   * @param outage registry-outage: how long the registry stays down
   */
  public record Settings(
      RunSettings run,
      int faults,
      int rounds,
      long rowsPerRound,
      Duration roundPause,
      int poisonEvery,
      int downRounds,
      Duration outage) {
    public Settings {
      if (run.seed() > SteadyWorkload.MAX_SEED) {
        throw new IllegalArgumentException(
            "--seed must be at most " + SteadyWorkload.MAX_SEED + " for a process fault class");
      }
      if (faults < 1 || faults >= rounds) {
        throw new IllegalArgumentException(
            "--faults must be between 1 and the workload's rounds - 1 (" + (rounds - 1) + ")");
      }
      if (outage.isNegative() || outage.isZero()) {
        throw new IllegalArgumentException(
            "--outage must be at least 1 second, got " + outage.toSeconds());
      }
      if (rounds >= SteadyWorkload.ROUND_SEEDS - 1 || rowsPerRound < 1) {
        throw new IllegalArgumentException(
            "--rounds must be below "
                + (SteadyWorkload.ROUND_SEEDS - 1)
                + ", --rows-per-round at least 1");
      }
    }

    /** The defaults of {@code sluice verify}: a run of about a minute or two. */
    public static Settings defaults(RunSettings run) {
      return new Settings(run, 2, 40, 30, Duration.ofMillis(500), 5, 3, Duration.ofSeconds(30));
    }
  }

  private final FaultClass faultClass;
  private final Settings settings;

  public FaultScenario(FaultClass faultClass, Settings settings) {
    super(
        faultClass.failureName(),
        Checks.of(FaultCheck.class, faultClass.checks()),
        settings.run(),
        new FaultStep.Plan(faultClass, settings));
    this.faultClass = faultClass;
    this.settings = settings;
  }

  @Override
  public ProcessScale processScale() {
    return faultClass == FaultClass.SCALE_OUT ? FaultClass.SCALE_OUT_STACK : ProcessScale.SINGLE;
  }

  @Override
  public String claimBoundary(String stack) {
    return "One "
        + faultClass.failureName()
        + " run on "
        + stack
        + ": "
        + settings.faults()
        + " fault(s) of the "
        + faultClass.component()
        + " process while a "
        + settings.rounds()
        + "-round workload streamed in, and every table of the lake then equals the source;"
        + " no claim about throughput or other failure classes.";
  }

  /** Runs the steps only on a process stack: they fault its processes through its control API. */
  @Override
  protected StepChain<Step<FaultCheck>, ? extends Step<FaultCheck>> open(
      ScenarioEndpoints endpoints,
      RunContext context,
      StepChain<Step<FaultCheck>, FaultStep.Plan> start) {
    if (endpoints.controlUrl() != null) {
      return super.open(endpoints, context, start);
    }
    return start
        .then(
            "start",
            "checking the stack",
            p -> {
              throw new ScenarioFailure(
                  faultClass.failureName()
                      + " faults a process of the process stack: run `sluice up --processes"
                      + " --ready-file F` and pass --ready-file F (its control_url), or run"
                      + " without --ready-file for a throwaway process stack");
            })
        .complete();
  }

  @Override
  protected StepChain<Step<FaultCheck>, ? extends Step<FaultCheck>> steps(
      StepChain<Step<FaultCheck>, FaultStep.Plan> start, Steps<FaultCheck> shared) {
    StackControlClient control = new StackControlClient(shared.stack().endpoints().controlUrl());
    FaultSteps steps = new FaultSteps(shared, control, plan());
    return shared
        .enterBaseline(start)
        .then(steps::baseline)
        .then(
            "fault",
            settings.faults()
                + " x "
                + faultClass.injection().name().toLowerCase(Locale.ROOT)
                + " of "
                + faultClass.component()
                + " during a "
                + settings.rounds()
                + "-round workload",
            steps::fault)
        .then("recovery", "waiting for the lake to catch up after the faults", steps::recover)
        .then(StepChain.FINAL, "reconciling every table and auditing event ids", steps::settle)
        .complete();
  }

  @Override
  protected boolean mainPipelineContinued(Checks<FaultCheck> checks) {
    return checks.holds(POST_FAULT_EVENT_FLOW_CONTINUED);
  }
}
