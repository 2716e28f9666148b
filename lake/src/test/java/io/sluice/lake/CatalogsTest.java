package io.sluice.lake;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CatalogsTest {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "id", Types.LongType.get()),
          Types.NestedField.optional(2, "status", Types.StringType.get()));

  @TempDir Path dir;

  @Test
  void theEmbeddedCatalogIsAJdbcCatalogOnSqliteUnderTheGivenDirWhetherItExistsOrNot()
      throws Exception {
    Path iceberg = dir.resolve("iceberg");
    Map<String, String> before = Catalogs.embedded(iceberg);
    Files.createDirectories(iceberg.resolve("warehouse"));

    assertThat(Catalogs.embedded(iceberg)).isEqualTo(before);
    assertThat(before)
        .containsExactly(
            Map.entry("name", "sluice"),
            Map.entry("type", "jdbc"),
            Map.entry("uri", "jdbc:sqlite:" + iceberg.resolve("catalog.db")),
            Map.entry("jdbc.schema-version", "V1"),
            Map.entry("warehouse", "file://" + iceberg.resolve("warehouse")));
  }

  @Test
  void aCatalogUriSaysWhichKindOfCatalogItIs() {
    assertThat(Catalogs.forUri("lab", "jdbc:sqlite:/x/catalog.db", "file:/x/warehouse"))
        .containsEntry("name", "lab")
        .containsEntry("type", "jdbc")
        .containsEntry("jdbc.schema-version", "V1")
        .containsEntry("warehouse", "file:/x/warehouse");
    assertThat(Catalogs.forUri("lab", "http://127.0.0.1:8181", null))
        .containsEntry("type", "rest")
        .doesNotContainKey("warehouse");
    assertThatThrownBy(() -> Catalogs.forUri("lab", "jdbc:sqlite:/x/catalog.db", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("a JDBC catalog (jdbc:sqlite:/x/catalog.db) needs a warehouse");
    assertThatThrownBy(() -> Catalogs.forUri("lab", "thrift://metastore:9083", null))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("catalog URI thrift://metastore:9083 is neither jdbc:... nor http(s)://...");
  }

  @Test
  void aTableWrittenThroughOneOpeningIsReadThroughItsCatalogObject() throws Exception {
    Map<String, String> catalog = Catalogs.embedded(dir.resolve("iceberg"));
    Files.createDirectories(dir.resolve("iceberg"));
    try (LakeCatalog lake = Catalogs.open(catalog)) {
      ((SupportsNamespaces) lake.catalog()).createNamespace(Namespace.of("cdc_lab"));
      Table table =
          lake.catalog()
              .createTable(
                  TableIdentifier.of("cdc_lab", "t"), SCHEMA, PartitionSpec.unpartitioned());
      append(table, row(1, "NEW"), row(2, "PAID"), row(3, null));
    }
    try (LakeCatalog lake = Catalogs.open(new LinkedHashMap<>(catalog))) {
      assertThat(lake.properties()).isEqualTo(catalog);
      Table table = lake.table("cdc_lab.t");
      assertThat(IcebergRows.readAll(table))
          .extracting(r -> r.getField("id") + "=" + IcebergRows.text(r.getField("status")))
          .containsExactlyInAnyOrder("1=NEW", "2=PAID", "3=null");
      assertThat(IcebergRows.read(table, 2, r -> {})).isEqualTo(2);
      assertThat(IcebergRows.columns(table)).containsExactly("id", "status");
      assertThatThrownBy(() -> lake.table("cdc_lab.missing"))
          .isInstanceOf(NoSuchTableException.class)
          .hasMessage("no table cdc_lab.missing in catalog sluice (" + catalog.get("uri") + ")");
    }
    // A local warehouse is written without Hadoop's checksum side files.
    try (var files = Files.walk(dir.resolve("iceberg"))) {
      assertThat(files.map(Path::toString).filter(p -> p.endsWith(".crc"))).isEmpty();
    }
  }

  private static Record row(long id, String status) {
    Record r = GenericRecord.create(SCHEMA);
    r.setField("id", id);
    r.setField("status", status);
    return r;
  }

  private static void append(Table table, Record... rows) throws Exception {
    String location = table.locationProvider().newDataLocation("part-0.parquet");
    DataWriter<Record> writer =
        Parquet.writeData(table.io().newOutputFile(location))
            .forTable(table)
            .createWriterFunc(GenericParquetWriter::create)
            .overwrite()
            .build();
    try (writer) {
      for (Record row : List.of(rows)) {
        writer.write(row);
      }
    }
    table.newAppend().appendFile(writer.toDataFile()).commit();
  }
}
