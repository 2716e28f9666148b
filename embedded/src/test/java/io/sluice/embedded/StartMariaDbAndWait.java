package io.sluice.embedded;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.concurrent.CountDownLatch;

/**
 * Run in a child JVM by {@link OrphanedMariaDbIT}: starts MariaDB on {@code args[0]}, writes one
 * row, prints {@code READY} and waits to be killed.
 */
public final class StartMariaDbAndWait {
  private StartMariaDbAndWait() {}

  public static void main(String[] args) throws Exception {
    EmbeddedMariaDb db = EmbeddedMariaDb.start(Path.of(args[0]), 0);
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS t (id BIGINT PRIMARY KEY, v VARCHAR(10))");
      s.execute("REPLACE INTO t VALUES (7, 'killed')");
    }
    System.out.println("READY");
    System.out.flush();
    new CountDownLatch(1).await(); // until the test kills this JVM
  }
}
