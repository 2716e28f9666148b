package io.sluice.scenarios.fault;

import io.sluice.scenarios.Check;

/**
 * Every check of the process-fault classes, in report order; each class reports its own subset
 * ({@link FaultClass#checks()}). Each names its key in the report.
 */
public enum FaultCheck implements Check {
  /**
   * Every planned injection happened: the component ended (SIGKILL: exit 137) and started again.
   */
  FAULTS_INJECTED("faults_injected"),
  /** The faulted component runs again at the end, started by the supervisor. */
  COMPONENT_RECOVERED("component_recovered"),
  /** Every other component still runs with the process it had before the fault (no restart). */
  CLIENTS_RECOVERED_WITHOUT_RESTART("clients_recovered_without_restart"),
  /** Each injected poison record is in the DLQ exactly once. */
  EACH_POISON_QUARANTINED_ONCE("each_poison_quarantined_once"),
  /**
   * Every record of the main topic written during the run is in {@code .clean} (same partition, key
   * and value) or in {@code .dlq} (by its original coordinates) exactly once, read_committed.
   */
  EVERY_INPUT_IN_CLEAN_OR_DLQ_ONCE("every_input_in_clean_or_dlq_exactly_once"),
  /** No record reached the DLQ during the run: the fault quarantined nothing. */
  ZERO_RECORDS_QUARANTINED("zero_records_quarantined"),
  /** The router counted retries of registry calls while the registry was down. */
  ROUTER_REGISTRY_RETRIES_COUNTED("router_registry_retries_counted"),
  /**
   * At least one SIGKILL of the worker landed after an Iceberg commit and before Connect committed
   * the same offsets to Kafka (the sink then recovers its position from the snapshot).
   */
  KILLED_BETWEEN_ICEBERG_AND_CONNECT_COMMIT("killed_between_iceberg_and_connect_commit"),
  /** schema-change: the added column is in the current table with the values the source gave. */
  NEW_COLUMN_REACHED_ICEBERG_WITH_VALUES("new_column_reached_iceberg_with_values"),
  /** schema-change: rows written before the column was added hold null in it. */
  EARLIER_ROWS_KEEP_NULL("earlier_rows_keep_null"),
  /** No key that the source deleted (and did not insert again) is in the current table. */
  NO_RESURRECTED_ROW("no_resurrected_row"),
  /**
   * scale-out: before the fault and at the end, two or more router instances each hold partitions
   * of the main topic, each sink runs two or more tasks, and the tasks run on two or more workers.
   */
  SCALED_OUT("routers_and_sink_tasks_scaled_out"),
  /**
   * scale-out: for every partition of the clean topic, the upsert sink's snapshots hold an offset
   * at or past its last committed record (the tasks' positions live in Iceberg, not only in Kafka).
   */
  EVERY_TASK_OFFSET_HELD_IN_ICEBERG("every_task_offset_held_in_iceberg"),
  /**
   * scale-out: no upsert-sink commit was refused by its offset fence or failed while tasks of the
   * connector committed to the same table concurrently (every worker's log since the baseline).
   */
  NO_COMMIT_FENCED_BY_MISTAKE("no_commit_fenced_by_mistake"),
  /** Every key of the current table is there once. */
  NO_DUPLICATE_KEY("no_duplicate_key"),
  /** The row written after the workload's last round reached the current and changelog table. */
  POST_FAULT_EVENT_FLOW_CONTINUED("post_fault_event_flow_continued"),
  FINAL_SNAPSHOT_DIFF_ZERO("final_snapshot_diff_zero"),
  FINAL_EVENT_ID_AUDIT_CONSISTENT("final_event_id_audit_consistent"),
  FINAL_EVERY_TABLE_EQUAL("final_every_table_equal");

  private final String key;

  FaultCheck(String key) {
    this.key = key;
  }

  @Override
  public String key() {
    return key;
  }
}
