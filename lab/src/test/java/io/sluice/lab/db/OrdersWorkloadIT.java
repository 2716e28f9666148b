package io.sluice.lab.db;

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

/** `sluice load`'s workload on a real MariaDB: the same seed writes the same rows. */
class OrdersWorkloadIT {
  @TempDir Path dir;

  @Test
  void theSameSeedWritesTheSameRowsAndEventIdsAndSeedsDoNotCollide() throws Exception {
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(dir.resolve("mariadb"), 0);
        Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute(OrdersTable.CREATE_SQL);

      OrdersWorkload.Result first = new OrdersWorkload(5).run(c, 50, 10, 5, line -> {});
      List<String> firstRows = rows(s);
      s.execute("DELETE FROM " + OrdersTable.QUALIFIED_NAME);
      OrdersWorkload.Result second = new OrdersWorkload(5).run(c, 50, 10, 5, line -> {});

      assertThat(rows(s)).isEqualTo(firstRows).hasSize(45);
      assertThat(second).isEqualTo(first);
      assertThat(first.lastEventId()).isEqualTo(5 * OrdersWorkload.ID_SPAN + 65);

      new OrdersWorkload(6).run(c, 20, 0, 0, line -> {});
      assertThat(rows(s)).hasSize(65).containsAll(firstRows);
      assertThatThrownBy(() -> new OrdersWorkload(7).run(c, 3, 4, 0, line -> {}))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("cannot exceed --rows (3)");
    }
  }

  private static List<String> rows(Statement s) throws SQLException {
    List<String> rows = new ArrayList<>();
    try (ResultSet rs =
        s.executeQuery("SELECT * FROM " + OrdersTable.QUALIFIED_NAME + " ORDER BY order_id")) {
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
