package io.sluice.connect.upsert.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.connect.upsert.config.PartitionTerm;
import io.sluice.connect.upsert.types.IcebergSchemas;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.errors.DataException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Tables created and checked on Iceberg's in-memory catalog. */
class TableResolverTest {
  private static final TableIdentifier ITEMS = TableIdentifier.of("shop", "order_items_current");

  /** {@code PRIMARY KEY (order_id, line_no)}, as Debezium's key record orders it. */
  private static final Schema KEY =
      SchemaBuilder.struct()
          .field("order_id", Schema.INT32_SCHEMA)
          .field("line_no", Schema.INT32_SCHEMA)
          .build();

  /** The row lists the key columns the other way round, and after a non-key column. */
  private static final Schema ROW =
      SchemaBuilder.struct()
          .optional()
          .field("sku", Schema.OPTIONAL_STRING_SCHEMA)
          .field("line_no", Schema.INT32_SCHEMA)
          .field("order_id", Schema.INT32_SCHEMA)
          .field("qty", Schema.OPTIONAL_INT32_SCHEMA)
          .build();

  private InMemoryCatalog catalog;

  @BeforeEach
  void openCatalog() {
    catalog = new InMemoryCatalog();
    catalog.initialize("mem", Map.of());
  }

  @AfterEach
  void closeCatalog() throws Exception {
    catalog.close();
  }

  @Test
  void aCreatedTableKeepsTheKeySchemasFieldOrderAsItsIdentifierFields() {
    resolver(List.of()).prepare(ITEMS, IcebergSchemas.tableSchema(ROW, KEY, null));

    Table loaded = catalog.loadTable(ITEMS);
    org.apache.iceberg.Schema schema = loaded.schema();
    assertThat(schema.identifierFieldIds().stream().map(schema::findColumnName))
        .containsExactly("order_id", "line_no");
    assertThat(schema.columns())
        .extracting(c -> c.name() + (c.isRequired() ? "!" : ""))
        .containsExactly("order_id!", "line_no!", "sku", "qty");
  }

  @Test
  void aPartitionTermOffTheKeyIsRefusedNamingTheTermAndTheKeyFields() {
    TableResolver resolver = resolver(PartitionTerm.parseAll("bucket(sku, 8)"));
    org.apache.iceberg.Schema schema = IcebergSchemas.tableSchema(ROW, KEY, null);
    assertThatThrownBy(() -> resolver.prepare(ITEMS, schema))
        .isInstanceOf(DataException.class)
        .hasMessageContaining("table.partition.by term bucket(sku, 8) is on column sku")
        .hasMessageContaining("not a key field of shop.order_items_current")
        .hasMessageContaining("(key fields [order_id, line_no])")
        .hasMessageContaining("partition by key fields only");
    assertThat(catalog.tableExists(ITEMS)).isFalse();
  }

  @Test
  void anyFieldOfACompositeKeyMayPartition() {
    Table table =
        resolver(PartitionTerm.parseAll("bucket(line_no, 4)"))
            .prepare(ITEMS, IcebergSchemas.tableSchema(ROW, KEY, null));
    assertThat(table.spec().fields()).extracting(f -> f.name()).containsExactly("line_no_bucket");
  }

  @Test
  void anExistingTableWithTheSameKeyColumnsInAnotherOrderIsTheSameKey() {
    // A table created before the key columns led: identifier fields in column order.
    org.apache.iceberg.Schema old =
        new org.apache.iceberg.Schema(
            List.of(
                Types.NestedField.required(1, "line_no", Types.IntegerType.get()),
                Types.NestedField.required(2, "order_id", Types.IntegerType.get())),
            Set.of(1, 2));
    catalog.createNamespace(ITEMS.namespace());
    catalog.createTable(ITEMS, old);
    Table table = resolver(List.of()).prepare(ITEMS, IcebergSchemas.tableSchema(ROW, KEY, null));
    assertThat(table.schema().findField("sku")).isNotNull();
  }

  private TableResolver resolver(List<PartitionTerm> partitionBy) {
    return new TableResolver(catalog, new TableResolver.Settings(true, true, 2, partitionBy));
  }
}
