package io.sluice.connect.upsert.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.connect.upsert.config.UpsertSinkConfig;
import java.util.regex.Pattern;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.Test;

class TableNamesTest {
  private final TableNames defaults =
      new TableNames(
          Pattern.compile(UpsertSinkConfig.TABLE_TOPIC_REGEX_DEFAULT),
          UpsertSinkConfig.TABLE_NAME_FORMAT_DEFAULT);

  @Test
  void cleanTopicMapsToTheCurrentTableOfItsDatabase() {
    assertThat(defaults.table("broker.cdc_lab.orders.clean"))
        .isEqualTo(TableIdentifier.of("cdc_lab", "orders_current"));
    assertThat(defaults.table("broker.cdc_lab.orders"))
        .isEqualTo(TableIdentifier.of("cdc_lab", "orders_current"));
  }

  @Test
  void everyCleanTopicOfADatabaseHasACurrentTableOfItsOwn() {
    assertThat(
            java.util.stream.Stream.of(
                    "broker.shop.orders.clean",
                    "broker.shop.order_items.clean",
                    "broker.shop.audit_log.clean",
                    "broker.crm.orders.clean")
                .map(defaults::table))
        .containsExactly(
            TableIdentifier.of("shop", "orders_current"),
            TableIdentifier.of("shop", "order_items_current"),
            TableIdentifier.of("shop", "audit_log_current"),
            TableIdentifier.of("crm", "orders_current"));
  }

  @Test
  void topicPlaceholderAndCustomGroups() {
    TableNames names = new TableNames(Pattern.compile("^in-(?<name>.+)$"), "lake.{name}_v");
    assertThat(names.table("in-users")).isEqualTo(TableIdentifier.of("lake", "users_v"));
    TableNames whole = new TableNames(Pattern.compile(".*"), "raw.t_{topic}");
    assertThat(whole.table("x")).isEqualTo(TableIdentifier.of("raw", "t_x"));
  }

  @Test
  void topicThatDoesNotMatchFails() {
    assertThatThrownBy(() -> defaults.table("plain"))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("topic plain does not match table.topic.regex");
  }
}
