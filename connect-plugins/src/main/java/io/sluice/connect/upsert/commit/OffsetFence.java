package io.sluice.connect.upsert.commit;

import io.sluice.lake.offsets.IcebergOffsets;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.kafka.common.TopicPartition;

/**
 * Fails a commit when the table's ancestry, at commit time, holds other offsets for the batch's
 * partitions than the ones the batch was read after: another writer (a zombie task after a
 * rebalance, or a second connector with the same name) committed them meanwhile.
 */
final class OffsetFence implements SnapshotAncestryValidator {
  private final String connector;
  private final Set<TopicPartition> partitions;
  private final Map<TopicPartition, Long> expected;
  private volatile String problem;

  /**
   * @param expected offset each partition must still hold; a partition without an entry must hold
   *     none
   */
  OffsetFence(
      String connector, Set<TopicPartition> partitions, Map<TopicPartition, Long> expected) {
    this.connector = connector;
    this.partitions = Set.copyOf(partitions);
    this.expected = expected;
  }

  @Override
  public boolean validate(Iterable<Snapshot> ancestry) {
    Map<TopicPartition, Long> held = IcebergOffsets.find(ancestry, connector, partitions);
    for (TopicPartition tp : partitions) {
      if (!Objects.equals(held.get(tp), expected.get(tp))) {
        problem =
            "Iceberg holds offset "
                + held.get(tp)
                + " for "
                + tp
                + " (connector "
                + connector
                + ") but this batch was read after offset "
                + expected.get(tp)
                + ": another writer committed it";
        return false;
      }
    }
    problem = null;
    return true;
  }

  boolean failed() {
    return problem != null;
  }

  @Override
  public String errorMessage() {
    return problem == null ? "offsets fence" : problem;
  }
}
