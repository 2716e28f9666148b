package io.sluice.bench.sink;

import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileFormat;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericFileWriterFactory;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.EqualityDeleteWriter;
import org.apache.iceberg.deletes.PositionDelete;
import org.apache.iceberg.deletes.PositionDeleteWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.Types;

/**
 * A format v2 table keyed by {@code order_id} in a real SQLite catalog in a directory, and the
 * files a sink would write to it (no broker): for the tests of what reads and counts tables.
 */
public final class TestTable implements AutoCloseable {
  public static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "order_id", Types.LongType.get()),
              Types.NestedField.required(2, "event_id", Types.LongType.get())),
          Set.of(1));
  public static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");

  public final LakeCatalog lake;
  public final Catalog catalog;
  public final Table table;
  private long attempt;

  public TestTable(Path dir) throws IOException {
    Files.createDirectories(dir.resolve("iceberg").resolve("warehouse"));
    lake = Catalogs.open(Catalogs.embedded(dir.resolve("iceberg")));
    catalog = lake.catalog();
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("cdc_lab"));
    table =
        catalog.createTable(
            TABLE, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
  }

  @Override
  public void close() {
    lake.close();
  }

  public static List<Record> rows(long fromKey, long toKey, long eventId) {
    List<Record> rows = new ArrayList<>();
    for (long key = fromKey; key <= toKey; key++) {
      Record r = GenericRecord.create(SCHEMA);
      r.setField("order_id", key);
      r.setField("event_id", eventId);
      rows.add(r);
    }
    return rows;
  }

  public DataFile writeData(List<Record> rows) throws IOException {
    DataWriter<Record> writer =
        writers().newDataWriter(files().newOutputFile(), table.spec(), null);
    try (writer) {
      rows.forEach(writer::write);
    }
    return writer.toDataFile();
  }

  public DeleteFile writeEqualityDeletes(long fromKey, long toKey) throws IOException {
    Schema keys = SCHEMA.select("order_id");
    EqualityDeleteWriter<Record> writer =
        writers().newEqualityDeleteWriter(files().newOutputFile(), table.spec(), null);
    try (writer) {
      for (long key = fromKey; key <= toKey; key++) {
        Record r = GenericRecord.create(keys);
        r.setField("order_id", key);
        writer.write(r);
      }
    }
    return writer.toDeleteFile();
  }

  public DeleteFile writePositionDelete(DataFile file, long position) throws IOException {
    PositionDeleteWriter<Record> writer =
        writers().newPositionDeleteWriter(files().newOutputFile(), table.spec(), null);
    try (writer) {
      writer.write(PositionDelete.<Record>create().set(file.location(), position));
    }
    return writer.toDeleteFile();
  }

  private GenericFileWriterFactory writers() {
    return new GenericFileWriterFactory.Builder(table)
        .dataSchema(SCHEMA)
        .dataFileFormat(FileFormat.PARQUET)
        .deleteFileFormat(FileFormat.PARQUET)
        .equalityFieldIds(new int[] {1})
        .equalityDeleteRowSchema(SCHEMA.select("order_id"))
        .build();
  }

  private OutputFileFactory files() {
    return OutputFileFactory.builderFor(table, 1, ++attempt).format(FileFormat.PARQUET).build();
  }
}
