package io.sluice.tools.reconcile;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The base tables of the captured databases, read from {@code information_schema} (MariaDB and
 * MySQL alike): views, sequences and system tables are not captured, so they are not listed.
 */
public final class SourceTables {
  // KEY_COLUMN_USAGE.ORDINAL_POSITION is the column's place in the key, not in the table.
  static final String SQL =
      "SELECT t.TABLE_SCHEMA, t.TABLE_NAME, k.COLUMN_NAME"
          + " FROM information_schema.TABLES t"
          + " LEFT JOIN information_schema.KEY_COLUMN_USAGE k"
          + " ON k.TABLE_SCHEMA = t.TABLE_SCHEMA AND k.TABLE_NAME = t.TABLE_NAME"
          + " AND k.CONSTRAINT_NAME = 'PRIMARY'"
          + " WHERE t.TABLE_TYPE = 'BASE TABLE' AND t.TABLE_SCHEMA IN (%s)"
          + " ORDER BY k.ORDINAL_POSITION";

  private SourceTables() {}

  /**
   * Every base table of {@code databases}, ordered by database and name (code point order).
   *
   * @throws IllegalArgumentException when {@code databases} is empty
   */
  public static List<SourceTable> discover(Connection c, List<String> databases)
      throws SQLException {
    if (databases.isEmpty()) {
      throw new IllegalArgumentException("no database to discover tables in");
    }
    String sql = SQL.formatted(String.join(", ", Collections.nCopies(databases.size(), "?")));
    Map<String, List<String>> keys = new LinkedHashMap<>();
    Map<String, String[]> names = new LinkedHashMap<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < databases.size(); i++) {
        ps.setString(i + 1, databases.get(i));
      }
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          String db = rs.getString(1);
          String table = rs.getString(2);
          String id = db + "\u0000" + table;
          names.putIfAbsent(id, new String[] {db, table});
          List<String> key = keys.computeIfAbsent(id, k -> new ArrayList<>());
          String column = rs.getString(3);
          if (column != null) {
            key.add(column);
          }
        }
      }
    }
    List<SourceTable> tables = new ArrayList<>();
    names.forEach((id, n) -> tables.add(new SourceTable(n[0], n[1], keys.get(id))));
    // The server's collation orders names its own way (utf8mb3_general_ci puts orders before
    // order_items); code-point order is the same on every server.
    tables.sort(Comparator.comparing(SourceTable::database).thenComparing(SourceTable::name));
    return tables;
  }
}
