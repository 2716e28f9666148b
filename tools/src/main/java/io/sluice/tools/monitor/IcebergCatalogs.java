package io.sluice.tools.monitor;

import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.catalog.Catalog;

/**
 * Opens the catalog of {@link IcebergSettings#catalog()}. Hadoop is optional: a catalog on S3 with
 * {@code io-impl=org.apache.iceberg.aws.s3.S3FileIO} (compose's REST catalog) needs none, and the
 * monitor's image leaves it out; a local warehouse (the embedded stack's JdbcCatalog, whose default
 * FileIO is Hadoop's) gets a Hadoop configuration when Hadoop's classes are there.
 */
final class IcebergCatalogs {
  private static final String HADOOP_CONFIGURATION = "org.apache.hadoop.conf.Configuration";

  private IcebergCatalogs() {}

  /**
   * Opens (and, for a REST catalog, connects to) the catalog.
   *
   * @throws RuntimeException what Iceberg throws when the catalog cannot be built or reached
   */
  static Catalog open(IcebergSettings settings) {
    Map<String, String> properties = new LinkedHashMap<>(settings.catalog());
    properties.remove(IcebergSettings.NAME);
    return CatalogUtil.buildIcebergCatalog(
        settings.catalogName(), properties, hadoopConf(properties));
  }

  /** A Hadoop configuration when Hadoop is on the classpath, else null (Iceberg accepts null). */
  private static Object hadoopConf(Map<String, String> properties) {
    try {
      Class.forName(HADOOP_CONFIGURATION, false, IcebergCatalogs.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      return null;
    }
    return LocalHadoop.conf(properties.getOrDefault("warehouse", ""));
  }

  /** Loaded only when Hadoop is there: the only class here that names Hadoop's. */
  private static final class LocalHadoop {
    static Object conf(String warehouse) {
      org.apache.hadoop.conf.Configuration conf = new org.apache.hadoop.conf.Configuration();
      if (warehouse.startsWith("file:") || warehouse.startsWith("/")) {
        // As the sinks write the embedded warehouse: no .crc side files.
        conf.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
      }
      return conf;
    }
  }
}
