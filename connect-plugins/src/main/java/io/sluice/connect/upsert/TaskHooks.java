package io.sluice.connect.upsert;

/**
 * The points where a test can fail an upsert sink task on purpose, to prove what a crash there
 * leaves behind. Connect's task uses {@link #NONE}; tests arm them in a subclass of the task. A
 * hook fails the task by throwing a {@link org.apache.kafka.connect.errors.DataException}, which
 * the task never retries.
 */
public interface TaskHooks {
  /** Does nothing anywhere. */
  TaskHooks NONE = new TaskHooks() {};

  /**
   * After each commit round that committed, once Iceberg holds its offsets and before Connect hears
   * of them.
   */
  default void committed() {}

  /**
   * Before each Iceberg commit of a task that quarantines, once the DLQ records so far are durable.
   *
   * @param wroteRecords whether this flush wrote DLQ records
   */
  default void dlqFlushed(boolean wroteRecords) {}
}
