package io.sluice.stack.db;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.embedded.EmbeddedMariaDb;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `sluice load`'s workloads on a real MariaDB: the same seed writes the same rows. */
class LabWorkloadsIT {
  @TempDir Path dir;

  @Test
  void eachTableGetsTheSameRowsAndEventIdsForTheSameSeedAndSeedsDoNotCollide() throws Exception {
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(dir.resolve("mariadb"), 0);
        Connection c = db.connect();
        Statement s = c.createStatement()) {
      for (String name : LabTables.ALL) {
        TableWorkload workload = LabTables.workload(name, 5);
        s.execute(workload.createSql());

        TableWorkload.Result first = workload.run(c, 50, 10, 5, line -> {});
        List<String> firstRows = rows(s, workload.table());
        s.execute("DELETE FROM " + workload.table());
        TableWorkload.Result second = LabTables.workload(name, 5).run(c, 50, 10, 5, line -> {});

        assertThat(rows(s, workload.table())).as(name).isEqualTo(firstRows).hasSize(45);
        assertThat(second).isEqualTo(first);
        assertThat(first.lastEventId()).isEqualTo(5 * TableWorkload.ID_SPAN + 65);

        LabTables.workload(name, 6).run(c, 20, 0, 0, line -> {});
        assertThat(rows(s, workload.table())).as(name).hasSize(65).containsAll(firstRows);
      }
      assertThatThrownBy(() -> new OrdersWorkload(7).run(c, 3, 4, 0, line -> {}))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("cannot exceed --rows (3)");
      assertThatThrownBy(() -> LabTables.workload("payments", 1))
          .hasMessageContaining("unknown table 'payments'")
          .hasMessageContaining("order_items");
    }
  }

  @Test
  void orderItemsHaveThreeLinesPerOrderAndOneLinesChangesLeaveItsSiblings() throws Exception {
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(dir.resolve("mariadb"), 0);
        Connection c = db.connect();
        Statement s = c.createStatement()) {
      OrderItemsWorkload items = new OrderItemsWorkload(3);
      s.execute(items.createSql());
      items.run(c, 9, 0, 1, line -> {});
      List<String> keys = new ArrayList<>();
      try (ResultSet rs =
          s.executeQuery(
              "SELECT order_id, line_no FROM " + OrderItemsWorkload.TABLE + " ORDER BY 1, 2")) {
        while (rs.next()) {
          keys.add((rs.getLong(1) - 3 * TableWorkload.ID_SPAN) + "/" + rs.getInt(2));
        }
      }
      // Row 9 (order 3, line 3) was deleted; lines 1 and 2 of order 3 stay.
      assertThat(keys).containsExactly("1/1", "1/2", "1/3", "2/1", "2/2", "2/3", "3/1", "3/2");
    }
  }

  private static List<String> rows(Statement s, String table) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs = s.executeQuery("SELECT * FROM " + table + " ORDER BY 1, 2")) {
      int columns = rs.getMetaData().getColumnCount();
      while (rs.next()) {
        StringBuilder row = new StringBuilder();
        for (int i = 1; i <= columns; i++) {
          row.append(rs.getString(i)).append('|');
        }
        rows.add(row.toString());
      }
    }
    return rows;
  }
}
