package io.sluice.connect.upsert.maintenance;

import java.util.List;
import java.util.Set;
import java.util.concurrent.locks.Lock;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CleanableFailure;
import org.apache.iceberg.exceptions.ValidationException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites one partition P as of a snapshot S (sequence number s): its live rows, read with
 * Iceberg's reader (deletes applied), go into new data files N, and ONE {@link RewriteFiles}
 * replaces all of P's data files D at S by N, with {@code validateFromSnapshot(S)} and {@code
 * dataSequenceNumber(s)}, and removes P's delete files that are dangling afterwards.
 *
 * <p>Why the table reads the same afterwards, whatever committed meanwhile:
 *
 * <ul>
 *   <li><b>N holds D's rows.</b> N is exactly what a read of P at S returns. With data sequence
 *       number s, N is seen by every later delete file as D was: an equality delete committed after
 *       S has a sequence number above s, so it still applies to N (data sequence number s is below
 *       it), as it applied to D. Without {@code dataSequenceNumber}, N would take the rewrite's own
 *       sequence number and the equality deletes committed between S and the rewrite (the sink's
 *       updates and deletes meanwhile) would stop applying: old rows would come back.
 *   <li><b>Position deletes committed after S</b> that name a file of D would be lost with it:
 *       Iceberg refuses the commit (validateFromSnapshot), and the rewrite is abandoned. Equality
 *       deletes after S are no conflict, so Iceberg does not check them once the data sequence
 *       number is set, and the sink's commits never fail a rewrite.
 *   <li><b>Data files committed after S</b> (the sink's, meanwhile) are not in D and stay; their
 *       sequence numbers are above s.
 *   <li><b>Removed: every equality delete e of P with sequence number at most s.</b> It applies
 *       only to P's data files of data sequence number below its own, so at most s - 1. After the
 *       commit P has only N (data sequence number s) and files committed after S (above s): e
 *       applies to nothing, and removing it changes no read. Every equality delete P had at S is of
 *       this kind, so none older than S stays at rest.
 *   <li><b>Removed: every position delete q of P with sequence number at most s</b> whose data file
 *       is unknown or in D. It applies to data files of data sequence number at most its own, named
 *       by path, all of them in D (N has new paths): once D is gone q applies to nothing. One that
 *       names a file outside D is kept.
 *   <li><b>Kept: delete files committed after S.</b> They are not in S's inventory and are not
 *       touched; they go on applying to N and to newer files.
 *   <li><b>Another rewrite</b> (a second maintainer during a rebalance, an external compaction)
 *       that replaced or removed any file of D or of the removed deletes after S makes this commit
 *       fail (a replaced file must still exist); it is abandoned and N deleted. Data files of data
 *       sequence number at most s can only enter P after S through such a rewrite of files of D.
 *   <li><b>Offsets.</b> The snapshot carries no {@code sluice.offsets.*} entries, so the sink's
 *       offset lookup and its fence walk past it and see the same offsets as before.
 * </ul>
 *
 * Deletes of an unpartitioned spec apply to every partition, so tables whose live files span
 * several specs are not rewritten ({@link TableMaintenance}).
 */
final class PartitionRewrite {
  private static final Logger log = LoggerFactory.getLogger(PartitionRewrite.class);

  /** What became of a rewrite. */
  enum Result {
    COMMITTED,
    ABANDONED,
    NOTHING_TO_DO
  }

  private final PartitionWriter writer;
  private final Lock commits;

  /**
   * @param taskId part of the new files' names
   * @param stopping true once the task stops: the rewrite ends, its files deleted
   * @param commits held while the commit reaches the catalog (the task's commits wait meanwhile)
   */
  PartitionRewrite(int taskId, long targetFileSizeBytes, BooleanSupplier stopping, Lock commits) {
    this.writer = new PartitionWriter(taskId, targetFileSizeBytes, stopping);
    this.commits = commits;
  }

  /** Rewrites {@code group}, the files of one partition at {@code base}. */
  Result rewrite(Table table, Snapshot base, FileGroup group) {
    long sequence = base.sequenceNumber();
    Set<String> replaced =
        group.dataFiles().stream().map(DataFile::location).collect(Collectors.toSet());
    List<DeleteFile> dangling = DanglingDeletes.select(group.deleteFiles(), sequence, replaced);
    if (replaced.isEmpty() && dangling.isEmpty()) {
      return Result.NOTHING_TO_DO;
    }
    List<DataFile> written = replaced.isEmpty() ? List.of() : writer.write(table, base, group);
    RewriteFiles rewrite =
        table.newRewrite().validateFromSnapshot(base.snapshotId()).dataSequenceNumber(sequence);
    group.dataFiles().forEach(rewrite::deleteFile);
    dangling.forEach(rewrite::deleteFile);
    written.forEach(rewrite::addFile);
    commits.lock();
    try {
      rewrite.commit();
    } catch (ValidationException e) {
      delete(table, written);
      log.info(
          "Rewrite of {} {} abandoned: another commit changed its files ({})",
          table.name(),
          group.name(),
          e.getMessage());
      return Result.ABANDONED;
    } catch (RuntimeException e) {
      // As Iceberg itself judges (SnapshotProducer cleans up only then): only a CleanableFailure
      // certainly did not commit. A lost reply (RESTException, UncheckedSQLException) or an
      // unknown state may have: the current snapshot may name the new files, and deleting them
      // would break every read of the partition. Orphan removal finds them if they are not in it.
      if (e instanceof CleanableFailure) {
        delete(table, written);
      } else {
        log.warn(
            "Rewrite of {} {} may have committed ({}); its files are kept",
            table.name(),
            group.name(),
            e.toString());
      }
      throw e;
    } finally {
      commits.unlock();
    }
    log.info(
        "Rewrote {} {} as of snapshot {}: {} data files into {}, {} delete files removed",
        table.name(),
        group.name(),
        base.snapshotId(),
        replaced.size(),
        written.size(),
        dangling.size());
    return Result.COMMITTED;
  }

  static void delete(Table table, List<DataFile> files) {
    try {
      files.forEach(f -> table.io().deleteFile(f.location()));
    } catch (RuntimeException e) {
      log.warn("Could not delete the files of an abandoned rewrite of {}", table.name(), e);
    }
  }
}
