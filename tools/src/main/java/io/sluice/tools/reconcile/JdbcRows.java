package io.sluice.tools.reconcile;

import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Types;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The rows of a source table over JDBC, streamed in primary-key order (the database sorts), as
 * canonical lines. Holds one row in memory.
 */
final class JdbcRows implements Iterator<KeyedLine>, AutoCloseable {
  private static final int FETCH_SIZE = 5_000;
  // Key types whose ORDER BY is SortKey's order. Text is not: a collation (utf8mb4's default is
  // case-insensitive) orders a before B, code points B first; ENUM sorts by index.
  private static final Set<Integer> SERVER_ORDERED =
      Set.of(
          Types.TINYINT,
          Types.SMALLINT,
          Types.INTEGER,
          Types.BIGINT,
          Types.DECIMAL,
          Types.NUMERIC,
          Types.REAL,
          Types.FLOAT,
          Types.DOUBLE,
          Types.DATE,
          Types.TIMESTAMP,
          Types.BINARY,
          Types.VARBINARY);

  private final Statement statement;
  private final ResultSet rs;
  private final List<String> columns;
  private final List<String> primaryKey;
  private final int[] keyIndexes;
  private final int[] types;
  private final String name;
  private final boolean inKeyOrder;
  private SortKey previous;
  private long read;
  private Boolean hasNext;

  private JdbcRows(
      String name, Statement statement, ResultSet rs, List<String> columns, List<String> primaryKey)
      throws SQLException {
    this.name = name;
    this.statement = statement;
    this.rs = rs;
    this.columns = columns;
    this.primaryKey = primaryKey;
    this.keyIndexes = primaryKey.stream().mapToInt(k -> columns.indexOf(k) + 1).toArray();
    ResultSetMetaData meta = rs.getMetaData();
    this.types = new int[columns.size() + 1];
    for (int i = 1; i <= columns.size(); i++) {
      types[i] = meta.getColumnType(i);
    }
    boolean ordered = true;
    for (int k : keyIndexes) {
      ordered &= SERVER_ORDERED.contains(types[k]);
    }
    this.inKeyOrder = ordered;
  }

  /**
   * Opens {@code db.table} ordered by its primary key.
   *
   * @throws IllegalArgumentException when the table does not exist or has no primary key
   */
  static JdbcRows open(Connection c, String db, String table) throws SQLException {
    List<String> primaryKey = primaryKey(c.getMetaData(), db, table);
    List<String> columns = columns(c.getMetaData(), db, table);
    if (columns.isEmpty()) {
      throw new IllegalArgumentException("source table " + db + "." + table + " does not exist");
    }
    if (primaryKey.isEmpty()) {
      throw new IllegalArgumentException(
          "source table " + db + "." + table + " has no primary key: rows cannot be matched");
    }
    Statement statement =
        c.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY);
    statement.setFetchSize(FETCH_SIZE);
    String sql =
        "SELECT "
            + String.join(", ", columns.stream().map(JdbcRows::quote).toList())
            + " FROM "
            + quote(db)
            + "."
            + quote(table)
            + " ORDER BY "
            + String.join(", ", primaryKey.stream().map(JdbcRows::quote).toList());
    return new JdbcRows(
        db + "." + table, statement, statement.executeQuery(sql), columns, primaryKey);
  }

  List<String> columns() {
    return columns;
  }

  List<String> primaryKey() {
    return primaryKey;
  }

  /**
   * Whether the rows arrive in {@link SortKey} order: true when every key column is a number, a
   * date, a datetime or bytes; otherwise the caller sorts them (see {@link Reconciler}).
   */
  boolean inKeyOrder() {
    return inKeyOrder;
  }

  @Override
  public boolean hasNext() {
    if (hasNext == null) {
      try {
        hasNext = rs.next();
      } catch (SQLException e) {
        throw new IllegalStateException("reading the source table failed: " + e.getMessage(), e);
      }
    }
    return hasNext;
  }

  @Override
  public KeyedLine next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    hasNext = null;
    try {
      Object[] values = new Object[columns.size()];
      for (int i = 1; i <= values.length; i++) {
        values[i - 1] = value(i);
      }
      Object[] key = new Object[keyIndexes.length];
      for (int k = 0; k < key.length; k++) {
        key[k] = values[keyIndexes[k] - 1];
      }
      SortKey sortKey = SortKey.of(key);
      read++;
      if (inKeyOrder) {
        // A wrong claim would pair the wrong rows and report drift that is not there.
        if (previous != null && sortKey.compareTo(previous) <= 0) {
          throw new IllegalStateException(
              "source table "
                  + name
                  + " returned row "
                  + read
                  + " out of primary-key order "
                  + primaryKey
                  + ": the server orders this key differently than reconcile does");
        }
        previous = sortKey;
      }
      return new KeyedLine(sortKey, CanonicalRows.line(columns, values));
    } catch (SQLException e) {
      throw new IllegalStateException("reading the source table failed: " + e.getMessage(), e);
    }
  }

  private Object value(int i) throws SQLException {
    return switch (types[i]) {
      case Types.TIMESTAMP, Types.TIMESTAMP_WITH_TIMEZONE -> rs.getObject(i, LocalDateTime.class);
      default -> rs.getObject(i);
    };
  }

  private static List<String> primaryKey(DatabaseMetaData meta, String db, String table)
      throws SQLException {
    List<String> key = new ArrayList<>();
    List<Short> seq = new ArrayList<>();
    try (ResultSet rs = meta.getPrimaryKeys(db, null, table)) {
      while (rs.next()) {
        key.add(rs.getString("COLUMN_NAME"));
        seq.add(rs.getShort("KEY_SEQ"));
      }
    }
    List<String> ordered = new ArrayList<>(key);
    for (int i = 0; i < key.size(); i++) {
      ordered.set(seq.get(i) - 1, key.get(i));
    }
    return ordered;
  }

  private static List<String> columns(DatabaseMetaData meta, String db, String table)
      throws SQLException {
    List<String> columns = new ArrayList<>();
    // getColumns takes a LIKE pattern: unescaped, order_items would match orderXitems too.
    String escape = meta.getSearchStringEscape();
    String pattern = table.replace(escape, escape + escape).replace("_", escape + "_");
    pattern = pattern.replace("%", escape + "%");
    try (ResultSet rs = meta.getColumns(db, null, pattern, null)) {
      while (rs.next()) {
        columns.add(rs.getString("COLUMN_NAME"));
      }
    }
    return columns;
  }

  private static String quote(String identifier) {
    return "`" + identifier.replace("`", "``") + "`";
  }

  @Override
  public void close() throws SQLException {
    try {
      rs.close();
    } finally {
      statement.close();
    }
  }
}
