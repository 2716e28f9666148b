package io.sluice.bench.backfill;

import io.sluice.stack.db.OrdersTable;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.function.Consumer;

/**
 * Fills {@code cdc_lab.orders} with rows 1..N fast: multi-row {@code INSERT}s of {@value
 * #ROWS_PER_STATEMENT} rows, {@value #STATEMENTS_PER_TRANSACTION} of them per transaction. The
 * values are a pure function of the row number, so two loads of N rows hold the same table.
 */
final class OrdersLoader {
  static final int ROWS_PER_STATEMENT = 1_000;
  static final int STATEMENTS_PER_TRANSACTION = 10;
  private static final int COLUMNS = 8;
  private static final Instant EPOCH = Instant.parse("2026-01-01T00:00:00Z");
  private static final String[] STATUSES = {"NEW", "PAID", "PACKED", "SHIPPED"};

  private final Consumer<String> progress;

  OrdersLoader(Consumer<String> progress) {
    this.progress = progress;
  }

  /** Creates the table unless it exists and inserts rows 1..{@code rows}; returns the seconds. */
  double load(Connection c, long rows) throws SQLException {
    long started = System.nanoTime();
    try (Statement s = c.createStatement()) {
      s.execute(OrdersTable.CREATE_SQL);
    }
    c.setAutoCommit(false);
    long step = Math.max(1, rows / 10);
    long nextReport = step;
    try (PreparedStatement full = c.prepareStatement(insertSql(ROWS_PER_STATEMENT))) {
      long next = 1;
      int statements = 0;
      while (next <= rows) {
        int n = (int) Math.min(ROWS_PER_STATEMENT, rows - next + 1);
        if (n == ROWS_PER_STATEMENT) {
          bind(full, next, n);
          full.executeUpdate();
        } else {
          try (PreparedStatement tail = c.prepareStatement(insertSql(n))) {
            bind(tail, next, n);
            tail.executeUpdate();
          }
        }
        next += n;
        if (++statements % STATEMENTS_PER_TRANSACTION == 0 || next > rows) {
          c.commit();
        }
        long done = next - 1;
        if (done >= nextReport || done == rows) {
          double seconds = (System.nanoTime() - started) / 1e9;
          progress.accept(
              String.format(
                  "loaded %,d/%,d rows (%d%%, %,.0f rows/s)",
                  done, rows, done * 100 / rows, done / seconds));
          nextReport = (done / step + 1) * step;
        }
      }
    } finally {
      c.setAutoCommit(true);
    }
    return (System.nanoTime() - started) / 1e9;
  }

  private static String insertSql(int rows) {
    StringBuilder sql =
        new StringBuilder(
            "INSERT INTO "
                + OrdersTable.QUALIFIED_NAME
                + " (order_id, business_key, customer_id, amount_cents, status, event_id, seed,"
                + " updated_at) VALUES ");
    for (int i = 0; i < rows; i++) {
      sql.append(i == 0 ? "" : ",").append("(?,?,?,?,?,?,?,?)");
    }
    return sql.toString();
  }

  private static void bind(PreparedStatement ps, long first, int rows) throws SQLException {
    for (int i = 0; i < rows; i++) {
      long id = first + i;
      int p = i * COLUMNS;
      ps.setLong(p + 1, id);
      ps.setString(p + 2, "BK-" + id);
      ps.setLong(p + 3, 1 + id % 10_000);
      ps.setLong(p + 4, 100 + (id * 7_919) % 1_000_000);
      ps.setString(p + 5, STATUSES[(int) (id % STATUSES.length)]);
      ps.setLong(p + 6, id);
      ps.setInt(p + 7, 0);
      ps.setObject(p + 8, LocalDateTime.ofInstant(EPOCH.plusSeconds(id), ZoneOffset.UTC));
    }
  }
}
