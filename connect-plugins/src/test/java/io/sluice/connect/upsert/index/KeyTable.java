package io.sluice.connect.upsert.index;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.inmemory.InMemoryCatalog;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;

/**
 * A table keyed by one long column, {@code id}, on Iceberg's in-memory catalog, whose keys are
 * {@link #FIRST_KEY} + k: far from any count or size a log line holds, so a key in a log shows.
 */
final class KeyTable implements AutoCloseable {
  static final TableIdentifier ID = TableIdentifier.of("shop", "orders_current");
  static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "id", Types.LongType.get()),
              Types.NestedField.optional(2, "note", Types.StringType.get())),
          Set.of(1));
  static final Schema KEY = TypeUtil.select(SCHEMA, SCHEMA.identifierFieldIds());
  static final long FIRST_KEY = 987_654_321_000L;

  private final InMemoryCatalog catalog = new InMemoryCatalog();
  private final Table table;

  KeyTable() {
    catalog.initialize("mem", Map.of());
    catalog.createNamespace(Namespace.of("shop"));
    table = catalog.createTable(ID, SCHEMA, PartitionSpec.unpartitioned());
  }

  /** The table, refreshed. */
  Table table() {
    table.refresh();
    return table;
  }

  /** Key {@code k} as the index looks it up. */
  static GenericRecord key(long k) {
    GenericRecord key = GenericRecord.create(KEY);
    key.setField("id", FIRST_KEY + k);
    return key;
  }

  /**
   * Commits keys {@code from} to {@code to} (exclusive) in one Parquet file, in that order.
   *
   * @return the file
   */
  DataFile append(long from, long to) {
    GenericFileWriterFactory writers =
        new GenericFileWriterFactory.Builder(table).dataFileFormat(FileFormat.PARQUET).build();
    OutputFileFactory files =
        OutputFileFactory.builderFor(table, 1, from).format(FileFormat.PARQUET).build();
    DataWriter<Record> writer = writers.newDataWriter(files.newOutputFile(), table.spec(), null);
    try (writer) {
      GenericRecord row = GenericRecord.create(SCHEMA);
      for (long k = from; k < to; k++) {
        row.setField("id", FIRST_KEY + k);
        row.setField("note", "n" + k);
        writer.write(row);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DataFile file = writer.toDataFile();
    table.newAppend().appendFile(file).commit();
    return file;
  }

  /** Commits the removal of {@code file} (its rows deleted). */
  void remove(DataFile file) {
    table.newDelete().deleteFile(file).commit();
  }

  @Override
  public void close() throws IOException {
    catalog.close();
  }
}
