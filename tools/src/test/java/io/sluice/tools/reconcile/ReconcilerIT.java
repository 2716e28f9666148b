package io.sluice.tools.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.embedded.EmbeddedMariaDb;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.iceberg.CatalogUtil;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reconciliation of a real MariaDB table against a real Iceberg table (JdbcCatalog on SQLite). */
class ReconcilerIT {
  private static final Schema SCHEMA =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "status", Types.StringType.get()),
          Types.NestedField.optional(3, "amount_cents", Types.LongType.get()),
          Types.NestedField.optional(4, "updated_at", Types.TimestampType.withoutZone()));
  private static final LocalDateTime T0 = LocalDateTime.of(2026, 1, 1, 0, 0, 0, 5_000_000);

  private final Path dbDir =
      Path.of("target", "it-reconcile-" + UUID.randomUUID()).toAbsolutePath();
  @TempDir Path lake;

  @AfterEach
  void deleteDbDir() throws IOException {
    if (Files.exists(dbDir)) {
      try (Stream<Path> paths = Files.walk(dbDir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void equalTablesConvergeAndEveryKindOfDriftIsListed() throws Exception {
    Configuration hadoop = new Configuration();
    hadoop.set("fs.file.impl", "org.apache.hadoop.fs.RawLocalFileSystem");
    Catalog catalog =
        CatalogUtil.buildIcebergCatalog(
            "it",
            Map.of(
                "type",
                "jdbc",
                "uri",
                "jdbc:sqlite:" + lake.resolve("catalog.db"),
                "jdbc.schema-version",
                "V1",
                "warehouse",
                lake.resolve("warehouse").toUri().toString()),
            hadoop);
    ((org.apache.iceberg.catalog.SupportsNamespaces) catalog)
        .createNamespace(Namespace.of("cdc_lab"));
    Table table = catalog.createTable(TableIdentifier.of("cdc_lab", "orders_current"), SCHEMA);

    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(dbDir, 0);
        Connection c = db.connect()) {
      try (Statement s = c.createStatement()) {
        s.execute(
            "CREATE TABLE cdc_lab.orders (order_id BIGINT NOT NULL PRIMARY KEY,"
                + " status VARCHAR(16), amount_cents BIGINT, updated_at DATETIME(3))");
      }
      List<Record> rows = new ArrayList<>();
      try (PreparedStatement ps =
          c.prepareStatement("INSERT INTO cdc_lab.orders VALUES (?, ?, ?, ?)")) {
        // Ids inserted in an order that differs from both numeric and text order.
        for (long id = 1_000; id >= 1; id--) {
          long orderId = id * 7 % 1_009; // 1009 is prime: distinct ids
          ps.setLong(1, orderId);
          ps.setString(2, orderId % 3 == 0 ? null : "S" + orderId);
          ps.setLong(3, orderId * 100);
          ps.setObject(4, T0.plusSeconds(orderId));
          ps.addBatch();
          Record row = GenericRecord.create(SCHEMA);
          row.setField("order_id", orderId);
          row.setField("status", orderId % 3 == 0 ? null : "S" + orderId);
          row.setField("amount_cents", orderId * 100);
          row.setField("updated_at", T0.plusSeconds(orderId));
          rows.add(row);
        }
        ps.executeBatch();
      }
      try (TableAppender appender = new TableAppender(table)) {
        rows.forEach(appender::append);
      }
      // A small run size forces the external sort through spilled runs.
      Reconciler reconciler =
          new Reconciler(lake.resolve("tmp"), 64, 10, Reconciler.DEFAULT_ROW_LIMIT, line -> {});

      ReconcileResult same = reconciler.reconcile(c, "cdc_lab", "orders", table);
      assertThat(same.converged()).isTrue();
      assertThat(same.sourceRows()).isEqualTo(1_000);
      assertThat(same.actualRows()).isEqualTo(1_000);
      assertThat(same.primaryKey()).containsExactly("order_id");

      try (Statement s = c.createStatement()) {
        s.execute("DELETE FROM cdc_lab.orders WHERE order_id = 14");
        s.execute("UPDATE cdc_lab.orders SET status = 'PAID' WHERE order_id = 15");
        s.execute("INSERT INTO cdc_lab.orders VALUES (5000, 'NEW', 1, '2026-01-01 00:00:00.000')");
      }
      ReconcileResult drift = reconciler.reconcile(c, "cdc_lab", "orders", table);

      assertThat(drift.diffCount()).isEqualTo(4);
      assertThat(drift.missingFromActual())
          .containsExactly(
              "{\"order_id\":\"15\",\"status\":\"PAID\",\"amount_cents\":\"1500\","
                  + "\"updated_at\":\"2026-01-01 00:00:15.005\"}",
              "{\"order_id\":\"5000\",\"status\":\"NEW\",\"amount_cents\":\"1\","
                  + "\"updated_at\":\"2026-01-01 00:00:00.000\"}");
      assertThat(drift.unexpectedInActual())
          .containsExactly(
              "{\"order_id\":\"14\",\"status\":\"S14\",\"amount_cents\":\"1400\","
                  + "\"updated_at\":\"2026-01-01 00:00:14.005\"}",
              "{\"order_id\":\"15\",\"status\":null,\"amount_cents\":\"1500\","
                  + "\"updated_at\":\"2026-01-01 00:00:15.005\"}");
      assertThat(drift.sourceSha256()).isNotEqualTo(drift.actualSha256());

      assertThatThrownBy(() -> reconciler.reconcile(c, "cdc_lab", "nope", table))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("source table cdc_lab.nope does not exist");
    }
  }
}
