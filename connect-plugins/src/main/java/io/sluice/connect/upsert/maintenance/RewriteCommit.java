package io.sluice.connect.upsert.maintenance;

import java.util.List;
import java.util.concurrent.locks.Lock;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CleanableFailure;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits a rewrite's {@link RewriteFiles} while holding the commit lock, and deletes the files it
 * wrote when Iceberg certainly did not commit them.
 */
final class RewriteCommit {
  private static final Logger log = LoggerFactory.getLogger(RewriteCommit.class);

  /** What became of a rewrite. */
  enum Result {
    COMMITTED,
    ABANDONED,
    NOTHING_TO_DO
  }

  private final Lock commits;

  /**
   * @param commits held while the commit reaches the catalog (the task's commits wait meanwhile)
   */
  RewriteCommit(Lock commits) {
    this.commits = commits;
  }

  /**
   * @param written the new data files {@code rewrite} adds
   * @param what the rewrite, for logs ("partition b=1 of db.t")
   * @return {@link Result#ABANDONED} when Iceberg refused it (another commit changed its files)
   */
  Result commit(Table table, RewriteFiles rewrite, List<DataFile> written, String what) {
    commits.lock();
    try {
      rewrite.commit();
      return Result.COMMITTED;
    } catch (ValidationException e) {
      delete(table, written);
      log.info(
          "Rewrite of {} abandoned: another commit changed its files ({})", what, e.getMessage());
      return Result.ABANDONED;
    } catch (RuntimeException e) {
      // As Iceberg itself judges (SnapshotProducer cleans up only then): only a CleanableFailure
      // certainly did not commit. A lost reply (RESTException, UncheckedSQLException) or an
      // unknown state may have: the current snapshot may name the new files, and deleting them
      // would break every read of them. Orphan removal finds them if they are not in it.
      if (e instanceof CleanableFailure) {
        delete(table, written);
      } else {
        log.warn("Rewrite of {} may have committed ({}); its files are kept", what, e.toString());
      }
      throw e;
    } finally {
      commits.unlock();
    }
  }

  static void delete(Table table, List<DataFile> files) {
    try {
      files.forEach(f -> table.io().deleteFile(f.location()));
    } catch (RuntimeException e) {
      log.warn("Could not delete the files of an abandoned rewrite of {}", table.name(), e);
    }
  }
}
