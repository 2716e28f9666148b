package io.sluice.lake;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** An open Iceberg catalog (from {@link Catalogs}); closing it releases its connections. */
public final class LakeCatalog implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(LakeCatalog.class);

  private final Map<String, String> properties;
  private final Catalog catalog;

  LakeCatalog(Map<String, String> properties, Catalog catalog) {
    this.properties = Collections.unmodifiableMap(new LinkedHashMap<>(properties));
    this.catalog = catalog;
  }

  /** The catalog object it was opened from, {@code name} included. */
  public Map<String, String> properties() {
    return properties;
  }

  public Catalog catalog() {
    return catalog;
  }

  /**
   * The table {@code namespace.table}.
   *
   * @throws NoSuchTableException naming the table and the catalog
   */
  public Table table(String qualifiedName) {
    TableIdentifier id = TableIdentifier.parse(qualifiedName);
    if (!catalog.tableExists(id)) {
      throw new NoSuchTableException(
          "no table %s in catalog %s (%s)", qualifiedName, catalog.name(), properties.get("uri"));
    }
    return catalog.loadTable(id);
  }

  @Override
  public void close() {
    if (catalog instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (Exception e) {
        log.warn("Closing Iceberg catalog {} failed: {}", catalog.name(), e.toString());
      }
    }
  }
}
