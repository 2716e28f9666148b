package io.sluice.stack.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.contract.ReadyFile;
import io.sluice.embedded.ConnectRestClient;
import io.sluice.embedded.EmbeddedMariaDb;
import io.sluice.embedded.process.Leftovers;
import io.sluice.embedded.process.ListeningSockets;
import io.sluice.lake.Catalogs;
import io.sluice.lake.LakeCatalog;
import io.sluice.stack.StackLayout;
import io.sluice.stack.db.LabTables;
import io.sluice.stack.db.TableWorkload;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.catalog.TableIdentifier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code sluice up} in its own JVM ends promptly on SIGTERM (Ctrl-C, {@code kill}) with its
 * connectors running: Kafka Connect's own shutdown hook runs beside the stack's, and the broker
 * must not stop before it is done (it once hung for minutes), and no mariadbd is left.
 */
class UpStopsOnSigtermIT {
  @TempDir Path tmp;
  private Process up;

  @AfterEach
  void nothingLeft() {
    if (up != null) {
      up.destroyForcibly();
    }
    Leftovers.find("--datadir=" + tmp.resolve("data").resolve("mariadb"))
        .forEach(ProcessHandle::destroyForcibly);
  }

  private static TableIdentifier changelogOf(String table) {
    return TableIdentifier.of(EmbeddedMariaDb.DATABASE, table + "_changelog");
  }

  @Test
  void sigtermStopsTheWholeStackWithinAMinute() throws Exception {
    Path ready = tmp.resolve("ready.json");
    Path log = tmp.resolve("up.out");
    up =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx768m",
                "-cp",
                System.getProperty("java.class.path"),
                RunUp.class.getName(),
                "--data-dir",
                tmp.resolve("data").toString(),
                "--ready-file",
                ready.toString())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile())
            .start();
    await("sluice up ready")
        .atMost(Duration.ofMinutes(3))
        .until(() -> Files.exists(ready) || !up.isAlive());
    assertThat(up.isAlive()).as("sluice up; its output:%n%s", Files.readString(log)).isTrue();
    Map<String, Object> endpoints = new ReadyFile(ready).read();
    // Every port of the ready file, and any other the stack opened, is on loopback only.
    for (long pid :
        List.of(up.pid(), Leftovers.find("--datadir=" + tmp.resolve("data")).get(0).pid())) {
      assertThat(ListeningSockets.of(pid))
          .as("sockets pid %d listens on", pid)
          .isNotEmpty()
          .allMatch(ListeningSockets.Socket::loopback);
    }
    try (Connection c =
        DriverManager.getConnection(
            endpoints.get(ReadyFile.JDBC_URL).toString(),
            endpoints.get(ReadyFile.JDBC_USER).toString(),
            endpoints.get(ReadyFile.JDBC_PASSWORD).toString())) {
      for (String name : LabTables.ALL) {
        TableWorkload workload = LabTables.workload(name, 2);
        try (Statement s = c.createStatement()) {
          s.execute(workload.createSql());
        }
        workload.run(c, 200, 40, 20, line -> {});
      }
    }
    // Both sinks run tasks that have committed: the hang needed running connectors.
    ConnectRestClient connect =
        new ConnectRestClient(endpoints.get(ReadyFile.CONNECT_URL).toString());
    try (LakeCatalog lake = Catalogs.open(new ReadyFile(ready).icebergCatalog())) {
      await("both sinks running and every table's changelog in the lake")
          .atMost(Duration.ofMinutes(2))
          .ignoreExceptions()
          .until(
              () ->
                  connect.status(StackLayout.DEFAULT.upsertSink()).running()
                      && connect.status(StackLayout.DEFAULT.changelogSink()).running()
                      && LabTables.ALL.stream()
                          .allMatch(name -> lake.catalog().tableExists(changelogOf(name))));
    }
    List<ProcessHandle> mariadbd = Leftovers.find("--datadir=" + tmp.resolve("data"));
    long started = System.nanoTime();

    up.destroy();

    if (!up.waitFor(60, TimeUnit.SECONDS)) {
      // The evidence first (a CI log keeps the head of a message): what its threads do, then
      // where the whole output and log were kept.
      Path kept = keepEvidence(log);
      assertThat(false)
          .as(
              "sluice up ended within 60 s of SIGTERM; its threads:%n%s%nits output and log kept"
                  + " in %s",
              threadDump(up.pid()), kept)
          .isTrue();
    }
    long seconds = TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started);
    if (Files.readString(log).contains("did not stop within")) {
      // Still within the promise (ended, nothing left), but not a clean stop: keep what hung.
      System.out.printf(
          "sluice up needed its stop limit's kill; output and log kept in %s%n", keepEvidence(log));
    }
    assertThat(Files.exists(ready)).as("ready file removed").isFalse();
    assertThat(Leftovers.find("--datadir=" + tmp.resolve("data")))
        .as("mariadbd of the stack, %d s after SIGTERM", seconds)
        .isEmpty();
    assertThat(mariadbd).isNotEmpty();
  }

  /** {@code jcmd <pid> Thread.print} of the running {@code sluice up}. */
  private static String threadDump(long pid) throws Exception {
    Path jcmd = Path.of(System.getProperty("java.home"), "bin", "jcmd");
    Process p =
        new ProcessBuilder(jcmd.toString(), Long.toString(pid), "Thread.print")
            .redirectErrorStream(true)
            .start();
    String dump = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor(30, TimeUnit.SECONDS);
    return dump;
  }

  /** Copies the console output and the stack's log to target/, which the temp dir is not. */
  private Path keepEvidence(Path console) throws Exception {
    Path kept =
        Path.of("target", "evidence", "UpStopsOnSigtermIT-" + System.currentTimeMillis())
            .toAbsolutePath();
    Files.createDirectories(kept);
    Files.copy(console, kept.resolve("console.out"));
    Path stackLog = tmp.resolve("data").resolve("logs").resolve("sluice-up.log");
    if (Files.exists(stackLog)) {
      Files.copy(stackLog, kept.resolve("sluice-up.log"));
    }
    return kept;
  }
}
