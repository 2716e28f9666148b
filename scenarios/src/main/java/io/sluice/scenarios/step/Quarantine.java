package io.sluice.scenarios.step;

import io.sluice.scenarios.Check;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.ReportSection;
import java.util.Map;

/**
 * The router quarantined the record a scenario injected ({@link QuarantineSteps}).
 *
 * @param <I> the scenario's step that injected the record
 * @param injection that step's result
 * @param found what the router did with the record
 * @param section the report's {@code quarantine}, in state "quarantined"
 * @param proved the outcomes of the scenario's checks of the quarantine
 */
public record Quarantine<C extends Enum<C> & Check, I extends Step<C>>(
    I injection, Quarantined found, Section section, Map<C, Boolean> proved) implements Step<C> {

  /** A scenario's {@code quarantine} section, which a repair turns to state "repaired". */
  public interface Section extends ReportSection {
    /** This section in state "repaired". */
    Section repaired();
  }

  @Override
  public void addTo(Findings.Builder<C> report) {
    injection.addTo(report);
    report.quarantine(section).dlqRecordCount(found.dlqRecordCount()).proved(proved);
  }
}
