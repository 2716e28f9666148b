package io.sluice.tools.reconcile;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;

/**
 * Appends rows to an unpartitioned Iceberg table as one Parquet data file and one snapshot: how the
 * reconcile benchmark and tests build an Iceberg side without running the pipeline.
 */
public final class TableAppender implements AutoCloseable {
  private final Table table;
  private final DataWriter<Record> writer;
  private boolean closed;

  public TableAppender(Table table) {
    if (!table.spec().isUnpartitioned()) {
      throw new IllegalArgumentException("table " + table.name() + " is partitioned");
    }
    this.table = table;
    GenericFileWriterFactory factory =
        new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, System.nanoTime())
            .format(FileFormat.PARQUET)
            .build();
    this.writer = factory.newDataWriter(files.newOutputFile(), PartitionSpec.unpartitioned(), null);
  }

  public void append(Record row) {
    writer.write(row);
  }

  /** Closes the file and commits it as one append snapshot. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    try {
      writer.close();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot close a data file of " + table.name(), e);
    }
    table.newAppend().appendFile(writer.toDataFile()).commit();
  }
}
