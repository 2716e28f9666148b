package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.maintenance.RewriteCommit.Result;
import io.sluice.connect.upsert.write.PartitionFilter;
import io.sluice.lake.ScanRows;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites one whole partition P as of a snapshot S (sequence number s), the rewrite that removes
 * equality deletes ({@link FileRewrite} rewrites some files of a partition): its live rows, read
 * with Iceberg's reader (deletes applied), go into new data files N, and ONE {@link RewriteFiles}
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

  private final PartitionWriter writer;
  private final RewriteCommit commit;

  /**
   * @param taskId part of the new files' names
   * @param stopping true once the task stops: the rewrite ends, its files deleted
   */
  PartitionRewrite(
      int taskId, long targetFileSizeBytes, BooleanSupplier stopping, RewriteCommit commit) {
    this.writer = new PartitionWriter(taskId, targetFileSizeBytes, stopping);
    this.commit = commit;
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
    PartitionSpec spec = table.specs().get(group.specId());
    List<DataFile> written =
        replaced.isEmpty()
            ? List.of()
            : writer.write(
                table,
                group,
                carried ->
                    ScanRows.read(
                        table
                            .newScan()
                            .useSnapshot(base.snapshotId())
                            .project(carried)
                            .filter(PartitionFilter.of(table.schema(), spec, group.partition()))));
    RewriteFiles rewrite =
        table.newRewrite().validateFromSnapshot(base.snapshotId()).dataSequenceNumber(sequence);
    group.dataFiles().forEach(rewrite::deleteFile);
    dangling.forEach(rewrite::deleteFile);
    written.forEach(rewrite::addFile);
    Result result = commit.commit(table, rewrite, written, table.name() + " " + group.name());
    if (result == Result.COMMITTED) {
      log.info(
          "Rewrote {} {} as of snapshot {}: {} data files ({} bytes) into {} ({} bytes), {} delete"
              + " files removed",
          table.name(),
          group.name(),
          base.snapshotId(),
          replaced.size(),
          group.dataFiles().stream().mapToLong(DataFile::fileSizeInBytes).sum(),
          written.size(),
          written.stream().mapToLong(DataFile::fileSizeInBytes).sum(),
          dangling.size());
    }
    return result;
  }
}
