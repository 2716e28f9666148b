package io.sluice.scenarios.step;

import io.sluice.scenarios.Check;
import io.sluice.scenarios.EventIdAuditReport;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.LinkageSnapshot;
import io.sluice.scenarios.StepChain;
import io.sluice.scenarios.TableDrift;
import io.sluice.tools.reconcile.ReconciliationReport;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Every scenario's last step: the lake caught up (or the wait ran out), with the final
 * reconciliation, the event-id audit and where every stage stood then ({@link Steps#settled}).
 *
 * @param before the scenario's step before its final one
 * @param also what the scenario's own final checks write besides their outcomes, e.g. a section
 *     they complete; written after the steps before, so it replaces their version
 * @param proved the outcomes of the scenario's final checks
 * @param drift the tables that did not equal the source at the final reading
 */
public record Final<C extends Enum<C> & Check>(
    Step<C> before,
    Consumer<Findings.Builder<C>> also,
    ReconciliationReport reconciliation,
    EventIdAuditReport audit,
    LinkageSnapshot linkage,
    Map<C, Boolean> proved,
    List<TableDrift> drift)
    implements Step<C> {
  @Override
  public void addTo(Findings.Builder<C> report) {
    before.addTo(report);
    also.accept(report);
    report
        .finalLinkage(linkage)
        .reconciliation(reconciliation)
        .eventIdAudit(audit)
        .drift(StepChain.FINAL, drift)
        .proved(proved);
  }
}
