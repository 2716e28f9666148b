package io.sluice.connect.upsert.write;

import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.event.Operation;
import io.sluice.connect.upsert.types.RecordConverter;
import java.io.IOException;
import java.util.List;
import java.util.UUID;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.WriteResult;
import org.apache.kafka.connect.errors.DataException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a prepared batch (one event per key) into new data and delete files of a table, not yet
 * committed. On failure the files written so far are deleted and the error names the record.
 */
public final class BatchWriter {
  private static final Logger log = LoggerFactory.getLogger(BatchWriter.class);

  private final int taskId;
  private long attempt;

  /**
   * @param taskId the Connect task index, part of every file name
   */
  public BatchWriter(int taskId) {
    this.taskId = taskId;
  }

  /**
   * @param excludedField a row field that is not a column, or null
   * @throws DataException naming topic, partition and offset of the record that failed
   */
  public WriteResult write(Table table, List<ChangeEvent> batch, String excludedField) {
    Schema schema = table.schema();
    RecordConverter converter = new RecordConverter(schema);
    Schema keySchema = converter.keySchema();
    GenericFileWriterFactory writerFactory =
        new GenericFileWriterFactory.Builder(table)
            .dataSchema(schema)
            .dataFileFormat(FileFormat.PARQUET)
            .deleteFileFormat(FileFormat.PARQUET)
            .equalityFieldIds(schema.identifierFieldIds().stream().mapToInt(i -> i).toArray())
            .equalityDeleteRowSchema(keySchema)
            .build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, taskId, ++attempt)
            .format(FileFormat.PARQUET)
            .operationId(UUID.randomUUID().toString())
            .build();
    boolean useDv = TableUtil.formatVersion(table) >= 3;
    UpsertTaskWriter writer =
        new UpsertTaskWriter(table, schema, keySchema, writerFactory, files, useDv);
    ChangeEvent current = null;
    try {
      for (ChangeEvent event : batch) {
        current = event;
        if (event.operation() == Operation.UPSERT) {
          writer.upsert(
              converter.row(event.row(), event.key(), excludedField), converter.key(event.key()));
        } else {
          writer.delete(converter.key(event.key()), converter.keyAsRow(event.key()));
        }
      }
      current = null;
      return writer.complete();
    } catch (IOException | RuntimeException e) {
      abort(writer, table);
      String where = current == null ? "closing the batch's files" : current.coordinates();
      throw new DataException(
          "cannot write to table " + table.name() + " at " + where + ": " + e.getMessage(), e);
    }
  }

  private static void abort(UpsertTaskWriter writer, Table table) {
    try {
      writer.abort();
    } catch (IOException | RuntimeException e) {
      log.warn("Could not delete the uncommitted files of a failed batch for {}", table.name(), e);
    }
  }
}
