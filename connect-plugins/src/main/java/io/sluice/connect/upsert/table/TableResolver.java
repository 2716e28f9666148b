package io.sluice.connect.upsert.table;

import io.sluice.connect.upsert.config.PartitionTerm;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.AlreadyExistsException;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.kafka.connect.errors.DataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Loads, creates and evolves the sink's tables. A table is usable only when its identifier fields
 * are the records' primary key. The tables it creates are partitioned by key columns alone
 * (equality deletes are partition-scoped, and placed from the key alone); one an operator
 * partitioned otherwise is written too, its old rows found where they are (the key index, or a
 * scan: {@code BatchWriter}).
 */
public final class TableResolver {
  private static final Logger log = LoggerFactory.getLogger(TableResolver.class);

  /** How created tables look and whether tables may change. */
  public record Settings(
      boolean autoCreate,
      boolean evolveSchema,
      int formatVersion,
      List<PartitionTerm> partitionBy) {}

  private final Catalog catalog;
  private final Settings settings;
  private final Map<TableIdentifier, Table> tables = new HashMap<>();

  public TableResolver(Catalog catalog, Settings settings) {
    this.catalog = catalog;
    this.settings = settings;
  }

  /** The table if it exists (loaded once, then refreshed by the caller when needed). */
  public Optional<Table> find(TableIdentifier id) {
    Table table = tables.get(id);
    if (table != null) {
      return Optional.of(table);
    }
    try {
      table = catalog.loadTable(id);
    } catch (NoSuchTableException e) {
      return Optional.empty();
    }
    tables.put(id, table);
    return Optional.of(table);
  }

  /**
   * The table, ready for rows of {@code recordSchema}: created when missing, its schema evolved
   * when the records bring new columns or wider types.
   *
   * @throws DataException when the table cannot take the rows (key mismatch, evolution disabled or
   *     impossible, creation disabled)
   */
  public Table prepare(TableIdentifier id, Schema recordSchema) {
    Table table = find(id).orElse(null);
    if (table == null) {
      if (!settings.autoCreate()) {
        throw new DataException(
            "table " + id + " does not exist and table.auto.create is false; create it first");
      }
      table = create(id, recordSchema);
    }
    checkKey(id, table, recordSchema);
    List<SchemaEvolution.Change> changes = SchemaEvolution.changes(table.schema(), recordSchema);
    if (!changes.isEmpty()) {
      if (!settings.evolveSchema()) {
        throw new DataException(
            "table "
                + id
                + " needs schema changes "
                + changes
                + " but table.evolve.schema is false");
      }
      UpdateSchema update = table.updateSchema();
      changes.forEach(c -> c.applyTo(update));
      update.commit();
      table.refresh();
      log.info("Evolved the schema of {}: {}", id, changes);
    }
    return table;
  }

  /** Forgets cached tables, so the next call loads them again. */
  public void clear() {
    tables.clear();
  }

  private Table create(TableIdentifier id, Schema schema) {
    PartitionSpec.Builder spec = PartitionSpec.builderFor(schema);
    List<String> keyNames = identifierNames(schema);
    for (PartitionTerm term : settings.partitionBy()) {
      if (!keyNames.contains(term.column())) {
        throw new DataException(
            "table.partition.by term "
                + term.text()
                + " is on column "
                + term.column()
                + ", which is not a key field of "
                + id
                + " (key fields "
                + keyNames
                + "): equality deletes are partition-scoped, so an update could leave the old row"
                + " in another partition; partition by key fields only, or drop the term");
      }
      term.addTo(spec);
    }
    if (catalog instanceof SupportsNamespaces namespaces && !id.namespace().isEmpty()) {
      createNamespace(namespaces, id.namespace());
    }
    Table table;
    try {
      table =
          catalog
              .buildTable(id, schema)
              .withPartitionSpec(spec.build())
              .withProperty(
                  TableProperties.FORMAT_VERSION, String.valueOf(settings.formatVersion()))
              // Every commit merges its new manifest into the others that fit the target
              // manifest size: a merge at commit leaves one data manifest, not two (the new
              // file's and its predecessor's DELETED entry), and a reader plans one manifest in
              // its own thread instead of polling a worker pool (docs/design.md#table-maintenance).
              .withProperty(TableProperties.MANIFEST_MIN_MERGE_COUNT, "2")
              .create();
      log.info("Created table {} (format v{}) with key {}", id, settings.formatVersion(), keyNames);
    } catch (AlreadyExistsException e) {
      table = catalog.loadTable(id);
    }
    tables.put(id, table);
    return table;
  }

  private static void createNamespace(SupportsNamespaces namespaces, Namespace namespace) {
    if (namespaces.namespaceExists(namespace)) {
      return;
    }
    try {
      namespaces.createNamespace(namespace);
    } catch (AlreadyExistsException e) {
      // Another task created it first.
    }
  }

  private static void checkKey(TableIdentifier id, Table table, Schema recordSchema) {
    List<String> tableKey = identifierNames(table.schema());
    List<String> recordKey = identifierNames(recordSchema);
    // The same columns are the same key, whatever their order: a table created before the key
    // columns led kept them in column order.
    if (!Set.copyOf(tableKey).equals(Set.copyOf(recordKey))) {
      throw new DataException(
          "table "
              + id
              + " has identifier fields "
              + tableKey
              + " but the records' primary key is "
              + recordKey
              + "; upserts need the table keyed by the same columns");
    }
  }

  /** The identifier fields in the order the schema keeps them (the key's, for our tables). */
  private static List<String> identifierNames(Schema schema) {
    return schema.identifierFieldIds().stream().map(schema::findColumnName).toList();
  }
}
