package io.sluice.scenarios.step;

import io.sluice.scenarios.Check;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.StackVersions;

/**
 * The versions of the stack, read first so that a run failing at its baseline has them.
 *
 * @param plan the scenario's first step: what the run was asked to do
 */
public record Versions<C extends Enum<C> & Check>(Step<C> plan, StackVersions stackVersions)
    implements Step<C> {
  @Override
  public void addTo(Findings.Builder<C> report) {
    plan.addTo(report);
    report.stackVersions(stackVersions);
  }
}
