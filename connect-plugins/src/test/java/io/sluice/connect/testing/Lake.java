package io.sluice.connect.testing;

import io.sluice.lake.offsets.IcebergOffsets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.kafka.common.TopicPartition;

/** A JdbcCatalog on SQLite with a local warehouse under a test directory, and a reader. */
public final class Lake implements AutoCloseable {
  private final Map<String, String> catalogProperties;
  private final Catalog catalog;

  public Lake(Path dir) {
    catalogProperties = new HashMap<>();
    catalogProperties.put("type", "jdbc");
    catalogProperties.put("uri", "jdbc:sqlite:" + dir.resolve("catalog.db"));
    catalogProperties.put("jdbc.schema-version", "V1");
    catalogProperties.put("warehouse", dir.resolve("warehouse").toUri().toString());
    Configuration hadoop = new Configuration();
    hadoop.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
    catalog = CatalogUtil.buildIcebergCatalog("lake", catalogProperties, hadoop);
  }

  /** The catalog as the ready file's {@code iceberg_catalog} object. */
  public Map<String, String> catalogObject() {
    Map<String, String> props = new HashMap<>(catalogProperties);
    props.put("name", "lake");
    return props;
  }

  /** The connector keys that point a sink at this catalog. */
  public Map<String, String> connectorProperties() {
    Map<String, String> props = new HashMap<>();
    catalogProperties.forEach((k, v) -> props.put("iceberg.catalog." + k, v));
    props.put("iceberg.catalog.name", "lake");
    props.put("iceberg.hadoop.fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
    return props;
  }

  public Catalog catalog() {
    return catalog;
  }

  public boolean exists(TableIdentifier id) {
    return catalog.tableExists(id);
  }

  public Table table(TableIdentifier id) {
    return catalog.loadTable(id);
  }

  /** Every row as Iceberg's own reader sees it (deletes applied), sorted by {@code sortColumn}. */
  public List<Record> rows(TableIdentifier id, String sortColumn) {
    Table table = catalog.loadTable(id);
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      records.forEach(r -> rows.add(r.copy()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    rows.sort(Comparator.comparing(r -> (Comparable<Object>) r.getField(sortColumn)));
    return rows;
  }

  /** Offsets the table holds for {@code connector}. */
  public Map<TopicPartition, Long> offsets(TableIdentifier id, String connector) {
    return IcebergOffsets.all(catalog.loadTable(id), connector);
  }

  @Override
  public void close() throws IOException {
    if (catalog instanceof AutoCloseable closeable) {
      try {
        closeable.close();
      } catch (IOException | RuntimeException e) {
        throw e;
      } catch (Exception e) {
        throw new IOException(e);
      }
    }
  }
}
