package io.sluice.connect.upsert.write;

import io.sluice.connect.upsert.event.AvroChange;
import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.event.Operation;
import io.sluice.connect.upsert.types.AvroRowConverter;
import io.sluice.connect.upsert.types.RecordConverter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.io.WriteResult;
import org.apache.iceberg.util.PropertyUtil;
import org.apache.iceberg.util.StructLikeSet;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes a prepared batch (one event per key) into new data and delete files of a table, not yet
 * committed. Records are converted first ({@link #convert}), each on its own, so a record the table
 * cannot take is known before anything is written; a failure while writing is the storage's, never
 * a record's. On failure the files written so far are deleted.
 *
 * <p>The rows the batch's keys had are deleted by equality deletes in each partition spec the
 * table's live files are in, or by position in the files of a spec whose partition of a row the key
 * alone does not give ({@link KeyDeleteTargets}).
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

  /** One event as rows of the table's schema: the row (null for a delete) and its key. */
  public record Converted(Record row, Record key, Record keyAsRow) {
    /**
     * The key's values as the table stores them: equal for one row of the table. The value itself
     * for a key of one column (no list to build and hash for each event), else a list of them.
     */
    public Object tableKey() {
      if (key.size() == 1) {
        return comparable(key.get(0));
      }
      List<Object> values = new ArrayList<>(key.size());
      for (int i = 0; i < key.size(); i++) {
        values.add(comparable(key.get(i)));
      }
      return values;
    }

    private static Object comparable(Object value) {
      return value instanceof byte[] bytes ? ByteBuffer.wrap(bytes) : value;
    }
  }

  /**
   * {@code event} in {@code converter}'s table schema.
   *
   * @param excludedField a row field that is not a column, or null
   * @throws io.sluice.connect.upsert.error.RecordRejectedException when the table cannot take this
   *     record
   */
  public static Converted convert(
      RecordConverter converter, ChangeEvent event, String excludedField) {
    AvroChange avro = event.avro();
    if (avro != null) {
      Converted direct = direct(converter.avro(excludedField), event.operation(), avro);
      // Not covered by the direct conversion (or a value it cannot take): the Connect data
      // decide, rows and errors alike.
      return direct != null ? direct : convert(converter, avro.asConnect().get(), excludedField);
    }
    if (event.operation() == Operation.UPSERT) {
      return new Converted(
          converter.row(event.row(), event.key(), excludedField), converter.key(event.key()), null);
    }
    return new Converted(null, converter.key(event.key()), converter.keyAsRow(event.key()));
  }

  private static Converted direct(AvroRowConverter rows, Operation operation, AvroChange avro) {
    Record key = rows.key(avro.keySource());
    if (key == null) {
      return null;
    }
    if (operation == Operation.UPSERT) {
      Record row = rows.row(avro.row(), avro.keySource());
      return row == null ? null : new Converted(row, key, null);
    }
    Record keyAsRow = rows.keyAsRow(avro.keySource());
    return keyAsRow == null ? null : new Converted(null, key, keyAsRow);
  }

  /**
   * @param base the table's current snapshot, which the commit validates from (null: none yet)
   * @param converter the converter of {@code table}'s current schema
   * @param converted every event of the batch, converted by {@link #convert} with {@code converter}
   * @return the files; the data files deleted from by position, if any, are named as referenced
   * @throws ConnectException when the files cannot be written
   */
  public WriteResult write(
      Table table,
      Snapshot base,
      RecordConverter converter,
      List<ChangeEvent> batch,
      Map<ChangeEvent, Converted> converted) {
    Schema schema = table.schema();
    Schema keySchema = converter.keySchema();
    KeyDeleteTargets targets = KeyDeleteTargets.of(table, base);
    if (!targets.currentSpecOnly()) {
      log.debug(
          "Writing {} keys to {} (spec {}) with equality deletes in {}, deletes by position in"
              + " the files of specs {}",
          batch.size(),
          table.name(),
          table.spec().specId(),
          targets.byKey().stream().map(PartitionSpec::specId).toList(),
          targets.byPosition());
    }
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
        new UpsertTaskWriter(
            table, schema, keySchema, writerFactory, files, useDv, targets.currentSpecByKey());
    SpecEqualityDeletes otherSpecs =
        targets.byKey().isEmpty()
            ? null
            : new SpecEqualityDeletes(
                table,
                schema,
                writerFactory,
                files,
                PropertyUtil.propertyAsLong(
                    table.properties(),
                    TableProperties.DELETE_TARGET_FILE_SIZE_BYTES,
                    TableProperties.DELETE_TARGET_FILE_SIZE_BYTES_DEFAULT),
                targets.byKey());
    StructLikeSet scannedKeys =
        targets.byPosition().isEmpty() ? null : StructLikeSet.create(keySchema.asStruct());
    ChangeEvent current = null;
    try {
      for (ChangeEvent event : batch) {
        current = event;
        Converted rows = converted.get(event);
        Record asRow;
        if (event.operation() == Operation.UPSERT) {
          writer.upsert(rows.row(), rows.key());
          asRow = rows.row();
        } else {
          writer.delete(rows.key(), rows.keyAsRow());
          asRow = rows.keyAsRow();
        }
        if (otherSpecs != null) {
          otherSpecs.delete(rows.key(), asRow);
        }
        if (scannedKeys != null) {
          scannedKeys.add(new InternalRecordWrapper(keySchema.asStruct()).wrap(rows.key()));
        }
      }
      current = null;
      WriteResult.Builder result = WriteResult.builder().add(writer.complete());
      if (otherSpecs != null) {
        result.addDeleteFiles(otherSpecs.complete());
      }
      if (scannedKeys != null) {
        DeleteWriteResult deletes =
            KeyRowScan.deleteRows(
                table,
                base,
                targets.byPosition(),
                keySchema,
                scannedKeys,
                PositionDeletes.files(table, taskId, attempt, "upsert"));
        result
            .addDeleteFiles(deletes.deleteFiles())
            .addRewrittenDeleteFiles(deletes.rewrittenDeleteFiles())
            .addReferencedDataFiles(deletes.referencedDataFiles());
      }
      return result.build();
    } catch (IOException | RuntimeException e) {
      abort(writer, otherSpecs, table);
      String where = current == null ? "closing the batch's files" : current.coordinates();
      throw new ConnectException(
          "cannot write to table " + table.name() + " at " + where + ": " + e.getMessage(), e);
    }
  }

  private static void abort(UpsertTaskWriter writer, SpecEqualityDeletes otherSpecs, Table table) {
    try {
      writer.abort();
    } catch (IOException | RuntimeException e) {
      log.warn("Could not delete the uncommitted files of a failed batch for {}", table.name(), e);
    }
    try {
      if (otherSpecs != null) {
        otherSpecs.abort();
      }
    } catch (IOException | RuntimeException e) {
      log.warn(
          "Could not delete the uncommitted deletes of a failed batch for {}", table.name(), e);
    }
  }
}
