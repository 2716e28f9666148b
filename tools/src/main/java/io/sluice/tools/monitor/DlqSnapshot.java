package io.sluice.tools.monitor;

import java.time.Instant;
import java.util.Map;

/**
 * What the monitor knows of one DLQ topic after a refresh; what its meters show.
 *
 * @param recordsByCause DLQ records read (each offset once, handled or not, readable or not) per
 *     stage and code; unreadable ones under {@link QuarantineCause#UNREADABLE}
 * @param inputsByCause quarantined inputs read per stage and code: DLQ records, a later copy of an
 *     input (a zombie sink task wrote it again) not counted again; each unreadable record is one
 * @param backlogByCause quarantined inputs (readable) that no ledger entry handles yet, per stage
 *     and code
 * @param oldestQuarantinedAt when the oldest of those was first quarantined; null when there is
 *     none
 * @param repaired ledger entries read whose action is repair
 * @param replayed ledger entries read whose action is replay
 * @param unreadableRecords DLQ records that are neither an envelope v1 nor a raw DLQ record
 * @param unreadableLedgerRecords ledger records without a key or with a value that is no entry
 */
public record DlqSnapshot(
    Map<QuarantineCause, Long> recordsByCause,
    Map<QuarantineCause, Long> inputsByCause,
    Map<QuarantineCause, Long> backlogByCause,
    Instant oldestQuarantinedAt,
    long repaired,
    long replayed,
    long unreadableRecords,
    long unreadableLedgerRecords) {

  /** A DLQ topic with nothing read yet. */
  public static final DlqSnapshot EMPTY =
      new DlqSnapshot(Map.of(), Map.of(), Map.of(), null, 0, 0, 0, 0);

  public DlqSnapshot {
    recordsByCause = Map.copyOf(recordsByCause);
    inputsByCause = Map.copyOf(inputsByCause);
    backlogByCause = Map.copyOf(backlogByCause);
  }

  /** DLQ records read, over every stage and code. */
  public long records() {
    return recordsByCause.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Quarantined inputs read, over every stage and code. */
  public long inputs() {
    return inputsByCause.values().stream().mapToLong(Long::longValue).sum();
  }

  /** Quarantined inputs not handled yet, over every stage and code. */
  public long backlog() {
    return backlogByCause.values().stream().mapToLong(Long::longValue).sum();
  }
}
