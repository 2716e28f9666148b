package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.maintenance.RewriteCommit.Result;
import io.sluice.connect.upsert.write.DataFileRows;
import io.sluice.connect.upsert.write.PositionDeletes;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.RewriteFiles;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.io.OutputFileFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Rewrites some data files D of one partition P (a {@link FileBin}) as of a snapshot S (sequence
 * number s): their live rows at S, read with Iceberg's reader (every delete that applies at S
 * applied, {@link DataFileRows}), go into new data files N, remembering where each came from
 * ({@link RewriteOrigins}). Then, holding the commit lock, against the snapshot C current at that
 * moment: ONE {@link RewriteFiles} removes D and the position deletes X that name a file of D alone
 * at C (its DV, its file-scoped position deletes), adds N, and adds deletes by position in N of
 * every copied row that a position delete at C deletes in D (the rows the sink deleted while the
 * rewrite ran: carried over), with {@code validateFromSnapshot(C)} and {@code
 * dataSequenceNumber(s)}. The partition's other files are not read or touched.
 *
 * <p>Why the table reads the same afterwards, whatever committed meanwhile:
 *
 * <ul>
 *   <li><b>N holds D's rows</b>, exactly those a read at S returns from D.
 *   <li><b>Position deletes of D at C.</b> Those committed by S deleted rows that were not copied.
 *       Those committed after S delete copied rows or rows not copied; each copied one is deleted
 *       again in N at the position it was written to, by a DV (v3) or file-scoped position delete
 *       (v2) that the rewrite adds with the commit's sequence number, above s, so it applies to N.
 *       So a read after the commit misses exactly the rows a read at C missed.
 *   <li><b>Removed: X.</b> A position delete applies to the one path it names, and no file of N has
 *       a path of D: once D is gone, X applies to nothing.
 *   <li><b>Kept: equality deletes of sequence number at most s.</b> Such a delete e applies to data
 *       files of data sequence number below its own. The rows of D it deleted are not in N, and N,
 *       of data sequence number s, is not older than e, so e does not apply to N (no row of N could
 *       be deleted twice or wrongly). But e may still delete rows of P's files outside D that are
 *       older than it, so it stays; only a rewrite of the whole partition ({@link
 *       PartitionRewrite}) removes it.
 *   <li><b>Kept: position deletes of several files</b> (no single referenced data file). They name
 *       rows by path, never N's, and may name files outside D, so they stay, for the
 *       whole-partition rewrite to remove. Copied rows they deleted after S are carried over as
 *       above; when no file of X is replaced then, Iceberg would refuse added delete files, and the
 *       rewrite is abandoned.
 *   <li><b>An equality delete committed after S</b> (a fallback of the sink meanwhile) has a
 *       sequence number above s, so it applies to N as it applied to D: the keys it deletes are
 *       deleted in N too. Iceberg does not check equality deletes once the data sequence number is
 *       set ({@code MergingSnapshotProducer.validateNoNewDeletesForDataFiles} ignores them when
 *       {@code newDataFilesDataSequenceNumber} is set), so it never fails the rewrite. Without
 *       {@code dataSequenceNumber}, N would take the rewrite's own sequence number and such deletes
 *       would stop applying: old rows would come back.
 *   <li><b>A DV or position delete committed after C that names a file of D</b> (the sink deleting
 *       a key of D between the preparation and the commit, which the lock keeps short but does not
 *       exclude: the sink waits only so long for its turn, and another task has its own lock) would
 *       be lost with D. Iceberg refuses the commit: {@code BaseRewriteFiles.validate} calls {@code
 *       validateNoNewDeletesForDataFiles} for the replaced data files, which fails with "found new
 *       position delete for replaced data file" when a delete file added after C applies to a file
 *       of D; and removing a file of X that the sink replaced fails ("Missing required files to
 *       delete"). The rewrite, its carried deletes deleted, is prepared again against the new
 *       current snapshot, three times in all, then abandoned (N deleted) for the next pass.
 *   <li><b>Data files committed after S</b> are not in D and stay.
 *   <li><b>Another rewrite</b> (a second maintainer during a rebalance, an external compaction)
 *       that removed a file of D after S: the preparation finds it not live at C and abandons; one
 *       after C makes the commit fail (a removed file must still exist).
 *   <li><b>Row lineage (v3).</b> Rows are read and written with {@code _row_id} and {@code
 *       _last_updated_sequence_number}, so each keeps its id and is not marked updated.
 *   <li><b>Offsets.</b> The snapshot carries no {@code sluice.offsets.*} entries.
 * </ul>
 */
final class FileRewrite {
  private static final Logger log = LoggerFactory.getLogger(FileRewrite.class);

  // A commit refused after the rewrite was rebased twice is given up until the next pass.
  private static final int ATTEMPTS = 3;

  private final int taskId;
  private final PartitionWriter writer;
  private final RewriteCommit commit;
  private long deleteWrites;

  /**
   * @param taskId part of the new files' names
   * @param stopping true once the task stops: the rewrite ends, its files deleted
   */
  FileRewrite(
      int taskId, long targetFileSizeBytes, BooleanSupplier stopping, RewriteCommit commit) {
    this.taskId = taskId;
    this.writer = new PartitionWriter(taskId, targetFileSizeBytes, stopping);
    this.commit = commit;
  }

  /** Rewrites {@code bin}, data files live at {@code base}. */
  Result rewrite(Table table, Snapshot base, FileBin bin) {
    if (bin.files().isEmpty()) {
      return Result.NOTHING_TO_DO;
    }
    Set<String> replaced = bin.locations();
    RewriteOrigins origins = new RewriteOrigins();
    List<DataFile> written =
        writer.write(
            table,
            bin.group(),
            carried ->
                DataFileRows.read(
                    table,
                    base,
                    bin.group().specId(),
                    bin.group().partition(),
                    replaced,
                    origins.projection(carried),
                    origins::opening),
            origins::row);
    String what = table.name() + " " + bin.group().name() + " (" + replaced.size() + " files)";
    Rebase[] last = new Rebase[1];
    Result result =
        commit.commit(
            table,
            written,
            what,
            ATTEMPTS,
            () -> {
              last[0] = prepare(table, base, bin, origins, written);
              return Optional.ofNullable(last[0]).map(Rebase::prepared);
            });
    if (result == Result.COMMITTED) {
      Rebase rebase = last[0];
      log.info(
          "Rewrote {} data files of {} {} as of snapshot {}: {} bytes, {} of {} rows deleted"
              + " ({}), into {} files of {} bytes; {} delete files removed; {} rows deleted since"
              + " carried over (committed against snapshot {})",
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
          rebase.removedDeletes(),
          rebase.carriedRows(),
          rebase.against());
    }
    return result;
  }

  /** A rewrite prepared against the current snapshot, and what it carries over. */
  private record Rebase(
      RewriteCommit.Prepared prepared, long against, int removedDeletes, long carriedRows) {}

  /**
   * The rewrite of {@code bin} against the table's current snapshot C: the replaced files, the
   * position deletes that name one of them alone at C, the new files, and the deletes by position
   * in the new files of the copied rows deleted since {@code base}. Null when it cannot be: a
   * replaced file is not live at C, or rows were deleted since by a position delete of several
   * files that no delete file of the rewrite replaces.
   */
  private Rebase prepare(
      Table table, Snapshot base, FileBin bin, RewriteOrigins origins, List<DataFile> written) {
    Snapshot current = table.currentSnapshot();
    Set<String> replaced = bin.locations();
    Map<String, FileScanTask> live =
        DataFileRows.live(table, current, bin.group().specId(), bin.group().partition(), replaced);
    if (!live.keySet().equals(replaced)) {
      return null;
    }
    BaseDeleteLoader loader = PositionDeletes.loader(table);
    Map<String, PositionDeleteIndex> deletedNow = new HashMap<>();
    Map<String, DeleteFile> removed = new LinkedHashMap<>();
    for (FileScanTask task : live.values()) {
      List<DeleteFile> positional =
          task.deletes().stream().filter(d -> d.content() == FileContent.POSITION_DELETES).toList();
      if (positional.isEmpty()) {
        continue;
      }
      String location = task.file().location();
      deletedNow.put(location, loader.loadPositionDeletes(positional, location));
      DanglingDeletes.ofReplacedFiles(positional, replaced)
          .forEach(d -> removed.putIfAbsent(d.location() + "#" + d.contentOffset(), d));
    }
    Map<String, List<Long>> carried = origins.carry(deletedNow, written);
    if (!carried.isEmpty() && removed.isEmpty()) {
      return null;
    }
    List<DeleteFile> added = List.of();
    if (!carried.isEmpty()) {
      added = writeCarried(table, carried, written);
    }
    RewriteFiles rewrite =
        table
            .newRewrite()
            .validateFromSnapshot(current.snapshotId())
            .dataSequenceNumber(base.sequenceNumber());
    bin.dataFiles().forEach(rewrite::deleteFile);
    removed.values().forEach(rewrite::deleteFile);
    written.forEach(rewrite::addFile);
    added.forEach(rewrite::addFile);
    long rows = carried.values().stream().mapToLong(List::size).sum();
    return new Rebase(
        new RewriteCommit.Prepared(rewrite, added), current.snapshotId(), removed.size(), rows);
  }

  private List<DeleteFile> writeCarried(
      Table table, Map<String, List<Long>> carried, List<DataFile> written) {
    Map<String, DataFile> targets = new HashMap<>();
    written.forEach(f -> targets.put(f.location(), f));
    OutputFileFactory files = PositionDeletes.files(table, taskId, ++deleteWrites, "maintenance");
    try {
      return PositionDeletes.write(table, files, carried, targets, Map.of()).deleteFiles();
    } catch (IOException e) {
      throw new UncheckedIOException(
          "cannot write the deletes a rewrite of " + table.name() + " carries over", e);
    }
  }
}
