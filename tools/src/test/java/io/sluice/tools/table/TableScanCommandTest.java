package io.sluice.tools.table;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.data.parquet.GenericParquetWriter;
import org.apache.iceberg.io.DataWriter;
import org.apache.iceberg.parquet.Parquet;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code sluice table scan} on real Iceberg tables in a local JdbcCatalog (SQLite). */
class TableScanCommandTest {
  // Iceberg keeps identifier fields as a set, in field-id order; created with region first, the
  // key is (region, order_id), and order_id then moves first, so the key's order is not the
  // columns' order.
  private static final Schema CREATED =
      new Schema(
          List.of(
              Types.NestedField.required(1, "region", Types.StringType.get()),
              Types.NestedField.required(2, "order_id", Types.LongType.get()),
              Types.NestedField.optional(3, "status", Types.StringType.get())),
          Set.of(1, 2));
  private static final Schema CHANGELOG =
      new Schema(
          Types.NestedField.optional(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "op", Types.StringType.get()));

  @TempDir Path dir;
  private Map<String, String> catalog;

  @BeforeEach
  void tables() throws Exception {
    catalog = Catalogs.embedded(dir.resolve("iceberg"));
    Files.createDirectories(dir.resolve("iceberg"));
    try (LakeCatalog lake = Catalogs.open(catalog)) {
      ((SupportsNamespaces) lake.catalog()).createNamespace(Namespace.of("cdc_lab"));
      Table current = create(lake, "orders_current", CREATED);
      current.updateSchema().moveFirst("order_id").commit();
      Schema schema = current.schema();
      // Two appends, each out of key order: the order must hold across data files.
      append(current, row(schema, 10L, "eu", "PAID"), row(schema, 9L, "us", "NEW"));
      append(
          current,
          row(schema, 100L, "eu", "NEW"),
          row(schema, 9L, "eu", "NEW"),
          row(schema, 2L, "ap", null));
      Table changelog = create(lake, "orders_changelog", CHANGELOG);
      append(changelog, row(CHANGELOG, 10L, "u"), row(CHANGELOG, null, "d"));
      append(changelog, row(CHANGELOG, 9L, "c"), row(CHANGELOG, 10L, "c"));
    }
  }

  @Test
  void rowsPrintSortedByTheIdentifierFieldsInTheirDeclaredOrder() {
    Scan table = scan("cdc_lab.orders_current");
    Scan jsonl = scan("cdc_lab.orders_current", "--format", "jsonl");

    assertThat(table.exitCode).as(table.err).isZero();
    assertThat(table.out.lines().map(l -> l.split(" +")[0] + " " + l.split(" +")[1]))
        .containsExactly("order_id region", "2 ap", "9 eu", "10 eu", "100 eu", "9 us");
    assertThat(table.err).contains("5 rows from sluice.cdc_lab.orders_current, snapshot ");
    assertThat(table.err).contains(", sorted by region, order_id");
    assertThat(jsonl.out.lines())
        .containsExactly(
            "{\"order_id\":2,\"region\":\"ap\",\"status\":null}",
            "{\"order_id\":9,\"region\":\"eu\",\"status\":\"NEW\"}",
            "{\"order_id\":10,\"region\":\"eu\",\"status\":\"PAID\"}",
            "{\"order_id\":100,\"region\":\"eu\",\"status\":\"NEW\"}",
            "{\"order_id\":9,\"region\":\"us\",\"status\":\"NEW\"}");
  }

  @Test
  void aLimitPrintsTheFirstRowsOfTheOrder() {
    Scan first = scan("cdc_lab.orders_current", "--limit", "2", "--format", "jsonl");

    assertThat(first.out.lines())
        .containsExactly(
            "{\"order_id\":2,\"region\":\"ap\",\"status\":null}",
            "{\"order_id\":9,\"region\":\"eu\",\"status\":\"NEW\"}");
    assertThat(first.err).contains("first 2 of 5 rows from sluice.cdc_lab.orders_current");
  }

