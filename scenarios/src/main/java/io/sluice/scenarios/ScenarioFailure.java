package io.sluice.scenarios;

import java.util.List;

/**
 * A step of a verification scenario did not happen: the message names what, and where it was. A
 * wait for the lake that timed out also carries the tables that still drifted, with their differing
 * rows ({@link #drift()}), for the report's {@code table_drift}.
 */
public final class ScenarioFailure extends RuntimeException {
  private final transient List<TableDrift> drift;

  public ScenarioFailure(String message) {
    this(message, List.of());
  }

  public ScenarioFailure(String message, Throwable cause) {
    super(message, cause);
    this.drift = List.of();
  }

  /**
   * @param drift the tables that drifted when the step last read the lake
   */
  public ScenarioFailure(String message, List<TableDrift> drift) {
    super(message);
    this.drift = List.copyOf(drift);
  }

  /** The tables that drifted when the failed step last read the lake; empty when it read none. */
  public List<TableDrift> drift() {
    return drift;
  }
}
