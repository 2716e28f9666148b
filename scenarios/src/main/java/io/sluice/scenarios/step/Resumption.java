package io.sluice.scenarios.step;

import io.sluice.scenarios.Check;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.ReportSection;
import java.util.Map;

/**
 * Capture runs again after the repair ({@link QuarantineSteps#resumeCapture}).
 *
 * @param <I> the scenario's step that injected the record
 * @param <R> the scenario's {@code recovery} section
 * @param recovery the recovery section with capture's status once resumed
 */
public record Resumption<C extends Enum<C> & Check, I extends Step<C>, R extends ReportSection>(
    Repair<C, I, R> repair, R recovery, Map<C, Boolean> proved) implements Step<C> {

  /** The scenario's step that injected the record. */
  public I injection() {
    return repair.quarantine().injection();
  }

  @Override
  public void addTo(Findings.Builder<C> report) {
    repair.addTo(report);
    report.recovery(recovery).proved(proved);
  }
}
