package io.sluice.scenarios;

/**
 * A named check of a scenario, implemented by the scenario's enum of checks: the enum's order is
 * the report's order, {@link #key} the name in its {@code checks} object.
 */
public interface Check {
  /** The check's key in the report, e.g. {@code exactly_one_dlq_record}. */
  String key();
}
