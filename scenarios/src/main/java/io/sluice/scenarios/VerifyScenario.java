package io.sluice.scenarios;

import io.sluice.stack.ProcessScale;

/** A failure scenario of {@code sluice verify}: what {@code --failure <class>} runs. */
public interface VerifyScenario {
  /** The {@code --failure} name, which is also the report's {@code failure_class}. */
  String failureClass();

  /**
   * The report's {@code claim_boundary}: one line on what a run proves.
   *
   * @param stack the stack it runs on, as the line names it
   */
  String claimBoundary(String stack);

  /**
   * Runs the scenario on the stack at {@code endpoints}. A step that fails ends the run; it does
   * not throw, the findings say where and why.
   */
  Findings run(ScenarioEndpoints endpoints, RunContext context);

  /**
   * The process stack a throwaway stack for this scenario must run, at its scale; null when any
   * stack does (the embedded one, unless another scenario of the run needs processes).
   */
  default ProcessScale processScale() {
    return null;
  }

  /** The findings of a run that never reached the scenario: every check false. */
  Findings notRun(String phase, String reason);
}
