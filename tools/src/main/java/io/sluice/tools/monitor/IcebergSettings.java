package io.sluice.tools.monitor;

import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The Iceberg part of {@link MonitorSettings}: which catalog the monitor reads table metadata from,
 * which tables, and how often. Off when {@link #catalog()} is null.
 *
 * @param catalog the catalog's properties as {@code CatalogUtil.buildIcebergCatalog} takes them,
 *     plus {@code name} (the {@code iceberg_catalog} object of the ready file); null for no Iceberg
 *     part
 * @param tables namespaces ({@code cdc_lab}: its tables) and tables ({@code
 *     cdc_lab.orders_current}); empty for every table of every namespace. Re-listed each refresh.
 * @param refreshInterval the time between the end of one Iceberg refresh and the start of the next
 */
public record IcebergSettings(
    Map<String, String> catalog, List<String> tables, Duration refreshInterval) {

  /** The catalog object's key for the catalog name (not a catalog property itself). */
  public static final String NAME = "name";

  /** The name a catalog without {@value #NAME} gets. */
  public static final String DEFAULT_NAME = "sluice";

  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(10);

  /** No Iceberg part; every table and 10 s once a catalog is set. */
  public static final IcebergSettings NONE =
      new IcebergSettings(null, List.of(), DEFAULT_REFRESH_INTERVAL);

  // Dotted names with non-empty parts: a namespace level or a table name may not be empty.
  private static final Pattern DOTTED = Pattern.compile("[^.\\s][^.]*(\\.[^.\\s][^.]*)*");

  public IcebergSettings {
    if (catalog != null) {
      Map<String, String> copy = new LinkedHashMap<>();
      catalog.forEach(
          (key, value) -> {
            if (key == null || key.isBlank() || value == null) {
              // The value is not shown: it may be a credential.
              throw new IllegalArgumentException(
                  "icebergCatalog properties need a non-blank key and a value, got the key '"
                      + key
                      + "'"
                      + (value == null ? " without a value" : ""));
            }
            copy.put(key, value);
          });
      if (blank(copy.get("type")) && blank(copy.get("catalog-impl"))) {
        throw new IllegalArgumentException(
            "icebergCatalog must name its type (type=jdbc|rest|...) or catalog-impl, got the keys "
                + copy.keySet());
      }
      catalog = Collections.unmodifiableMap(copy);
    }
    if (tables == null) {
      throw new IllegalArgumentException("icebergTables must be a list (empty for every table)");
    }
    for (String entry : tables) {
      if (entry == null || !DOTTED.matcher(entry).matches()) {
        throw new IllegalArgumentException(
            "icebergTables entries are namespaces or namespace.table, got '" + entry + "'");
      }
    }
    tables = List.copyOf(tables);
    if (refreshInterval == null
        || refreshInterval.compareTo(MonitorSettings.MIN_REFRESH_INTERVAL) < 0) {
      throw new IllegalArgumentException(
          "icebergRefreshInterval must be at least "
              + MonitorSettings.MIN_REFRESH_INTERVAL.toMillis()
              + " ms, got "
              + (refreshInterval == null ? "null" : refreshInterval.toMillis() + " ms"));
    }
  }

  /** True when the monitor reads an Iceberg catalog. */
  public boolean enabled() {
    return catalog != null;
  }

  /** The catalog's name: its {@value #NAME} property, else {@value #DEFAULT_NAME}. */
  public String catalogName() {
    String name = catalog == null ? null : catalog.get(NAME);
    return blank(name) ? DEFAULT_NAME : name;
  }

  /** The catalog's type, its URI and warehouse as far as given: for logs, without credentials. */
  public String describeCatalog() {
    if (catalog == null) {
      return "none";
    }
    StringBuilder text = new StringBuilder(catalogName());
    for (String key : List.of("type", "catalog-impl", "uri", "warehouse")) {
      if (catalog.containsKey(key)) {
        text.append(' ').append(key).append('=').append(catalog.get(key));
      }
    }
    return text.toString();
  }

  /** These settings with {@code catalog} (null turns the Iceberg part off). */
  public IcebergSettings withCatalog(Map<String, String> catalog) {
    return new IcebergSettings(catalog, tables, refreshInterval);
  }

  public IcebergSettings withTables(List<String> tables) {
    return new IcebergSettings(catalog, tables, refreshInterval);
  }

  public IcebergSettings withRefreshInterval(Duration interval) {
    return new IcebergSettings(catalog, tables, interval);
  }

  /** Never the catalog's properties: they may hold credentials. */
  @Override
  public String toString() {
    return "IcebergSettings[catalog="
        + describeCatalog()
        + ", tables="
        + (tables.isEmpty() ? "all" : tables)
        + ", refreshInterval="
        + refreshInterval
        + "]";
  }

  private static boolean blank(String value) {
    return value == null || value.isBlank();
  }
}
