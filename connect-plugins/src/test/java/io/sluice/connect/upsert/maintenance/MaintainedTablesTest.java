package io.sluice.connect.upsert.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.connect.upsert.config.UpsertSinkConfig;
import io.sluice.connect.upsert.table.TableNames;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** The task assigned partition 0 of a table's topic maintains the table. */
class MaintainedTablesTest {
  private static final TableNames NAMES =
      new TableNames(
          Pattern.compile(UpsertSinkConfig.TABLE_TOPIC_REGEX_DEFAULT),
          UpsertSinkConfig.TABLE_NAME_FORMAT_DEFAULT);
  private static final TableIdentifier ORDERS = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TableIdentifier ITEMS = TableIdentifier.of("cdc_lab", "items_current");
  private static final TopicPartition ORDERS_0 = new TopicPartition("b.cdc_lab.orders.clean", 0);
  private static final TopicPartition ORDERS_1 = new TopicPartition("b.cdc_lab.orders.clean", 1);
  private static final TopicPartition ITEMS_2 = new TopicPartition("b.cdc_lab.items.clean", 2);

  @Test
  void onlyTheTaskHoldingPartitionZeroMaintainsTheTable() {
    MaintainedTables first = new MaintainedTables(NAMES);
    MaintainedTables second = new MaintainedTables(NAMES);
    first.assigned(List.of(ORDERS_0));
    second.assigned(List.of(ORDERS_1, ITEMS_2));

    assertThat(first.all()).containsExactly(ORDERS);
    assertThat(second.all()).isEmpty();
    assertThat(first.among(List.of(ORDERS_1))).containsExactly(ORDERS);
    assertThat(second.among(List.of(ORDERS_1, ITEMS_2))).isEmpty();
  }

  @Test
  void aRebalanceMovesTheTableWithPartitionZero() {
    MaintainedTables before = new MaintainedTables(NAMES);
    MaintainedTables after = new MaintainedTables(NAMES);
    before.assigned(List.of(ORDERS_0, ORDERS_1));
    before.revoked(List.of(ORDERS_0));
    after.assigned(List.of(ORDERS_0));
    assertThat(before.all()).isEmpty();
    assertThat(after.all()).containsExactly(ORDERS);
  }

  @Test
  void aTopicWithoutATableIsIgnored() {
    MaintainedTables tables = new MaintainedTables(NAMES);
    tables.assigned(List.of(new TopicPartition("no-dots", 0)));
    assertThat(tables.all()).isEmpty();
  }
}
