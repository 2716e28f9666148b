package io.sluice.connect.upsert;

import io.sluice.connect.upsert.write.RowLineage;
import io.sluice.lake.SameThreadExecutor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Another engine's compaction, as Spark's {@code rewrite_data_files} commits it: every data file of
 * a snapshot S into one per partition of the current spec (files of older specs too), {@code
 * validateFromSnapshot(S)} and S's sequence number as the data sequence number of the new files;
 * delete files are left alone. Its own catalog client, as another engine would have.
 */
public final class ExternalCompaction {
  private final Catalog catalog;
  private final TableIdentifier id;
  private final AtomicInteger committed = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();

  public ExternalCompaction(Catalog catalog, TableIdentifier id) {
    this.catalog = catalog;
    this.id = id;
  }

  public int committed() {
    return committed.get();
  }

  public int refused() {
    return refused.get();
  }

  /** One compaction; a commit Iceberg refuses (files changed meanwhile) is given up. */
  public void compactOnce() {
    Table table = catalog.loadTable(id);
    Snapshot base = table.currentSnapshot();
    Map<String, DataFile> replaced = new LinkedHashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        table.newScan().useSnapshot(base.snapshotId()).planFiles()) {
      tasks.forEach(t -> replaced.putIfAbsent(t.file().location(), t.file()));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    if (replaced.isEmpty()) {
      // Nothing to compact (every row deleted), as rewrite_data_files then commits nothing.
      return;
    }
    // None when every row is deleted: the files are replaced by none, as Spark then commits.
    List<DataFile> compacted = write(table, base);
    RewriteFiles rewrite =
        table
            .newRewrite()
            .validateFromSnapshot(base.snapshotId())
            .dataSequenceNumber(base.sequenceNumber());
    replaced.values().forEach(rewrite::deleteFile);
    compacted.forEach(rewrite::addFile);
    try {
      SameThreadExecutor.manifestsOnThisThread(rewrite).commit();
      committed.incrementAndGet();
    } catch (ValidationException e) {
      compacted.forEach(f -> table.io().deleteFile(f.location()));
      refused.incrementAndGet();
      org.slf4j.LoggerFactory.getLogger(ExternalCompaction.class)
          .info("External compaction of {} refused: {}", id, e.getMessage());
    }
  }

  private static List<DataFile> write(Table table, Snapshot base) {
    // Lineage kept, as Spark's rewrite_data_files keeps it on v3.
    Schema carried = RowLineage.carried(table, table.schema());
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(carried)
            .dataFileFormat(FileFormat.PARQUET)
            .build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 99, 1)
            .format(FileFormat.PARQUET)
            .operationId("external-" + UUID.randomUUID())
            .build();
    List<Record> rows = new ArrayList<>();
    try (CloseableIterable<Record> records =
        IcebergGenerics.read(table).useSnapshot(base.snapshotId()).project(carried).build()) {
      records.forEach(rows::add);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    PartitionSpec spec = table.spec();
    PartitionKey key = new PartitionKey(spec, table.schema());
    InternalRecordWrapper wrapper = new InternalRecordWrapper(carried.asStruct());
    Map<PartitionKey, List<Record>> byPartition = new LinkedHashMap<>();
    for (Record row : rows) {
      key.partition(wrapper.wrap(row));
      byPartition.computeIfAbsent(key.copy(), k -> new ArrayList<>()).add(row);
    }
    List<DataFile> written = new ArrayList<>();
    byPartition.forEach(
        (partition, part) -> {
          StructLike tuple = spec.isUnpartitioned() ? null : partition;
          DataWriter<Record> writer =
              writers.newDataWriter(files.newOutputFile(spec, tuple), spec, tuple);
          try {
            try (writer) {
              part.forEach(writer::write);
            }
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
          written.add(writer.toDataFile());
        });
    return written;
  }
}
