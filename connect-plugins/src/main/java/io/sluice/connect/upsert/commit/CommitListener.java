package io.sluice.connect.upsert.commit;

import java.util.List;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;

/** Hears what became of each table of a commit round ({@link UpsertCommitter#commit}). */
public interface CommitListener {
  /** {@code table} committed the pending records of {@code partitions}. */
  void committed(TableIdentifier table, List<TopicPartition> partitions);

  /**
   * Another writer committed {@code table} meanwhile: nothing of this round was committed to it,
   * and the pending records of {@code partitions} are still in {@code pending}. The other tables of
   * the round go on.
   */
  void fenced(TableIdentifier table, List<TopicPartition> partitions, OffsetFenceException e);
}
