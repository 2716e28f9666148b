package io.sluice.scenarios.step;

import io.sluice.scenarios.Check;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.ReportSection;
import io.sluice.scenarios.step.QuarantineSteps.BeforeResume;
import java.util.Map;

/**
 * The quarantined record was repaired (or left, when the scenario skips the repair), and the lake
 * reconciled while capture was still paused ({@link QuarantineSteps}).
 *
 * @param <I> the scenario's step that injected the record
 * @param <R> the scenario's {@code recovery} section
 * @param section the quarantine, in state "repaired" unless the repair was skipped
 * @param proved the outcomes of the scenario's checks of the repair
 */
public record Repair<C extends Enum<C> & Check, I extends Step<C>, R extends ReportSection>(
    Quarantine<C, I> quarantine,
    Quarantine.Section section,
    R recovery,
    BeforeResume reconciled,
    Map<C, Boolean> proved)
    implements Step<C> {
  @Override
  public void addTo(Findings.Builder<C> report) {
    quarantine.addTo(report);
    report.quarantine(section).recovery(recovery);
    reconciled.addTo(report);
    report.proved(proved);
  }
}
