package io.sluice.connect.upsert;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.capture.CaptureService;
import io.sluice.capture.config.CaptureConfig;
import io.sluice.connect.testing.Lake;
import io.sluice.embedded.EmbeddedConnect;
import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.embedded.connect.ConnectorConfigs;
import io.sluice.embedded.connect.SinkWorkerProperties;
import io.sluice.schema.server.DevSchemaRegistry;
import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * Real MariaDB changes captured by Debezium (the capture module) reach the current table through
 * the upsert sink in a real Connect worker, with DATETIME(3), DATE and DECIMAL as Iceberg
 * timestamp, date and decimal columns.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class MariaDbToIcebergIT {
  private static final Duration WAIT = Duration.ofSeconds(90);
  private static final String TOPIC = "it.cdc_lab.orders";
  private static final TableIdentifier TABLE = TableIdentifier.of("cdc_lab", "orders_current");

  private final Path dir = Path.of("target", "it-mariadb-" + UUID.randomUUID()).toAbsolutePath();
  private EmbeddedKafka kafka;
  private DevSchemaRegistry registry;
  private EmbeddedMariaDb db;
  private EmbeddedConnect connect;
  private Lake lake;

  @BeforeAll
  void startStack() throws IOException {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"));
    registry = DevSchemaRegistry.start(kafka.bootstrapServers(), "127.0.0.1", 0);
    db = EmbeddedMariaDb.start(dir.resolve("mariadb"), 0);
    connect =
        EmbeddedConnect.start(
            kafka.bootstrapServers(), "mariadb-it", 0, SinkWorkerProperties.of(2_000));
    Files.createDirectories(dir.resolve("lake"));
    lake = new Lake(dir.resolve("lake"));
  }

  @AfterAll
  void stopStack() throws Exception {
    connect.close();
    lake.close();
    db.close();
    registry.close();
    kafka.close();
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Test
  void capturedChangesLeaveTheTableEqualToTheSource() throws Exception {
    sql(
        "CREATE TABLE cdc_lab.orders (order_id BIGINT NOT NULL PRIMARY KEY,"
            + " status VARCHAR(16) NOT NULL, amount DECIMAL(10,2) NOT NULL,"
            + " updated_at DATETIME(3) NOT NULL, shipped_on DATE NULL)",
        insert(1, "NEW", "10.50"),
        insert(2, "NEW", "20.00"),
        insert(3, "NEW", "30.25"));
    try (CaptureService capture = new CaptureService(new CaptureConfig(captureSettings()))) {
      capture.start();
      connect
          .client()
          .putConnector(
              "mariadb-upsert",
              ConnectorConfigs.upsertSink(TOPIC, registry.url(), lake.catalogObject(), 500));
      connect.client().awaitRunning("mariadb-upsert", WAIT);
      // The snapshot's binlog position precedes its reads: every later change is streamed.
      await("snapshot rows in Iceberg")
          .atMost(WAIT)
          .ignoreExceptions()
          .untilAsserted(() -> assertThat(icebergRows()).isEqualTo(sourceRows()));
      assertThat(icebergRows()).hasSize(3);

      sql(
          "UPDATE cdc_lab.orders SET status = 'PAID', amount = 21.99,"
              + " updated_at = '2026-01-02 03:04:05.678', shipped_on = '2026-01-03'"
              + " WHERE order_id = 2",
          "DELETE FROM cdc_lab.orders WHERE order_id = 3",
          insert(4, "NEW", "40.00"),
          "ALTER TABLE cdc_lab.orders ADD COLUMN note VARCHAR(20) NULL",
          "INSERT INTO cdc_lab.orders VALUES (5, 'NEW', 50.00, '2026-01-01 00:00:00.005', NULL,"
              + " 'gift')");

      await("Iceberg equals the source")
          .atMost(WAIT)
          .ignoreExceptions()
          .untilAsserted(() -> assertThat(icebergRows()).isEqualTo(sourceRows()));
    }
    assertThat(icebergRows())
        .extracting(r -> r.substring(0, r.indexOf('|')))
        .containsExactly("1", "2", "4", "5");
    Record paid = lake.rows(TABLE, "order_id").get(1);
    assertThat(paid.getField("updated_at"))
        .isEqualTo(LocalDateTime.of(2026, 1, 2, 3, 4, 5, 678_000_000));
    assertThat(paid.getField("shipped_on")).isEqualTo(LocalDate.of(2026, 1, 3));
    assertThat(paid.getField("amount")).isEqualTo(new BigDecimal("21.99"));
    var schema = lake.table(TABLE).schema();
    assertThat(schema.findField("updated_at").type()).isEqualTo(Types.TimestampType.withoutZone());
    assertThat(schema.findField("amount").type()).isEqualTo(Types.DecimalType.of(10, 2));
    assertThat(schema.identifierFieldNames()).containsExactly("order_id");
  }

  private List<String> sourceRows() throws SQLException {
    List<String> rows = new ArrayList<>();
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT * FROM cdc_lab.orders ORDER BY order_id")) {
      while (r.next()) {
        rows.add(
            String.join(
                "|",
                String.valueOf(r.getLong("order_id")),
                r.getString("status"),
                r.getBigDecimal("amount").toPlainString(),
                r.getTimestamp("updated_at").toLocalDateTime().toString(),
                String.valueOf(
                    r.getDate("shipped_on") == null ? null : r.getDate("shipped_on").toLocalDate()),
                String.valueOf(hasColumn(r, "note") ? r.getString("note") : null)));
      }
    }
    return rows;
  }

  private static boolean hasColumn(ResultSet rows, String column) throws SQLException {
    for (int i = 1; i <= rows.getMetaData().getColumnCount(); i++) {
      if (rows.getMetaData().getColumnName(i).equals(column)) {
        return true;
      }
    }
    return false;
  }

  private List<String> icebergRows() {
    List<String> rows = new ArrayList<>();
    for (Record r : lake.rows(TABLE, "order_id")) {
      rows.add(
          String.join(
              "|",
              String.valueOf(r.getField("order_id")),
              (String) r.getField("status"),
              ((BigDecimal) r.getField("amount")).toPlainString(),
              r.getField("updated_at").toString(),
              String.valueOf(r.getField("shipped_on")),
              String.valueOf(r.getField("note"))));
    }
    return rows;
  }

  private static String insert(long id, String status, String amount) {
    return "INSERT INTO cdc_lab.orders (order_id, status, amount, updated_at) VALUES ("
        + id
        + ", '"
        + status
        + "', "
        + amount
        + ", '2026-01-01 00:00:00."
        + String.format("%03d", id)
        + "')";
  }

  private Map<String, Object> captureSettings() {
    Map<String, Object> s = new HashMap<>();
    s.put(CaptureConfig.NAME_CONFIG, "it-capture");
    s.put(CaptureConfig.DATABASE_PORT_CONFIG, db.port());
    s.put(CaptureConfig.DATABASE_USER_CONFIG, EmbeddedMariaDb.CDC_USER);
    s.put(CaptureConfig.DATABASE_PASSWORD_CONFIG, EmbeddedMariaDb.CDC_PASSWORD);
    s.put(CaptureConfig.DATABASE_INCLUDE_LIST_CONFIG, EmbeddedMariaDb.DATABASE);
    s.put(CaptureConfig.TABLE_INCLUDE_LIST_CONFIG, "cdc_lab\\.orders");
    s.put(CaptureConfig.DATABASE_SERVER_ID_CONFIG, 7001);
    s.put(CaptureConfig.TOPIC_PREFIX_CONFIG, "it");
    s.put(CaptureConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    s.put(CaptureConfig.SCHEMA_REGISTRY_URL_CONFIG, registry.url());
    s.put(CaptureConfig.OFFSET_STORAGE_TOPIC_CONFIG, "_capture-offsets");
    s.put(CaptureConfig.SCHEMA_HISTORY_TOPIC_CONFIG, "_capture-history");
    s.put(CaptureConfig.OFFSET_FLUSH_INTERVAL_MS_CONFIG, 200);
    return s;
  }

  private void sql(String... statements) throws SQLException {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
  }
}
