package io.sluice.connect.guard;

import io.sluice.observe.config.ConfigTable;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.AbstractConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigDef.Importance;
import org.apache.kafka.common.config.ConfigDef.Range;
import org.apache.kafka.common.config.ConfigDef.Type;
import org.apache.kafka.common.config.ConfigDef.Width;

/**
 * Configuration of {@link ChangelogGuard}, declared once. Its catalog keys are the Apache Iceberg
 * sink's own ({@code iceberg.catalog}, {@code iceberg.catalog.<key>}, {@code
 * iceberg.hadoop.<key>}), so the guard is given exactly the catalog the sink writes to.
 */
public final class ChangelogGuardConfig extends AbstractConfig {
  /** Keys under this prefix (stripped) are the Iceberg catalog's properties. */
  public static final String CATALOG_PREFIX = "iceberg.catalog.";

  /** Keys under this prefix (stripped) go into the Hadoop {@code Configuration} of the catalog. */
  public static final String HADOOP_PREFIX = "iceberg.hadoop.";

  private static final String GROUP = "Changelog guard";

  public static final String CATALOG_NAME_CONFIG = "iceberg.catalog";
  public static final String CATALOG_NAME_DEFAULT = "iceberg";
  public static final String CATALOG_NAME_DOC =
      "Name of the Iceberg catalog, as the Apache sink's iceberg.catalog. Every"
          + " `iceberg.catalog.<key>` (type, uri, warehouse, io-impl, ...) is a property of that"
          + " catalog and every `iceberg.hadoop.<key>` a Hadoop setting, as the sink takes them:"
          + " give the guard the sink's own.";

  public static final String ROUTE_FIELD_CONFIG = "route.field";
  public static final String ROUTE_FIELD_DEFAULT = "_cdc.target";
  public static final String ROUTE_FIELD_DOC =
      "Field of the transformed value (dots for nested fields) holding the record's table, as the"
          + " sink's iceberg.tables.route-field with iceberg.tables.dynamic-enabled: its value,"
          + " lower-cased, is the table (`namespace.table`). A record without it passes.";

  public static final String SCHEMA_EVOLUTION_CONFIG = "schema.evolution";
  public static final String SCHEMA_EVOLUTION_DOC =
      "Whether the sink evolves its tables (its iceberg.tables.evolve-schema-enabled). When true, a"
          + " long into an int column, a double into a float column and an optional field into a"
          + " required column pass (the sink widens the column or makes it optional); when false"
          + " they are refused. A field without a column passes either way (the sink adds the"
          + " column, or drops the value).";

  public static final String TABLE_REFRESH_INTERVAL_MS_CONFIG = "table.refresh.interval.ms";
  public static final String TABLE_REFRESH_INTERVAL_MS_DOC =
      "A record that does not fit its table's cached schema is checked again against the schema"
          + " the catalog has now before it is refused (the table may have evolved), unless that"
          + " schema was loaded within this interval; a table that does not exist yet (its records"
          + " pass) is looked up again after this long. Bounds the catalog loads a run of unfit"
          + " records costs.";

  private static final ConfigDef CONFIG_DEF = define();

  public ChangelogGuardConfig(Map<String, ?> props) {
    super(CONFIG_DEF, props);
  }

  /** The catalog as {@code io.sluice.lake.Catalogs} opens it: its properties plus {@code name}. */
  public Map<String, String> catalogObject() {
    Map<String, String> catalog = new LinkedHashMap<>();
    originalsWithPrefix(CATALOG_PREFIX).forEach((k, v) -> catalog.put(k, String.valueOf(v)));
    catalog.put("name", getString(CATALOG_NAME_CONFIG));
    return catalog;
  }

  /** The Hadoop settings of the catalog. */
  public Map<String, String> hadoop() {
    Map<String, String> hadoop = new LinkedHashMap<>();
    originalsWithPrefix(HADOOP_PREFIX).forEach((k, v) -> hadoop.put(k, String.valueOf(v)));
    return hadoop;
  }

  public String routeField() {
    return getString(ROUTE_FIELD_CONFIG);
  }

  public boolean schemaEvolution() {
    return getBoolean(SCHEMA_EVOLUTION_CONFIG);
  }

  public long tableRefreshIntervalMs() {
    return getLong(TABLE_REFRESH_INTERVAL_MS_CONFIG);
  }

  /** The table of these keys in docs/configuration.md ({@code sluice config-docs}). */
  public static ConfigTable docsTable() {
    return new ConfigTable("changelog-guard-config", "changelog guard configuration", configDef());
  }

  /** Every declared key with doc, default, validator, importance and group. */
  public static ConfigDef configDef() {
    return new ConfigDef(CONFIG_DEF);
  }

  private static ConfigDef define() {
    ConfigDef def = new ConfigDef();
    int order = 0;
    def.define(
        CATALOG_NAME_CONFIG,
        Type.STRING,
        CATALOG_NAME_DEFAULT,
        new ConfigDef.NonEmptyString(),
        Importance.HIGH,
        CATALOG_NAME_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Iceberg catalog");
    def.define(
        ROUTE_FIELD_CONFIG,
        Type.STRING,
        ROUTE_FIELD_DEFAULT,
        new ConfigDef.NonEmptyString(),
        Importance.HIGH,
        ROUTE_FIELD_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Route field");
    def.define(
        SCHEMA_EVOLUTION_CONFIG,
        Type.BOOLEAN,
        true,
        Importance.HIGH,
        SCHEMA_EVOLUTION_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Schema evolution");
    def.define(
        TABLE_REFRESH_INTERVAL_MS_CONFIG,
        Type.LONG,
        1_000L,
        Range.atLeast(0),
        Importance.LOW,
        TABLE_REFRESH_INTERVAL_MS_DOC,
        GROUP,
        ++order,
        Width.SHORT,
        "Table refresh interval");
    return def;
  }
}
