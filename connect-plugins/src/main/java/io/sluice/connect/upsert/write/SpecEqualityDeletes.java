package io.sluice.connect.upsert.write;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingEqualityDeleteWriter;
import org.apache.iceberg.util.StructLikeMap;

/**
 * Equality deletes of keys in partition specs other than the one a batch's rows are written in
 * ({@link KeyDeleteTargets#byKey()}): each key's delete at the key's partition in each of those
 * specs, so that it reaches the key's rows in their files; in an unpartitioned spec one file, which
 * reaches every partition of every spec.
 */
final class SpecEqualityDeletes {
  private final Table table;
  private final FileWriterFactory<Record> writers;
  private final OutputFileFactory files;
  private final long targetFileSizeBytes;
  private final List<PartitionSpec> specs;
  private final List<PartitionKey> partitionKeys = new ArrayList<>();
  private final List<Map<StructLike, RollingEqualityDeleteWriter<Record>>> open = new ArrayList<>();
  private final InternalRecordWrapper rowWrapper;
  private final List<DeleteFile> written = new ArrayList<>();

  /**
   * @param writers writes equality deletes of the table's identifier fields, rows of the key schema
   * @param specs specs whose partition fields are all transforms of key columns (or none)
   */
  SpecEqualityDeletes(
      Table table,
      Schema schema,
      FileWriterFactory<Record> writers,
      OutputFileFactory files,
      long targetFileSizeBytes,
      List<PartitionSpec> specs) {
    this.table = table;
    this.writers = writers;
    this.files = files;
    this.targetFileSizeBytes = targetFileSizeBytes;
    this.specs = specs;
    for (PartitionSpec spec : specs) {
      partitionKeys.add(new PartitionKey(spec, schema));
      open.add(StructLikeMap.create(spec.partitionType()));
    }
    this.rowWrapper = new InternalRecordWrapper(schema.asStruct());
  }

  /**
   * @param key the key, a row of the key schema
   * @param asRow a row of the table schema with the key's columns set (the new row, or the key)
   */
  void delete(Record key, Record asRow) {
    for (int i = 0; i < specs.size(); i++) {
      PartitionSpec spec = specs.get(i);
      PartitionKey partition = partitionKeys.get(i);
      partition.partition(rowWrapper.wrap(asRow));
      Map<StructLike, RollingEqualityDeleteWriter<Record>> bySpec = open.get(i);
      RollingEqualityDeleteWriter<Record> writer = bySpec.get(partition);
      if (writer == null) {
        StructLike copy = partition.copy();
        writer =
            new RollingEqualityDeleteWriter<>(
                writers,
                files,
                table.io(),
                targetFileSizeBytes,
                spec,
                spec.isUnpartitioned() ? null : copy);
        bySpec.put(copy, writer);
      }
      writer.write(key);
    }
  }

  /** Closes the files; the delete files written. */
  List<DeleteFile> complete() throws IOException {
    close();
    return written;
  }

  /** Closes and deletes every file written. */
  void abort() throws IOException {
    try {
      close();
    } finally {
      written.forEach(f -> table.io().deleteFile(f.location()));
    }
  }

  private void close() throws IOException {
    for (Map<StructLike, RollingEqualityDeleteWriter<Record>> bySpec : open) {
      Iterator<RollingEqualityDeleteWriter<Record>> writers = bySpec.values().iterator();
      while (writers.hasNext()) {
        RollingEqualityDeleteWriter<Record> writer = writers.next();
        writers.remove();
        writer.close();
        written.addAll(writer.result().deleteFiles());
      }
    }
  }
}
