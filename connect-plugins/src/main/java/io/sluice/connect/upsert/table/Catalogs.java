package io.sluice.connect.upsert.table;

import io.sluice.connect.upsert.config.UpsertSinkConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/**
 * Builds the Iceberg catalog from the {@code iceberg.catalog.*} and {@code iceberg.hadoop.*} keys.
 */
public final class Catalogs {
  private Catalogs() {}

  public static Catalog build(UpsertSinkConfig config) {
    Map<String, String> properties = new HashMap<>(config.catalogProperties());
    properties.remove("name");
    Configuration hadoop = new Configuration();
    config.hadoopProperties().forEach(hadoop::set);
    return CatalogUtil.buildIcebergCatalog(config.catalogName(), properties, hadoop);
  }
}
