package io.sluice.scenarios.step;

import io.sluice.scenarios.ScenarioRows;
import io.sluice.scenarios.ScenarioStack;
import io.sluice.stack.workload.OrderRow;
import java.time.Duration;

/**
 * What every scenario's run is asked, whatever its failure class: the seed its rows derive from,
 * how many baseline rows it seeds, and how long a wait for the lake may take.
 *
 * @param waitTimeout bound of every wait for the lake to catch up
 */
public record RunSettings(int seed, long baselineRows, Duration waitTimeout) {
  /**
   * @throws IllegalArgumentException naming the flag and its bounds
   */
  public RunSettings {
    ScenarioStack.checkRunSize(seed, baselineRows);
  }

  /** The {@code n}-th row a scenario writes after its baseline: order {@code baselineRows + n}. */
  public OrderRow rowAfterBaseline(long n) {
    return ScenarioRows.row(seed, baselineRows + n);
  }
}
