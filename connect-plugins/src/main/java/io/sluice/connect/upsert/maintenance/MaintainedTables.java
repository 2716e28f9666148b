package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.table.TableNames;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.DataException;

/**
 * The tables a task maintains: those of the topics whose partition 0 (the lowest-numbered
 * partition, which every topic has) it is assigned. Connect assigns each partition to one task, so
 * with several tasks writing one table exactly one maintains it, and a rebalance hands that on with
 * the partition. (During a rebalance two tasks may briefly both maintain a table; their commits
 * race through Iceberg's optimistic concurrency like any two writers.) Thread-safe: the task's
 * thread assigns, the maintenance thread asks.
 */
final class MaintainedTables {
  private final TableNames names;
  private final Set<TopicPartition> firstPartitions = ConcurrentHashMap.newKeySet();

  MaintainedTables(TableNames names) {
    this.names = names;
  }

  void assigned(Collection<TopicPartition> partitions) {
    partitions.stream().filter(tp -> tp.partition() == 0).forEach(firstPartitions::add);
  }

  void revoked(Collection<TopicPartition> partitions) {
    partitions.forEach(firstPartitions::remove);
  }

  /** The maintained tables among those of {@code partitions}' topics. */
  Set<TableIdentifier> among(Collection<TopicPartition> partitions) {
    Set<TableIdentifier> all = all();
    Set<TableIdentifier> tables = new LinkedHashSet<>();
    for (TopicPartition tp : partitions) {
      TableIdentifier table = table(tp.topic());
      if (table != null && all.contains(table)) {
        tables.add(table);
      }
    }
    return tables;
  }

  /** Every table the task maintains now. */
  Set<TableIdentifier> all() {
    Set<TableIdentifier> tables = new LinkedHashSet<>();
    for (TopicPartition tp : firstPartitions) {
      TableIdentifier table = table(tp.topic());
      if (table != null) {
        tables.add(table);
      }
    }
    return tables;
  }

  private TableIdentifier table(String topic) {
    try {
      return names.table(topic);
    } catch (DataException e) {
      // A topic without a table (it does not match table.topic.regex) has nothing to maintain.
      return null;
    }
  }
}
