package io.sluice.connect.upsert.write;

import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionKey;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableProperties;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.DeleteGranularity;
import org.apache.iceberg.io.BaseTaskWriter;
import org.apache.iceberg.io.FileWriterFactory;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.util.PropertyUtil;

/**
 * Writes one batch of upserts and deletes into data files plus equality deletes on the table's
 * identifier fields, one equality-delta writer per partition. {@link #upsert} always deletes the
 * key before writing the row, so a replayed batch replaces rows instead of duplicating them. With
 * deletion vectors (format v3) the in-batch position deletes are DVs.
 *
 * <p>The equality deletes are in the current spec, at the partition of the new row (or of the key,
 * for a delete): they reach the key's old rows only when those are in files of the current spec
 * partitioned by key columns. When they are not ({@link KeyDeleteTargets}), the writer is told to
 * write none, and the batch's deletes go where they reach.
 */
final class UpsertTaskWriter extends BaseTaskWriter<Record> {
  private final Schema schema;
  private final Schema keySchema;
  private final boolean useDv;
  private final boolean deleteKeys;
  private final PartitionKey partitionKey;
  private final InternalRecordWrapper rowWrapper;
  private final Map<PartitionKey, Delta> writers = new HashMap<>();

  /**
   * @param deleteKeys whether each key's equality delete is written in the current spec (false: the
   *     batch's deletes are written elsewhere)
   */
  UpsertTaskWriter(
      Table table,
      Schema schema,
      Schema keySchema,
      FileWriterFactory<Record> writerFactory,
      OutputFileFactory files,
      boolean useDv,
      boolean deleteKeys) {
    super(
        table.spec(),
        FileFormat.PARQUET,
        writerFactory,
        files,
        table.io(),
        PropertyUtil.propertyAsLong(
            table.properties(),
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES,
            TableProperties.WRITE_TARGET_FILE_SIZE_BYTES_DEFAULT),
        useDv);
    this.schema = schema;
    this.keySchema = keySchema;
    this.useDv = useDv;
    this.deleteKeys = deleteKeys;
    this.partitionKey = new PartitionKey(table.spec(), schema);
    this.rowWrapper = new InternalRecordWrapper(schema.asStruct());
  }

  /** Deletes {@code key}'s current row (unless told to delete no key), then writes {@code row}. */
  void upsert(Record row, Record key) throws IOException {
    Delta writer = writerFor(row);
    if (deleteKeys) {
      writer.deleteKey(key);
    }
    writer.write(row);
  }

  /**
   * Deletes {@code key}'s row.
   *
   * @param keyAsRow the key as a row of the table schema, to find its partition
   */
  void delete(Record key, Record keyAsRow) throws IOException {
    if (deleteKeys) {
      writerFor(keyAsRow).deleteKey(key);
    }
  }

  /** Not used: rows go through {@link #upsert}, which needs the key. */
  @Override
  public void write(Record row) {
    throw new UnsupportedOperationException("use upsert(row, key) or delete(key, keyAsRow)");
  }

  @Override
  public void close() throws IOException {
    try {
      for (Delta writer : writers.values()) {
        writer.close();
      }
      writers.clear();
    } finally {
      super.close();
    }
  }

  private Delta writerFor(Record row) {
    PartitionSpec spec = spec();
    if (spec.isUnpartitioned()) {
      return writers.computeIfAbsent(partitionKey, k -> new Delta(null));
    }
    partitionKey.partition(rowWrapper.wrap(row));
    Delta writer = writers.get(partitionKey);
    if (writer == null) {
      PartitionKey copy = partitionKey.copy();
      writer = new Delta(copy);
      writers.put(copy, writer);
    }
    return writer;
  }

  private final class Delta extends BaseEqualityDeltaWriter {
    private final InternalRecordWrapper rows = new InternalRecordWrapper(schema.asStruct());
    private final InternalRecordWrapper keys = new InternalRecordWrapper(keySchema.asStruct());

    Delta(StructLike partition) {
      super(partition, schema, keySchema, DeleteGranularity.FILE, useDv ? dvFileWriter() : null);
    }

    @Override
    protected StructLike asStructLike(Record data) {
      return rows.wrap(data);
    }

    @Override
    protected StructLike asStructLikeKey(Record key) {
      return keys.wrap(key);
    }
  }
}
