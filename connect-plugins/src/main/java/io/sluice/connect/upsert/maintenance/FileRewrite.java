package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.maintenance.RewriteCommit.Result;
import java.util.List;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites some data files D of one partition P (a {@link FileBin}) as of a snapshot S (sequence
 * number s): their live rows at S, read with Iceberg's reader (every delete that applies at S
 * applied, {@link DataFileRows}), go into new data files N, and ONE {@link RewriteFiles} removes D
 * and the position deletes X of data sequence number at most s that name a file of D alone (its DV,
 * its file-scoped position deletes), and adds N, with {@code validateFromSnapshot(S)} and {@code
 * dataSequenceNumber(s)}. The partition's other files are not read or touched.
 *
 * <p>Why the table reads the same afterwards, whatever committed meanwhile:
 *
 * <ul>
 *   <li><b>N holds D's rows</b>, exactly those a read at S returns from D.
 *   <li><b>Removed: X.</b> A position delete applies to the one path it names, and no file of N has
 *       a path of D: once D is gone, X applies to nothing.
 *   <li><b>Kept: equality deletes of sequence number at most s.</b> Such a delete e applies to data
 *       files of data sequence number below its own. The rows of D it deleted are not in N, and N,
 *       of data sequence number s, is not older than e, so e does not apply to N (no row of N could
 *       be deleted twice or wrongly). But e may still delete rows of P's files outside D that are
 *       older than it, so it stays; only a rewrite of the whole partition ({@link
 *       PartitionRewrite}) removes it.
 *   <li><b>Kept: position deletes of several files</b> (no single referenced data file). The rows
 *       of D they deleted are not in N, and they name rows by path, never N's; they may name files
 *       outside D, so they stay, for the whole-partition rewrite to remove.
 *   <li><b>An equality delete committed after S</b> (a fallback of the sink meanwhile) has a
 *       sequence number above s, so it applies to N as it applied to D: the keys it deletes are
 *       deleted in N too. Iceberg does not check equality deletes once the data sequence number is
 *       set ({@code MergingSnapshotProducer.validateNoNewDeletesForDataFiles} ignores them when
 *       {@code newDataFilesDataSequenceNumber} is set), so it never fails the rewrite. Without
 *       {@code dataSequenceNumber}, N would take the rewrite's own sequence number and such deletes
 *       would stop applying: old rows would come back.
 *   <li><b>A DV or position delete committed after S that names a file of D</b> (the sink deleting
 *       a key of D meanwhile) would be lost with D, since it names D's path and positions. Iceberg
 *       refuses the commit: {@code BaseRewriteFiles.validate} calls {@code
 *       validateNoNewDeletesForDataFiles} for the replaced data files, which indexes the delete
 *       files added by the overwrite and delete snapshots after S and fails with "found new
 *       position delete for replaced data file" when one applies to a file of D. When the sink's
 *       commit also removed the file's previous DV (merging it into the new one), that DV is in X
 *       and its removal fails as well ("Missing required files to delete"). The rewrite is
 *       abandoned, N deleted, and the next pass plans again from the new snapshot. A DV added to a
 *       file outside D is no conflict.
 *   <li><b>Data files committed after S</b> are not in D and stay.
 *   <li><b>Another rewrite</b> (a second maintainer during a rebalance, an external compaction)
 *       that removed a file of D or of X after S makes this commit fail (a removed file must still
 *       exist); it is abandoned and N deleted.
 *   <li><b>Row lineage (v3).</b> Rows are read and written with {@code _row_id} and {@code
 *       _last_updated_sequence_number}, so each keeps its id and is not marked updated.
 *   <li><b>Offsets.</b> The snapshot carries no {@code sluice.offsets.*} entries.
 * </ul>
 */
final class FileRewrite {
  private static final Logger log = LoggerFactory.getLogger(FileRewrite.class);

  private final PartitionWriter writer;
  private final RewriteCommit commit;

  /**
   * @param taskId part of the new files' names
   * @param stopping true once the task stops: the rewrite ends, its files deleted
   */
  FileRewrite(
      int taskId, long targetFileSizeBytes, BooleanSupplier stopping, RewriteCommit commit) {
    this.writer = new PartitionWriter(taskId, targetFileSizeBytes, stopping);
    this.commit = commit;
  }

  /** Rewrites {@code bin}, data files live at {@code base}. */
  Result rewrite(Table table, Snapshot base, FileBin bin) {
    if (bin.files().isEmpty()) {
      return Result.NOTHING_TO_DO;
    }
    long sequence = base.sequenceNumber();
    Set<String> replaced = bin.locations();
    List<DeleteFile> dangling =
        DanglingDeletes.ofReplacedFiles(bin.group().deleteFiles(), sequence, replaced);
    List<DataFile> written =
        writer.write(
            table,
            bin.group(),
            carried -> DataFileRows.read(table, base, bin.group(), replaced, carried));
    RewriteFiles rewrite =
        table.newRewrite().validateFromSnapshot(base.snapshotId()).dataSequenceNumber(sequence);
    bin.dataFiles().forEach(rewrite::deleteFile);
    dangling.forEach(rewrite::deleteFile);
    written.forEach(rewrite::addFile);
    String what = table.name() + " " + bin.group().name() + " (" + replaced.size() + " files)";
    Result result = commit.commit(table, rewrite, written, what);
    if (result == Result.COMMITTED) {
      log.info(
          "Rewrote {} data files of {} {} as of snapshot {}: {} bytes, {} of {} rows deleted"
              + " ({}), into {} files of {} bytes; {} delete files removed",
          replaced.size(),
          table.name(),
          bin.group().name(),
          base.snapshotId(),
          bin.fileBytes(),
          bin.deletedRows(),
          bin.rows(),
          String.format("%.3f", bin.deletedFraction()),
          written.size(),
          written.stream().mapToLong(DataFile::fileSizeInBytes).sum(),
          dangling.size());
    }
    return result;
  }
}
