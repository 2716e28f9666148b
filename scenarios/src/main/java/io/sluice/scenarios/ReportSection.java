package io.sluice.scenarios;

/**
 * A section of the report whose shape is the scenario's own: {@code scenario}, {@code fault},
 * {@code quarantine}, {@code recovery}. Implemented by records that Jackson writes with the
 * report's snake_case keys.
 */
public interface ReportSection {}
