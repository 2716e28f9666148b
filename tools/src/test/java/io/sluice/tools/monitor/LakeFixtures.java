package io.sluice.tools.monitor;

import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DataFiles;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileMetadata;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.types.Types;

/**
 * Tables committed to with Iceberg's own API, as the sinks commit: appends, row deltas with
 * equality deletes, deletes. The files are metadata only (a path and counts, nothing at the path):
 * the monitor must never need them.
 */
final class LakeFixtures {
  static final Schema ORDERS =
      new Schema(
          java.util.List.of(
              Types.NestedField.required(1, "order_id", Types.LongType.get()),
              Types.NestedField.optional(2, "status", Types.StringType.get())),
          java.util.Set.of(1));

  private LakeFixtures() {}

  /** An empty in-memory catalog (its files live in the JVM only). */
  static InMemoryCatalog inMemoryCatalog() {
    InMemoryCatalog catalog = new InMemoryCatalog();
    catalog.initialize(
        "mem-" + UUID.randomUUID(), Map.of("warehouse", "/mem/" + UUID.randomUUID()));
    return catalog;
  }

  /** A data file of {@code records} rows that exists in the metadata only. */
  static DataFile dataFile(Table table, long records) {
    return DataFiles.builder(PartitionSpec.unpartitioned())
        .withPath(table.location() + "/data/" + UUID.randomUUID() + ".parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(100 + records)
        .withRecordCount(records)
        .build();
  }

  /** An equality delete file on order_id of {@code rows} deleted keys, metadata only. */
  static DeleteFile equalityDeletes(Table table, long rows) {
    return FileMetadata.deleteFileBuilder(PartitionSpec.unpartitioned())
        .ofEqualityDeletes(1)
        .withPath(table.location() + "/data/" + UUID.randomUUID() + "-deletes.parquet")
        .withFormat(FileFormat.PARQUET)
        .withFileSizeInBytes(50 + rows)
        .withRecordCount(rows)
        .build();
  }

  /** Appends one data file of {@code records} rows: an {@code append} snapshot. */
  static DataFile append(Table table, long records) {
    DataFile file = dataFile(table, records);
    table.newAppend().appendFile(file).commit();
    return file;
  }

  /**
   * What the upsert sink commits: new rows and the equality deletes of their keys in one row delta
   * (an {@code overwrite} snapshot).
   */
  static void upsert(Table table, long rows, long deletedKeys) {
    table
        .newRowDelta()
        .addRows(dataFile(table, rows))
        .addDeletes(equalityDeletes(table, deletedKeys))
        .commit();
  }
}
