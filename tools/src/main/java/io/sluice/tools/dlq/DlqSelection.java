package io.sluice.tools.dlq;

import io.sluice.tools.dlq.record.DlqEntry;
import java.util.List;

/** Picks DLQ records by the ids the commands print (and {@code --partition}). */
final class DlqSelection {
  private DlqSelection() {}

  /**
   * The record {@code id} names, in {@code partition} when given.
   *
   * @throws IllegalArgumentException when the id names another topic or partition, when there is no
   *     such record, or several and no partition was given
   */
  static DlqEntry one(
      List<DlqEntry> entries, DlqRecordId id, Integer partitionOption, String topic) {
    Integer partition = id.partitionIn(topic, partitionOption);
    long offset = id.offset();
    List<DlqEntry> found =
        entries.stream()
            .filter(e -> e.dlq().offset() == offset)
            .filter(e -> partition == null || e.dlq().partition() == partition)
            .toList();
    if (found.isEmpty()) {
      throw new IllegalArgumentException(
          "DLQ topic "
              + topic
              + " has no record at offset "
              + offset
              + (partition == null ? "" : " in partition " + partition)
              + "; `sluice dlq list` shows the records");
    }
    if (found.size() > 1) {
      throw new IllegalArgumentException(
          "offset "
              + offset
              + " is in several partitions of "
              + topic
              + " ("
              + found.stream().map(e -> String.valueOf(e.dlq().partition())).toList()
              + "); pass --partition or <partition>@"
              + offset);
    }
    return found.get(0);
  }

  /** Every record, or those of {@code partition} when given. */
  static List<DlqEntry> all(List<DlqEntry> entries, Integer partition) {
    return entries.stream()
        .filter(e -> partition == null || e.dlq().partition() == partition)
        .toList();
  }
}
