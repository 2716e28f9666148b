package io.sluice.tools.monitor;

import java.time.Instant;

/**
 * What the monitor knows of one DLQ topic after a refresh; what its meters show.
 *
 * @param records DLQ records read (each offset once, handled or not, readable or not)
 * @param backlog readable DLQ records that no ledger entry handles yet
 * @param oldestQuarantinedAt when the oldest of those was quarantined; null when there is none
 * @param repaired ledger entries read whose action is repair
 * @param replayed ledger entries read whose action is replay
 * @param unreadableRecords DLQ records that are neither an envelope v1 nor a raw DLQ record
 * @param unreadableLedgerRecords ledger records without a key or with a value that is no entry
 */
public record DlqSnapshot(
    long records,
    int backlog,
    Instant oldestQuarantinedAt,
    long repaired,
    long replayed,
    long unreadableRecords,
    long unreadableLedgerRecords) {

  /** A DLQ topic with nothing read yet. */
  public static final DlqSnapshot EMPTY = new DlqSnapshot(0, 0, null, 0, 0, 0, 0);
}
