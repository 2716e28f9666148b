package io.sluice.scenarios.step;

import io.sluice.scenarios.Check;
import io.sluice.scenarios.Findings;

/**
 * What a step of a scenario found, as it hands it to the next step. Each step's result holds the
 * one before it, so the last step a run reached holds the whole run, and {@link #addTo} writes it:
 * the sections and checks of the steps before, then its own. A step that failed hands nothing on;
 * its checks stay false.
 *
 * <p>The steps every scenario takes are here ({@link Versions}, {@link Baseline}, {@link Final},
 * run by {@link Steps}); a scenario's own steps are records of its package that implement this
 * interface with its enum of checks.
 *
 * @param <C> the scenario's enum of checks
 */
public interface Step<C extends Enum<C> & Check> {

  /** Adds what this step and every step before it found to {@code report}, earliest first. */
  void addTo(Findings.Builder<C> report);
}