  @Test
  void aTableWithoutIdentifierFieldsSortsByEveryColumnNullsFirst() {
    Scan table = scan("cdc_lab.orders_changelog");
    Scan jsonl = scan("cdc_lab.orders_changelog", "--format", "jsonl");

    assertThat(table.out.lines().map(String::strip))
        .containsExactly(
            "order_id  op", "null      d", "9         c", "10        c", "10        u");
    assertThat(table.err).contains("sorted by every column (no identifier fields)");
    assertThat(jsonl.out.lines())
        .containsExactly(
            "{\"order_id\":null,\"op\":\"d\"}",
            "{\"order_id\":9,\"op\":\"c\"}",
            "{\"order_id\":10,\"op\":\"c\"}",
            "{\"order_id\":10,\"op\":\"u\"}");
  }

  @Test
  void listNamesEveryTableWithItsKeySnapshotsAndRecords() {
    Scan all = run("list");
    Scan jsonl = run("list", "cdc_lab", "--format", "jsonl");

    assertThat(all.exitCode).as(all.err).isZero();
    assertThat(all.out.lines().map(l -> String.join(" ", List.of(l.split(" +")).subList(0, 4))))
        .containsExactly(
            "table identifier_fields snapshots data_file_records",
            "cdc_lab.orders_changelog - 2 4",
            "cdc_lab.orders_current region,order_id 2 5");
    assertThat(jsonl.out.lines())
        .hasSize(2)
        .first()
        .asString()
        .startsWith(
            "{\"table\":\"cdc_lab.orders_changelog\",\"identifier_fields\":[],\"snapshots\":2,"
                + "\"data_file_records\":4,\"last_commit\":\"");
    assertThat(run("list", "nowhere").exitCode).isNotZero();
  }

  @Test
  void catalogPropertiesAloneNameTheCatalog() {
    List<String> args = new java.util.ArrayList<>(List.of("list", "cdc_lab"));
    catalog.forEach(
        (key, value) -> {
          if (!key.equals(Catalogs.NAME)) {
            args.addAll(List.of("--catalog", key + "=" + value));
          }
        });
    args.addAll(List.of("--ready-file", dir.resolve("no-such-ready.json").toString()));
    Scan listed = execute(args);

    assertThat(listed.exitCode).as(listed.err).isZero();
    assertThat(listed.out).contains("cdc_lab.orders_current");
  }

  private record Scan(int exitCode, String out, String err) {}

  private Scan execute(List<String> args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new TableCommand());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args.toArray(String[]::new));
    return new Scan(exit, out.toString(), err.toString());
  }

  private Scan run(String command, String... options) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new TableCommand());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    List<String> args = new java.util.ArrayList<>(List.of(command));
    args.addAll(List.of(options));
    args.addAll(
        List.of("--catalog-uri", catalog.get("uri"), "--warehouse", catalog.get("warehouse")));
    int exit = cli.execute(args.toArray(String[]::new));
    return new Scan(exit, out.toString(), err.toString());
  }

  private Scan scan(String table, String... options) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new TableCommand());
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    List<String> args =
        new java.util.ArrayList<>(
            List.of(
                "scan",
                table,
                "--catalog-uri",
                catalog.get("uri"),
                "--warehouse",
                catalog.get("warehouse")));
    args.addAll(List.of(options));
    int exit = cli.execute(args.toArray(String[]::new));
    return new Scan(exit, out.toString(), err.toString());
  }

  private static Table create(LakeCatalog lake, String name, Schema schema) {
    return lake.catalog()
        .createTable(TableIdentifier.of("cdc_lab", name), schema, PartitionSpec.unpartitioned());
  }

  private static Record row(Schema schema, Object... values) {
    Record r = GenericRecord.create(schema);
    for (int i = 0; i < values.length; i++) {
      r.set(i, values[i]);
    }
    return r;
  }

  private static void append(Table table, Record... rows) throws Exception {
    String location =
        table.locationProvider().newDataLocation("part-" + System.nanoTime() + ".parquet");
    DataWriter<Record> writer =
        Parquet.writeData(table.io().newOutputFile(location))
            .forTable(table)
            .createWriterFunc(GenericParquetWriter::create)
            .overwrite()
            .build();
    try (writer) {
      for (Record row : rows) {
        writer.write(row);
      }
    }
    table.newAppend().appendFile(writer.toDataFile()).commit();
  }
}
