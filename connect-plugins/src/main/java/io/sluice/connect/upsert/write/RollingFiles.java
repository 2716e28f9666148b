package io.sluice.connect.upsert.write;

import java.util.UUID;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.RollingDataWriter;

/** Writers of rows of one partition into new Parquet data files of about a target size. */
public final class RollingFiles {
  private RollingFiles() {}

  /**
   * @param schema the schema the files are written in (the table's current one)
   * @param taskId the Connect task index, part of every file name
   * @param attempt a number new for each writer of the task, part of every file name
   * @param operation what writes them ({@code merge}, {@code maintenance}), part of every name
   * @param partition the partition tuple; ignored for an unpartitioned spec
   */
  public static RollingDataWriter<Record> open(
      Table table,
      Schema schema,
      int taskId,
      long attempt,
      String operation,
      long targetFileSizeBytes,
      PartitionSpec spec,
      StructLike partition) {
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(schema)
            .dataFileFormat(FileFormat.PARQUET)
            .build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, taskId, attempt)
            .format(FileFormat.PARQUET)
            .operationId(operation + "-" + UUID.randomUUID())
            .build();
    return new RollingDataWriter<>(
        writers,
        files,
        table.io(),
        targetFileSizeBytes,
        spec,
        spec.isUnpartitioned() ? null : partition);
  }
}
