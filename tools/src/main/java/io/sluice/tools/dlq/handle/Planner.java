package io.sluice.tools.dlq.handle;

import io.sluice.tools.dlq.record.DlqEntry;

/** Decides what to produce for a DLQ record: replay its bytes, or repair it with a strategy. */
@FunctionalInterface
public interface Planner {

  /**
   * The record to produce for {@code entry} (readable).
   *
   * @throws io.sluice.tools.dlq.repair.RepairException when it cannot be planned; the message names
   *     why, never the payload
   */
  PlannedRecord plan(DlqEntry entry);
}
