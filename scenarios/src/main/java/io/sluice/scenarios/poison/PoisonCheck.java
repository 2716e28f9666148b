package io.sluice.scenarios.poison;

import io.sluice.scenarios.Check;

/** The checks of the poison-dlq scenario, in report order; each names its key in the report. */
public enum PoisonCheck implements Check {
  POISON_WAS_NON_AVRO("poison_was_non_avro"),
  EXACTLY_ONE_DLQ_RECORD("exactly_one_dlq_record"),
  DLQ_HAS_ERROR_METADATA("dlq_has_error_metadata"),
  DLQ_PRESERVED_ORIGINAL_VALUE("dlq_preserved_original_value"),
  MAIN_JOB_SURVIVED_POISON("main_job_survived_poison"),
  CHECKPOINT_ADVANCED_AFTER_POISON("checkpoint_advanced_after_poison"),
  REPAIR_REPLAYED_WITH_REGISTERED_AVRO("repair_replayed_with_registered_avro"),
  REPAIR_CONVERGED_BEFORE_CONNECTOR_RESUME("repair_converged_before_connector_resume"),
  CONNECTOR_RESUMED("connector_resumed"),
  POST_POISON_EVENT_FLOW_CONTINUED("post_poison_event_flow_continued"),
  FINAL_SNAPSHOT_DIFF_ZERO("final_snapshot_diff_zero"),
  FINAL_EVENT_ID_AUDIT_CONSISTENT("final_event_id_audit_consistent"),
  FINAL_EVERY_TABLE_EQUAL("final_every_table_equal");

  private final String key;

  PoisonCheck(String key) {
    this.key = key;
  }

  @Override
  public String key() {
    return key;
  }
}
