package io.sluice.scenarios.sinkpoison;

import io.sluice.scenarios.Check;

/** The checks of the sink-poison scenario, in report order; each names its key in the report. */
public enum SinkPoisonCheck implements Check {
  RETYPED_SCHEMA_REGISTERED("retyped_schema_registered"),
  RETYPED_EVENT_QUARANTINED_ONCE("retyped_event_quarantined_once"),
  QUARANTINED_BY_ROUTER_LINEAGE("quarantined_by_router_lineage"),
  DLQ_NAMES_FIELD_AND_TYPES("dlq_names_field_and_types"),
  ORIGINAL_VALUE_PRESERVED("original_value_preserved"),
  ROUTER_SURVIVED("router_survived"),
  ROUTER_COMMITTED_PAST_RETYPED_EVENT("router_committed_past_retyped_event"),
  UPSERT_SINK_RUNNING("upsert_sink_running"),
  CHANGELOG_SINK_RUNNING("changelog_sink_running"),
  FOLLOWING_EVENT_IN_CURRENT("following_event_in_current"),
  FOLLOWING_EVENT_IN_CHANGELOG("following_event_in_changelog"),
  REPAIR_REPLAYED("repair_replayed"),
  REPAIR_CONVERGED_BEFORE_CONNECTOR_RESUME("repair_converged_before_connector_resume"),
  CONNECTOR_RESUMED("connector_resumed"),
  SOURCE_EQUALS_CURRENT("source_equals_current"),
  EVENT_IDS_CONSISTENT("event_ids_consistent"),
  SINKS_RUNNING_AT_END("sinks_running_at_end"),
  EVERY_TABLE_EQUALS_SOURCE("every_table_equals_source");

  private final String key;

  SinkPoisonCheck(String key) {
    this.key = key;
  }

  @Override
  public String key() {
    return key;
  }
}
