package io.sluice.spark;

import java.nio.file.Path;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * A Spark driver in this JVM, kept small for a shared 2-core machine: {@code local[1]}, no UI,
 * bound to loopback, its scratch files under one directory, and Iceberg's SQL extensions for {@code
 * CALL}. Each test gets a session of its own with its sink's catalog ({@link #sessionFor}).
 */
final class LocalSpark implements AutoCloseable {
  private static final String CATALOG_PREFIX = "iceberg.catalog.";

  private final SparkSession root;

  LocalSpark(Path scratch) {
    root =
        SparkSession.builder()
            .appName("sluice-spark-tests")
            .master("local[1]")
            .config("spark.ui.enabled", "false")
            .config("spark.driver.host", "127.0.0.1")
            .config("spark.driver.bindAddress", "127.0.0.1")
            .config("spark.local.dir", scratch.resolve("local").toString())
            .config(
                "spark.sql.warehouse.dir", scratch.resolve("spark-warehouse").toUri().toString())
            .config("spark.sql.catalogImplementation", "in-memory")
            .config("spark.sql.shuffle.partitions", "1")
            .config("spark.default.parallelism", "1")
            .config(
                "spark.sql.extensions",
                "org.apache.iceberg.spark.extensions.IcebergSparkSessionExtensions")
            // Hadoop caches one FileSystem per scheme for the whole JVM, whatever the
            // configuration asking: the test sinks' is a RawLocalFileSystem (no .crc files), whose
            // getScheme() Iceberg's Spark scan calls and Hadoop does not implement. Spark gets a
            // LocalFileSystem of its own, as it would in its own JVM.
            .config("spark.hadoop.fs.file.impl.disable.cache", "true")
            .getOrCreate();
  }

  /**
   * A session of its own (sharing this driver) that sees the catalog a sink writes, configured from
   * the sink's connector properties as a user would on the {@code spark-sql} command line: each
   * {@code iceberg.catalog.<key>} becomes {@code spark.sql.catalog.<name>.<key>}, under the sink's
   * own catalog name, since a JdbcCatalog keeps its tables under its name. Tables are loaded fresh
   * at every statement (no caching), so each rewrite starts from the newest snapshot.
   */
  SparkSession sessionFor(Map<String, String> sinkProperties) {
    SparkSession session = root.newSession();
    String prefix = "spark.sql.catalog." + catalogName(sinkProperties);
    session.conf().set(prefix, "org.apache.iceberg.spark.SparkCatalog");
    sinkProperties.forEach(
        (key, value) -> {
          if (key.startsWith(CATALOG_PREFIX) && !key.equals(CATALOG_PREFIX + "name")) {
            session.conf().set(prefix + "." + key.substring(CATALOG_PREFIX.length()), value);
          }
        });
    session.conf().set(prefix + ".cache-enabled", "false");
    return session;
  }

  /** The name a sink's catalog has in the sessions of {@link #sessionFor}. */
  static String catalogName(Map<String, String> sinkProperties) {
    return sinkProperties.get(CATALOG_PREFIX + "name");
  }

  @Override
  public void close() {
    root.stop();
  }
}
