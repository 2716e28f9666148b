package io.sluice.lab.iceberg;

import io.sluice.lab.stack.ReadyFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/**
 * Opens the lakehouse's Iceberg catalog the way every Sluice tool does: from the ready file's
 * {@code iceberg_catalog} object (properties exactly as {@code CatalogUtil.buildIcebergCatalog}
 * takes them, plus {@code name}), or from a catalog URI and warehouse given on the command line.
 * The one place that knows how the embedded stack's catalog is laid out.
 */
public final class Catalogs {
  /** Name of the embedded stack's catalog; JdbcCatalog stores it with every table. */
  public static final String EMBEDDED_NAME = "sluice";

  /** The catalog object's key for the catalog name (not a catalog property itself). */
  public static final String NAME = "name";

  private static final String RAW_LOCAL_FS = "org.apache.hadoop.fs.RawLocalFileSystem";

  private Catalogs() {}

  /**
   * The embedded stack's catalog: a JdbcCatalog on SQLite at {@code <icebergDir>/catalog.db} with
   * the warehouse {@code <icebergDir>/warehouse}, as the ready file's {@code iceberg_catalog}.
   */
  public static Map<String, String> embedded(Path icebergDir) {
    Path dir = icebergDir.toAbsolutePath().normalize();
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(NAME, EMBEDDED_NAME);
    properties.put("type", "jdbc");
    properties.put("uri", "jdbc:sqlite:" + dir.resolve("catalog.db"));
    properties.put("jdbc.schema-version", "V1");
    // toUri() ends with '/' only when the directory exists already: keep the value stable.
    String warehouse = dir.resolve("warehouse").toUri().toString();
    properties.put(
        "warehouse",
        warehouse.endsWith("/") ? warehouse.substring(0, warehouse.length() - 1) : warehouse);
    return properties;
  }

  /**
   * A catalog object for {@code uri}: {@code jdbc:...} is a JdbcCatalog (schema version V1, as the
   * stack writes it), {@code http(s)://...} a REST catalog.
   *
   * @param warehouse the warehouse location; required for a JDBC catalog
   */
  public static Map<String, String> forUri(String name, String uri, String warehouse) {
    Map<String, String> properties = new LinkedHashMap<>();
    properties.put(NAME, name);
    if (uri.startsWith("jdbc:")) {
      if (warehouse == null || warehouse.isBlank()) {
        throw new IllegalArgumentException("a JDBC catalog (" + uri + ") needs a warehouse");
      }
      properties.put("type", "jdbc");
      properties.put("jdbc.schema-version", "V1");
    } else if (uri.startsWith("http://") || uri.startsWith("https://")) {
      properties.put("type", "rest");
    } else {
      throw new IllegalArgumentException(
          "catalog URI " + uri + " is neither jdbc:... nor http(s)://...");
    }
    properties.put("uri", uri);
    if (warehouse != null && !warehouse.isBlank()) {
      properties.put("warehouse", warehouse);
    }
    return properties;
  }

  /**
   * Opens the catalog named by a ready file's {@code iceberg_catalog}.
   *
   * @throws IllegalArgumentException when the file is missing or has no catalog
   */
  public static LakeCatalog fromReadyFile(Path readyFile) {
    if (!Files.exists(readyFile)) {
      throw new IllegalArgumentException(
          "no ready file at "
              + readyFile.toAbsolutePath()
              + "; start the stack with `scripts/sluice up --ready-file "
              + readyFile
              + "` or give the catalog URI and warehouse");
    }
    Object catalog = new ReadyFile(readyFile).read().get(ReadyFile.ICEBERG_CATALOG);
    if (!(catalog instanceof Map<?, ?> object)) {
      throw new IllegalArgumentException(
          "ready file " + readyFile + " has no " + ReadyFile.ICEBERG_CATALOG + " object");
    }
    Map<String, String> properties = new LinkedHashMap<>();
    object.forEach(
        (k, v) -> {
          if (v != null) {
            properties.put(String.valueOf(k), v.toString());
          }
        });
    return open(properties);
  }

  /**
   * Opens a catalog from its properties ({@code name} names it; every other key goes to {@code
   * CatalogUtil.buildIcebergCatalog}). A local ({@code file:}) warehouse is read through Hadoop's
   * raw local file system, which writes no {@code .crc} side files.
   */
  public static LakeCatalog open(Map<String, String> catalogObject) {
    Map<String, String> properties = new LinkedHashMap<>(catalogObject);
    String name = properties.remove(NAME);
    if (name == null || name.isBlank()) {
      name = EMBEDDED_NAME;
    }
    Catalog catalog = CatalogUtil.buildIcebergCatalog(name, properties, hadoopConf(properties));
    Map<String, String> object = new LinkedHashMap<>();
    object.put(NAME, name);
    object.putAll(properties);
    return new LakeCatalog(object, catalog);
  }

  private static Configuration hadoopConf(Map<String, String> properties) {
    Configuration conf = new Configuration();
    String warehouse = properties.getOrDefault("warehouse", "");
    if (warehouse.startsWith("file:") || warehouse.startsWith("/")) {
      conf.set("fs.file.impl", RAW_LOCAL_FS);
    }
    return conf;
  }
}
