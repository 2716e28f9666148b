package io.sluice.bench;

import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import io.sluice.stack.db.OrdersTable;
import io.sluice.stack.db.OrdersWorkload;
import io.sluice.tools.reconcile.ReconcileResult;
import io.sluice.tools.reconcile.Reconciler;
import io.sluice.tools.reconcile.TableAppender;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDateTime;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Namespace;
import org.apache.iceberg.catalog.SupportsNamespaces;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * {@code sluice bench reconcile}: N orders rows in a real MariaDB and the same rows in an Iceberg
 * table (JdbcCatalog on SQLite), then one timed reconciliation; prints rows/s and the peak heap
 * used during it. Setting both sides up is not timed.
 */
public final class ReconcileBench {
  static final Schema ORDERS =
      new Schema(
          Types.NestedField.required(1, "order_id", Types.LongType.get()),
          Types.NestedField.optional(2, "business_key", Types.StringType.get()),
          Types.NestedField.optional(3, "customer_id", Types.LongType.get()),
          Types.NestedField.optional(4, "amount_cents", Types.LongType.get()),
          Types.NestedField.optional(5, "status", Types.StringType.get()),
          Types.NestedField.optional(6, "event_id", Types.LongType.get()),
          Types.NestedField.optional(7, "seed", Types.IntegerType.get()),
          Types.NestedField.optional(8, "updated_at", Types.TimestampType.withoutZone()));

  /** What one run measured. */
  public record Result(
      long rows,
      double seconds,
      double rowsPerSecond,
      long peakHeapBytes,
      long maxHeapBytes,
      boolean converged) {}

  private final Path dir;
  private final Consumer<String> progress;

  public ReconcileBench(Path dir, Consumer<String> progress) {
    this.dir = dir;
    this.progress = progress;
  }

  public Result run(long rows, int seed) throws SQLException, IOException {
    Files.createDirectories(dir.resolve("iceberg"));
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(dir.resolve("mariadb"), 0);
        Connection c = db.connect();
        LakeCatalog lake = Catalogs.open(Catalogs.embedded(dir.resolve("iceberg")))) {
      try (Statement s = c.createStatement()) {
        s.execute(OrdersTable.CREATE_SQL);
      }
      progress.accept("bench reconcile: loading " + rows + " rows into MariaDB");
      new OrdersWorkload(seed)
          .run(c, rows, 0, 0, line -> progress.accept("bench reconcile: " + line));
      progress.accept("bench reconcile: copying them into Iceberg");
      Table table = icebergCopy(c, lake);

      Reconciler reconciler =
          new Reconciler(
              dir.resolve("sort"),
              Reconciler.DEFAULT_RUN_SIZE,
              10,
              Reconciler.DEFAULT_ROW_LIMIT,
              progress);
      System.gc();
      HeapSampler heap = HeapSampler.start();
      long started = System.nanoTime();
      ReconcileResult result;
      try {
        result = reconciler.reconcile(c, "cdc_lab", OrdersTable.NAME, table);
      } finally {
        heap.stop();
      }
      double seconds = (System.nanoTime() - started) / 1e9;
      return new Result(
          result.sourceRows(),
          seconds,
          result.sourceRows() / seconds,
          heap.maxUsedBytes(),
          Runtime.getRuntime().maxMemory(),
          result.converged());
    }
  }

  private Table icebergCopy(Connection c, LakeCatalog lake) throws SQLException {
    ((SupportsNamespaces) lake.catalog()).createNamespace(Namespace.of("cdc_lab"));
    Table table =
        lake.catalog().createTable(TableIdentifier.of("cdc_lab", "orders_current"), ORDERS);
    try (Statement s = c.createStatement();
        TableAppender appender = new TableAppender(table)) {
      s.setFetchSize(5_000);
      try (ResultSet rs =
          s.executeQuery(
              "SELECT order_id, business_key, customer_id, amount_cents, status, event_id, seed,"
                  + " updated_at FROM cdc_lab.orders")) {
        while (rs.next()) {
          Record row = GenericRecord.create(ORDERS);
          row.setField("order_id", rs.getLong(1));
          row.setField("business_key", rs.getString(2));
          row.setField("customer_id", rs.getLong(3));
          row.setField("amount_cents", rs.getLong(4));
          row.setField("status", rs.getString(5));
          row.setField("event_id", rs.getLong(6));
          row.setField("seed", rs.getInt(7));
          row.setField("updated_at", rs.getObject(8, LocalDateTime.class));
          appender.append(row);
        }
      }
    }
    return table;
  }

  /** Samples the heap in use every 20 ms on a daemon thread and keeps the largest value. */
  private static final class HeapSampler {
    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final AtomicLong max = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    private HeapSampler() {
      thread =
          new Thread(
              () -> {
                while (running) {
                  max.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
                  LockSupport.parkNanos(20_000_000L);
                }
              },
              "bench-heap-sampler");
      thread.setDaemon(true);
    }

    static HeapSampler start() {
      HeapSampler sampler = new HeapSampler();
      sampler.thread.start();
      return sampler;
    }

    void stop() {
      running = false;
      max.accumulateAndGet(memory.getHeapMemoryUsage().getUsed(), Math::max);
    }

    long maxUsedBytes() {
      return max.get();
    }
  }
}
