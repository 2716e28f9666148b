package io.sluice.lake;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/**
 * Opens the lakehouse's Iceberg catalog the way every Sluice component does (the upsert sink, the
 * tools, the stack and its scenarios): from a catalog object, i.e. properties exactly as {@code
 * CatalogUtil.buildIcebergCatalog} takes them plus {@code name} (the ready file's {@code
 * iceberg_catalog}), or from a catalog URI and warehouse given on the command line. The one place
 * that knows how the embedded stack's catalog is laid out.
 */
public final class Catalogs {
  /** Name of the embedded stack's catalog; JdbcCatalog stores it with every table. */
  public static final String EMBEDDED_NAME = "sluice";

  /** The catalog object's key for the catalog name (not a catalog property itself). */
  public static final String NAME = "name";

  private static final String RAW_LOCAL_FS = "org.apache.hadoop.fs.RawLocalFileSystem";
  private static final String HADOOP_CONFIGURATION = "org.apache.hadoop.conf.Configuration";

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
   * Opens a catalog from its properties ({@code name} names it; every other key goes to {@code
   * CatalogUtil.buildIcebergCatalog}). A local ({@code file:}) warehouse is read through Hadoop's
   * raw local file system, which writes no {@code .crc} side files.
   */
  public static LakeCatalog open(Map<String, String> catalogObject) {
    return open(catalogObject, Map.of());
  }

  /**
   * As {@link #open(Map)}, with Hadoop settings on top of the local-warehouse default. Hadoop is
   * optional: a catalog on S3 with {@code io-impl=org.apache.iceberg.aws.s3.S3FileIO} (compose's
   * REST catalog) needs none, and an image without Hadoop's jars still opens it.
   *
   * @throws IllegalArgumentException when {@code hadoop} is not empty and Hadoop is missing
   */
  public static LakeCatalog open(Map<String, String> catalogObject, Map<String, String> hadoop) {
    Map<String, String> properties = new LinkedHashMap<>(catalogObject);
    String name = properties.remove(NAME);
    if (name == null || name.isBlank()) {
      name = EMBEDDED_NAME;
    }
    Object conf = hadoopConf(properties.getOrDefault("warehouse", ""), hadoop);
    Catalog catalog = CatalogUtil.buildIcebergCatalog(name, properties, conf);
    Map<String, String> object = new LinkedHashMap<>();
    object.put(NAME, name);
    object.putAll(properties);
    return new LakeCatalog(object, catalog);
  }

  /** A Hadoop configuration when Hadoop is on the classpath, else null (Iceberg accepts null). */
  private static Object hadoopConf(String warehouse, Map<String, String> hadoop) {
    try {
      Class.forName(HADOOP_CONFIGURATION, false, Catalogs.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      if (!hadoop.isEmpty()) {
        throw new IllegalArgumentException(
            "Hadoop settings "
                + hadoop.keySet()
                + " were given but Hadoop is not on the classpath");
      }
      return null;
    }
    return LocalHadoop.conf(warehouse, hadoop);
  }

  /** Loaded only when Hadoop is there: the only class here that names Hadoop's. */
  private static final class LocalHadoop {
    static Object conf(String warehouse, Map<String, String> hadoop) {
      org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
      if (warehouse.startsWith("file:") || warehouse.startsWith("/")) {
        conf.set("fs.file.impl", RAW_LOCAL_FS);
      }
      hadoop.forEach(conf::set);
      return conf;
    }
  }
}
