package io.sluice.scenarios.step;

import io.sluice.scenarios.Check;
import io.sluice.scenarios.Findings;
import io.sluice.scenarios.LinkageSnapshot;
import java.util.Set;

/**
 * The baseline rows are in the lake: every table equals the source.
 *
 * @param dlqBefore the DLQ records there before the run ({@code partition@offset})
 * @param linkage where every stage stood then
 */
public record Baseline<C extends Enum<C> & Check>(
    Versions<C> versions, Set<String> dlqBefore, LinkageSnapshot linkage) implements Step<C> {
  @Override
  public void addTo(Findings.Builder<C> report) {
    versions.addTo(report);
    report.baselineLinkage(linkage);
  }
}
