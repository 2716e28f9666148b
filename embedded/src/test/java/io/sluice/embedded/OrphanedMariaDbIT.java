package io.sluice.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.embedded.process.Leftovers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JVM running MariaDB SIGKILLed (the OOM killer, {@code kill -9}): its mariadbd must not outlive
 * it, and a start on the same data dir after one that did must stop the leftover and go on.
 */
class OrphanedMariaDbIT {
  private static final Duration WAIT = Duration.ofSeconds(60);

  @TempDir Path tmp;

  @AfterEach
  void noMariadbdLeft() {
    Leftovers.find(mark(tmp.resolve("db"))).forEach(ProcessHandle::destroyForcibly);
  }

  @Test
  void mariadbdEndsWithTheJvmThatStartedItWhenThatJvmIsSigkilled() throws Exception {
    Path dir = tmp.resolve("db");
    Process child = startChild(dir, true);
    List<ProcessHandle> mariadbd = Leftovers.find(mark(dir));
    assertThat(mariadbd).as("mariadbd of the child").hasSize(1);

    child.destroyForcibly().waitFor();

    await("mariadbd of the SIGKILLed JVM stopped by its reaper")
        .atMost(WAIT)
        .until(() -> Leftovers.find(mark(dir)).isEmpty());
    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(dir, 0)) {
      assertThat(value(db)).isEqualTo("killed");
    }
  }

  @Test
  void aStartOnTheDataDirOfAKilledStackStopsItsLeftoverMariadbdFirst() throws Exception {
    Path dir = tmp.resolve("db");
    Process child = startChild(dir, false);
    List<ProcessHandle> leftover = Leftovers.find(mark(dir));
    assertThat(leftover).hasSize(1);
    child.destroyForcibly().waitFor();
    await("without its reaper, mariadbd outlives the JVM")
        .during(Duration.ofSeconds(2))
        .atMost(Duration.ofSeconds(5))
        .until(leftover.get(0)::isAlive);

    try (EmbeddedMariaDb db = EmbeddedMariaDb.start(dir, 0)) {
      assertThat(leftover.get(0).isAlive()).as("the leftover was stopped").isFalse();
      assertThat(Leftovers.find(mark(dir))).hasSize(1).doesNotContain(leftover.get(0));
      assertThat(value(db)).isEqualTo("killed");
    }
  }

  private static String mark(Path dir) {
    return "--datadir=" + dir.resolve("data");
  }

  private Process startChild(Path dir, boolean guarded) throws Exception {
    Path output = tmp.resolve("child-" + guarded + ".log");
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Dsluice.orphan.guard=" + guarded);
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add(StartMariaDbAndWait.class.getName());
    command.add(dir.toString());
    Process child =
        new ProcessBuilder(command)
            .redirectErrorStream(true)
            .redirectOutput(output.toFile())
            .start();
    try {
      await("child JVM ready")
          .atMost(Duration.ofMinutes(3))
          .until(
              () ->
                  !child.isAlive()
                      || Files.exists(output) && Files.readString(output).contains("READY"));
      assertThat(child.isAlive())
          .as("child JVM; its output:%n%s", Files.readString(output))
          .isTrue();
      return child;
    } catch (RuntimeException | AssertionError e) {
      child.destroyForcibly();
      Leftovers.find(mark(dir)).forEach(ProcessHandle::destroyForcibly);
      throw e;
    }
  }

  private static String value(EmbeddedMariaDb db) throws Exception {
    try (Connection c = db.connect();
        Statement s = c.createStatement();
        ResultSet rs = s.executeQuery("SELECT v FROM t WHERE id = 7")) {
      return rs.next() ? rs.getString(1) : null;
    }
  }
}
