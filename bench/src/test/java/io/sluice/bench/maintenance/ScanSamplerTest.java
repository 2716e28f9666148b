package io.sluice.bench.maintenance;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.lake.Catalogs;
import io.sluice.lake.IcebergRows;
import io.sluice.lake.LakeCatalog;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
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
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The sampler on a table of a real SQLite catalog in a temporary directory (no broker). */
class ScanSamplerTest {
  private static final Schema SCHEMA =
      new Schema(
          List.of(
              Types.NestedField.required(1, "order_id", Types.LongType.get()),
              Types.NestedField.required(2, "event_id", Types.LongType.get())),
          Set.of(1));
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");
  private static final TableIdentifier COMPACTED =
      TableIdentifier.of("cdc_lab", "orders_current_compacted");

  @TempDir Path dir;
  private LakeCatalog lake;
  private Catalog catalog;
  private Table table;
  private long attempt;

  @BeforeEach
  void createTable() throws IOException {
    Files.createDirectories(dir.resolve("iceberg").resolve("warehouse"));
    lake = Catalogs.open(Catalogs.embedded(dir.resolve("iceberg")));
    catalog = lake.catalog();
    ((SupportsNamespaces) catalog).createNamespace(Namespace.of("cdc_lab"));
    table =
        catalog.createTable(
            TABLE, SCHEMA, PartitionSpec.unpartitioned(), Map.of("format-version", "2"));
  }

  @AfterEach
  void closeCatalog() {
    lake.close();
  }

  @Test
  void aTableWithoutSnapshotHasNoSample() {
    assertThat(new ScanSampler(catalog, TABLE, COMPACTED).sample(0, 0)).isEmpty();
    assertThat(TableFiles.of(table, table.currentSnapshot())).isEqualTo(TableFiles.NONE);
  }

  @Test
  void aSampleScansTheRowsLeftByDeletesAndCountsEveryKindOfFile() throws IOException {
    DataFile first = writeData(rows(1, 10, 1));
    table.newAppend().appendFile(first).commit();
    // As the sink commits an update of keys 1-3: their equality deletes and the new rows.
    table
        .newRowDelta()
        .addRows(writeData(rows(1, 3, 2)))
        .addDeletes(writeEqualityDeletes(1, 3))
        .commit();
    // And a position delete of the first file's last row (key 10).
    table.newRowDelta().addDeletes(writePositionDelete(first, 9)).commit();

    Sample sample = new ScanSampler(catalog, TABLE, COMPACTED).sample(3, 1_234).orElseThrow();

    table.refresh();
    assertThat(sample.snapshotId()).isEqualTo(table.currentSnapshot().snapshotId());
    assertThat(sample.commits()).isEqualTo(3);
    assertThat(sample.elapsedMs()).isEqualTo(1_234);
    assertThat(sample.rows()).isEqualTo(9);
    assertThat(sample.files()).isEqualTo(new TableFiles(2, 13, 1, 3, 1, 1));
    assertThat(sample.scanMs()).isPositive();
    assertThat(sample.compactedScanMs()).isPositive();
    assertThat(sample.ratio()).isEqualTo(sample.scanMs() / sample.compactedScanMs());
    assertThat(catalog.tableExists(COMPACTED)).as("the copy is dropped again").isFalse();
  }

  @Test
  void theCompactedCopyHoldsExactlyTheRowsInOneDataFileWithoutDeletes() throws IOException {
    table.newAppend().appendFile(writeData(rows(1, 10, 1))).commit();
    table
        .newRowDelta()
        .addRows(writeData(rows(4, 6, 2)))
        .addDeletes(writeEqualityDeletes(4, 6))
        .commit();
    List<Record> scanned = new ArrayList<>();
    IcebergRows.read(table, 0, r -> scanned.add(r.copy()));

    ScanSampler sampler = new ScanSampler(catalog, TABLE, COMPACTED);
    Table copy = sampler.writeCompacted(table, scanned);

    assertThat(TableFiles.of(copy, copy.currentSnapshot()))
        .isEqualTo(new TableFiles(1, 10, 0, 0, 0, 0));
    assertThat(eventIds(copy)).isEqualTo(eventIds(table));
    assertThat(copy.schema().identifierFieldNames()).containsExactly("order_id");
    Table second = sampler.writeCompacted(table, scanned.subList(0, 2));
    assertThat(TableFiles.of(second, second.currentSnapshot()))
        .as("a second copy replaces the first")
        .isEqualTo(new TableFiles(1, 2, 0, 0, 0, 0));
  }

  private static Map<Long, Long> eventIds(Table t) {
    Map<Long, Long> ids = new TreeMap<>();
    IcebergRows.read(
        t, 0, r -> ids.put((Long) r.getField("order_id"), (Long) r.getField("event_id")));
    return ids;
  }

  private static List<Record> rows(long fromKey, long toKey, long eventId) {
    List<Record> rows = new ArrayList<>();
    for (long key = fromKey; key <= toKey; key++) {
      Record r = GenericRecord.create(SCHEMA);
      r.setField("order_id", key);
      r.setField("event_id", eventId);
      rows.add(r);
    }
    return rows;
  }

  private DataFile writeData(List<Record> rows) throws IOException {
    DataWriter<Record> writer =
        writers().newDataWriter(files().newOutputFile(), table.spec(), null);
    try (writer) {
      rows.forEach(writer::write);
    }
    return writer.toDataFile();
  }

  private DeleteFile writeEqualityDeletes(long fromKey, long toKey) throws IOException {
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

  private DeleteFile writePositionDelete(DataFile file, long position) throws IOException {
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
