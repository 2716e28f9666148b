package io.sluice.scenarios.step;

import io.sluice.scenarios.Check;
import io.sluice.scenarios.EventIdAudit;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.RunContext;
import io.sluice.scenarios.ScenarioFailure;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.scenarios.ScenarioStack.LakeReading;
import io.sluice.scenarios.StepChain;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.sql.SQLException;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The steps every scenario takes, on one stack: it reads the stack's versions, seeds the baseline
 * and waits for the lake ({@link StepChain#BASELINE}), and, after the scenario's own steps, reads
 * the lake a last time ({@link StepChain#FINAL}). Each takes the previous step's result and returns
 * its own; none keeps anything between calls. A step that cannot go on throws {@link
 * ScenarioFailure}; every wait is bounded.
 *
 * @param <C> the scenario's enum of checks
 */
public final class Steps<C extends Enum<C> & Check> {
  private final ScenarioStack stack;
  private final RunSettings run;
  private final RunContext context;
  private final Consumer<String> progress;

  /**
   * @param run the seed of the baseline rows (which the source must not hold yet), how many, and
   *     the bound of every wait for the lake
   * @param context the run: its clock, and where the lines a person reads go
   */
  public Steps(ScenarioStack stack, RunSettings run, RunContext context) {
    this.stack = stack;
    this.run = run;
    this.context = context;
    this.progress = context.progress();
  }

  /** The stack the steps run on, opened. */
  public ScenarioStack stack() {
    return stack;
  }

  /** The run the steps are part of. */
  public RunContext context() {
    return context;
  }

  /**
   * Enters the phase every scenario starts with ({@link StepChain#BASELINE}) by reading the stack's
   * versions ({@link #versions}); the baseline follows ({@link #baseline}, or a scenario's own step
   * around it).
   */
  public <P extends Step<C>> StepChain<Step<C>, Versions<C>> enterBaseline(
      StepChain<Step<C>, P> start) {
    return start.then(
        StepChain.BASELINE,
        "seeding " + run.baselineRows() + " rows of seed " + run.seed(),
        this::versions);
  }

  /** Reads the versions of the stack, first, so that a run failing at its baseline has them. */
  public Versions<C> versions(Step<C> plan) throws SQLException {
    return new Versions<>(plan, stack.stackVersions());
  }

  /**
   * Seeds the baseline rows and waits until every table of the lake equals the source ({@link
   * ScenarioStack#baseline}).
   */
  public Baseline<C> baseline(Versions<C> versions) throws SQLException {
    ScenarioStack.Baselined baselined =
        stack.baseline(run.seed(), run.baselineRows(), run.waitTimeout(), progress);
    return new Baseline<>(versions, baselined.dlqBefore(), baselined.linkage());
  }

  /**
   * Reads the lake until it settled and {@code also} holds, or the wait ran out ({@link
   * ScenarioStack#finalReading}): the reading the final checks judge.
   */
  public LakeReading finalReading(Predicate<EventIdAudit> also) {
    return stack.finalReading(run.waitTimeout(), also);
  }

  /**
   * The final step's result once the scenario judged {@code last}: takes the linkage now.
   *
   * @param proved the outcomes of the scenario's final checks
   */
  public Final<C> settled(Step<C> before, LakeReading last, Map<C, Boolean> proved) {
    return settled(before, last, proved, report -> {});
  }

  /**
   * As {@link #settled(Step, LakeReading, Map)}, with what the scenario's final checks write
   * besides their outcomes.
   */
  public Final<C> settled(
      Step<C> before,
      LakeReading last,
      Map<C, Boolean> proved,
      Consumer<Findings.Builder<C>> also) {
    return new Final<>(
        before,
        also,
        ReconciliationReport.of(last.reconcile()),
        last.audit().toReport(),
        stack.linkage(),
        proved,
        stack.drifting(last.tables()));
  }

  /**
   * The progress line of a final reading: {@code final: N differing rows, M changelog rows, K
   * duplicate event(s)}, then {@code detail}, then every table's outcome.
   */
  public static String finalLine(LakeReading last, String detail) {
    return "  final: "
        + last.reconcile().diffCount()
        + " differing rows, "
        + last.audit().changelogRowCount()
        + " changelog rows, "
        + last.audit().duplicateOccurrenceCount()
        + " duplicate event(s)"
        + detail
        + "; tables: "
        + ScenarioStack.describe(last.tables());
  }
}
