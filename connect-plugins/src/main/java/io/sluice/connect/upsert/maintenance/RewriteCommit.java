package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.write.PositionDeltaWriter;
import io.sluice.lake.SameThreadExecutor;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
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
      SameThreadExecutor.manifestsOnThisThread(rewrite).commit();
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

  /** A rewrite ready to commit against the table as it is now, and the delete files it wrote. */
  record Prepared(RewriteFiles rewrite, List<DeleteFile> written) {}

  /**
   * Commits a rewrite that is prepared anew, against the table as it is then, while holding the
   * commit lock: first at once, and again after each commit that Iceberg refuses because another
   * writer changed the replaced files meanwhile, {@code attempts} times in all.
   *
   * @param written the new data files each prepared rewrite adds
   * @param prepare prepares the rewrite against the table just refreshed; empty when it cannot be
   *     any more (a replaced file is gone)
   * @return {@link Result#ABANDONED} when it could not be prepared or every attempt was refused
   */
  Result commit(
      Table table,
      List<DataFile> written,
      String what,
      int attempts,
      Supplier<Optional<Prepared>> prepare) {
    commits.lock();
    try {
      for (int attempt = 1; attempt <= attempts; attempt++) {
        Optional<Prepared> prepared;
        try {
          table.refresh();
          prepared = prepare.get();
        } catch (RuntimeException e) {
          // Nothing reached the catalog: the new files are nobody's.
          delete(table, written);
          throw e;
        }
        if (prepared.isEmpty()) {
          delete(table, written);
          log.info("Rewrite of {} abandoned: its files changed beyond what it can carry", what);
          return Result.ABANDONED;
        }
        try {
          SameThreadExecutor.manifestsOnThisThread(prepared.get().rewrite()).commit();
          return Result.COMMITTED;
        } catch (ValidationException e) {
          deleteDeletes(table, prepared.get().written());
          log.info(
              "Rewrite of {} refused, attempt {} of {}: another commit changed its files ({})",
              what,
              attempt,
              attempts,
              e.getMessage());
        } catch (RuntimeException e) {
          if (e instanceof CleanableFailure) {
            delete(table, written);
            deleteDeletes(table, prepared.get().written());
          } else {
            log.warn(
                "Rewrite of {} may have committed ({}); its files are kept", what, e.toString());
          }
          throw e;
        }
      }
      delete(table, written);
      log.info("Rewrite of {} abandoned: refused {} times", what, attempts);
      return Result.ABANDONED;
    } finally {
      commits.unlock();
    }
  }

  private static void deleteDeletes(Table table, List<DeleteFile> files) {
    PositionDeltaWriter.delete(table, List.of(), files);
  }

  static void delete(Table table, List<DataFile> files) {
    try {
      files.forEach(f -> table.io().deleteFile(f.location()));
    } catch (RuntimeException e) {
      log.warn("Could not delete the files of an abandoned rewrite of {}", table.name(), e);
    }
  }
}
