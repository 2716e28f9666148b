package io.sluice.tools.reconcile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JdbcRows over SQLite (no server to start): SQLite's dynamic typing lets a column declared INTEGER
 * hold text, which is how a server order that differs from SortKey's is made here.
 */
class JdbcRowsTest {
  @TempDir Path dir;

  private Connection sqlite(String... statements) throws Exception {
    Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("db.sqlite"));
    try (Statement s = c.createStatement()) {
      for (String statement : statements) {
        s.execute(statement);
      }
    }
    return c;
  }

  @Test
  void compositeKeyComesInKeyOrderNotColumnOrder() throws Exception {
    try (Connection c =
            sqlite(
                "CREATE TABLE items (line_no INTEGER NOT NULL, order_id INTEGER NOT NULL,"
                    + " PRIMARY KEY (order_id, line_no))",
                "INSERT INTO items VALUES (2, 1), (1, 2), (1, 1)");
        JdbcRows rows = JdbcRows.open(c, "main", "items")) {
      List<String> lines = new ArrayList<>();
      rows.forEachRemaining(r -> lines.add(r.line()));

      assertThat(rows.primaryKey()).containsExactly("order_id", "line_no");
      assertThat(rows.inKeyOrder()).isTrue();
      assertThat(lines)
          .containsExactly(
              "{\"line_no\":\"1\",\"order_id\":\"1\"}",
              "{\"line_no\":\"2\",\"order_id\":\"1\"}",
              "{\"line_no\":\"1\",\"order_id\":\"2\"}");
    }
  }

  @Test
  void textKeysAreNotTakenToArriveInKeyOrder() throws Exception {
    try (Connection c = sqlite("CREATE TABLE skus (code VARCHAR(8) NOT NULL PRIMARY KEY)");
        JdbcRows rows = JdbcRows.open(c, "main", "skus")) {
      assertThat(rows.inKeyOrder()).isFalse();
    }
  }

  @Test
  void aServerOrderOtherThanSortKeysFailsInsteadOfReportingFalseDrift() throws Exception {
    // SQLite orders the number 10 before the text '!'; SortKey compares "!" < "10".
    try (Connection c =
            sqlite(
                "CREATE TABLE odd (k INTEGER NOT NULL PRIMARY KEY, v TEXT) WITHOUT ROWID",
                "INSERT INTO odd VALUES (10, 'a'), ('!', 'b')");
        JdbcRows rows = JdbcRows.open(c, "main", "odd")) {
      assertThat(rows.inKeyOrder()).isTrue();
      rows.next();

      assertThatThrownBy(rows::next)
          .isInstanceOf(IllegalStateException.class)
          .hasMessage(
              "source table main.odd returned row 2 out of primary-key order [k]: the server"
                  + " orders this key differently than reconcile does");
    }
  }
}
