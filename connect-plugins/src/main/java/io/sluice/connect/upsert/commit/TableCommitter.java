package io.sluice.connect.upsert.commit;

import io.sluice.connect.upsert.write.MergeOnCommit;
import io.sluice.connect.upsert.write.PositionDeltaWriter;
import io.sluice.lake.SameThreadExecutor;
import io.sluice.lake.offsets.SnapshotOffsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import org.apache.iceberg.RowDelta;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.Table;
import org.apache.iceberg.exceptions.CleanableFailure;
import org.apache.iceberg.exceptions.ValidationException;
import org.apache.iceberg.io.WriteResult;
import org.apache.kafka.common.TopicPartition;

/**
 * Commits one written batch as one {@link RowDelta} (one snapshot) whose summary records the
 * offsets the batch covers, fenced so that nobody else committed those partitions meanwhile.
 *
 * <p>Public for {@code sluice bench sink}'s limit, which commits batches it writes without Connect
 * through the sink's own commit path; the sink itself reaches it through {@link UpsertCommitter}.
 */
public final class TableCommitter {
  private static final long TURN_WAIT_MS = 250;
  private static final int OWN_SNAPSHOT_SEARCH = 16;

  /** Snapshot summary key: a commit's own id, by which the task finds the snapshot it made. */
  static final String COMMIT_ID = "sluice.commit.id";

  private final String connector;
  private final Lock commits;

  /**
   * @param commits held while a commit reaches the catalog, shared with the task's maintenance
   */
  public TableCommitter(String connector, Lock commits) {
    this.connector = connector;
    this.commits = commits;
  }

  /**
   * Commits a batch written with equality deletes, validated from the table's current snapshot.
   *
   * @param offsets next offset per partition after this batch
   * @param expected the offsets Iceberg held for those partitions when the batch was read
   * @param summary further snapshot summary entries (where the DLQ stands)
   * @return the committed snapshot
   * @throws OffsetFenceException when the table's offsets for these partitions moved meanwhile
   */
  Snapshot commit(
      Table table,
      WriteResult result,
      Map<TopicPartition, Long> offsets,
      Map<TopicPartition, Long> expected,
      Map<String, String> summary) {
    RowDelta delta = rowDelta(table, result, table.currentSnapshot());
    return commit(
        table, delta, offsets, expected, summary, List.of(), () -> deleteFiles(table, result));
  }

  /**
   * Commits a batch written with deletes by position ({@link PositionDeltaWriter}) at {@code base},
   * the snapshot the positions were found at. Besides Iceberg's own checks, refused when a commit
   * since {@code base} deleted a row the batch deletes or wrote one of its keys ({@link
   * NoConcurrentChangesOfKeys}), or added a delete file that may apply to a data file the batch
   * copied ({@link NoDeletesForCopiedFiles}): the copy removes those files.
   *
   * @param base the snapshot the batch was written at (null: the table had none)
   * @return the committed snapshot; null when it may have committed but is not found among the
   *     table's newest snapshots
   * @throws PositionConflictException when a commit since {@code base} removed a data file the
   *     batch deletes from or copied (a rewrite), or changed its rows or keys as above; the batch's
   *     files are deleted
   * @throws OffsetFenceException when the table's offsets for these partitions moved meanwhile
   */
  public Snapshot commitPositions(
      Table table,
      Snapshot base,
      PositionDeltaWriter.Written written,
      Map<TopicPartition, Long> offsets,
      Map<TopicPartition, Long> expected,
      Map<String, String> summary) {
    String commitId = UUID.randomUUID().toString();
    Map<String, String> withId = new HashMap<>(summary);
    withId.put(COMMIT_ID, commitId);
    WriteResult result = written.result();
    RowDelta delta = rowDelta(table, result, base);
    List<SnapshotAncestryValidator> validators = new ArrayList<>();
    validators.add(
        new NoConcurrentChangesOfKeys(table.io(), table.specs(), base, written.footprint()));
    if (!written.copied().isEmpty()) {
      written.copied().forEach(delta::removeRows);
      delta.validateDeletedFiles();
      validators.add(new NoDeletesForCopiedFiles(table.io(), base.snapshotId(), written.copied()));
    }
    try {
      commit(table, delta, offsets, expected, withId, validators, () -> deleteFiles(table, result));
    } catch (OffsetFenceException e) {
      throw e;
    } catch (ValidationException e) {
      throw new PositionConflictException(e);
    }
    Snapshot snapshot = table.currentSnapshot();
    for (int i = 0; snapshot != null && i < OWN_SNAPSHOT_SEARCH; i++) {
      if (commitId.equals(snapshot.summary().get(COMMIT_ID))) {
        return snapshot;
      }
      snapshot = snapshot.parentId() == null ? null : table.snapshot(snapshot.parentId());
    }
    return null;
  }

  /** The row delta of {@code result}, validated from {@code base}. */
  private static RowDelta rowDelta(Table table, WriteResult result, Snapshot base) {
    RowDelta delta = table.newRowDelta();
    Arrays.stream(result.dataFiles()).forEach(delta::addRows);
    Arrays.stream(result.deleteFiles()).forEach(delta::addDeletes);
    // The DVs that the new ones merge (format v3: one DV per data file); a concurrent commit that
    // added a DV for one of the same data files makes Iceberg refuse this one.
    Arrays.stream(result.rewrittenDeleteFiles()).forEach(delta::removeDeletes);
    if (result.referencedDataFiles().length > 0) {
      delta.validateDataFilesExist(Arrays.asList(result.referencedDataFiles()));
    }
    if (base != null) {
      delta.validateFromSnapshot(base.snapshotId());
    }
    return delta;
  }

  /**
   * Commits a merged batch: its files replace the merged partitions' files at {@code base}, and the
   * commit is refused when anything was committed to those partitions since {@code base} (another
   * writer's data or deletes, a rewrite of the replaced files): the merge would hide it.
   *
   * @throws MergeConflictException when such a commit came first; the merged files are deleted
   * @throws OffsetFenceException when the table's offsets for these partitions moved meanwhile
   */
  public Snapshot commitMerged(
      Table table,
      Snapshot base,
      MergeOnCommit.Merged merged,
      Map<TopicPartition, Long> offsets,
      Map<TopicPartition, Long> expected,
      Map<String, String> summary) {
    RowDelta delta = table.newRowDelta();
    merged.added().forEach(delta::addRows);
    merged.replacedData().forEach(delta::removeRows);
    merged.replacedDeletes().forEach(delta::removeDeletes);
    // Validated also without a base (the table had no snapshot when the batch was read): then
    // from the table's first snapshot on. A commit whose first attempt landed with its reply lost
    // is retried from where the batch began; another task's commit of the same keys meanwhile
    // (a key in two partitions) must refuse the merge, or both rows stay.
    delta
        .conflictDetectionFilter(merged.partitions())
        .validateDeletedFiles()
        .validateNoConflictingDataFiles()
        .validateNoConflictingDeleteFiles();
    if (base != null) {
      delta.validateFromSnapshot(base.snapshotId());
    }
    try {
      return commit(
          table,
          delta,
          offsets,
          expected,
          summary,
          List.of(),
          () -> MergeOnCommit.delete(table, merged.added()));
    } catch (OffsetFenceException e) {
      throw e;
    } catch (ValidationException e) {
      throw new MergeConflictException(e);
    }
  }

  /**
   * @param validators checks of the snapshots committed since the delta's base, after the offset
   *     fence
   */
  private Snapshot commit(
      Table table,
      RowDelta delta,
      Map<TopicPartition, Long> offsets,
      Map<TopicPartition, Long> expected,
      Map<String, String> summary,
      List<SnapshotAncestryValidator> validators,
      Runnable deleteFiles) {
    SameThreadExecutor.manifestsOnThisThread(delta);
    SnapshotOffsets.toSummary(connector, offsets).forEach(delta::set);
    summary.forEach(delta::set);
    OffsetFence fence = new OffsetFence(connector, offsets.keySet(), expected);
    // Iceberg takes one ancestry validator: the fence first, so that its failure is told apart.
    delta.validateWith(
        new SnapshotAncestryValidator() {
          private String problem;

          @Override
          public boolean validate(Iterable<Snapshot> ancestry) {
            problem = fence.validate(ancestry) ? null : fence.errorMessage();
            for (int i = 0; problem == null && i < validators.size(); i++) {
              if (!validators.get(i).validate(ancestry)) {
                problem = validators.get(i).errorMessage();
              }
            }
            return problem == null;
          }

          @Override
          public String errorMessage() {
            return problem == null ? "no problem" : problem;
          }
        });
    // The task's own maintenance commits in turn with it instead of racing it: a lost race costs
    // Iceberg's retry backoff (at least 100 ms), waiting for a maintenance commit far less. A
    // maintenance commit that itself retries against other writers is not waited for long.
    boolean turn = takeTurn();
    try {
      delta.commit();
    } catch (RuntimeException e) {
      // Only a CleanableFailure (a refused validation, a commit that lost its race every retry)
      // certainly did not happen, as Iceberg's own cleanup judges it. Anything else (a REST
      // catalog's RESTException or a JDBC catalog's UncheckedSQLException on a lost reply,
      // CommitStateUnknownException) may have committed: its files may be in the table, and
      // orphan removal finds them if they are not.
      if (e instanceof CleanableFailure) {
        deleteFiles.run();
      }
      if (e instanceof ValidationException && fence.failed()) {
        throw new OffsetFenceException(
            "commit to " + table.name() + " fenced: " + fence.errorMessage(), e);
      }
      throw e;
    } finally {
      if (turn) {
        commits.unlock();
      }
    }
    return table.currentSnapshot();
  }

  private boolean takeTurn() {
    try {
      return commits.tryLock(TURN_WAIT_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private static void deleteFiles(Table table, WriteResult result) {
    PositionDeltaWriter.delete(
        table, Arrays.asList(result.dataFiles()), Arrays.asList(result.deleteFiles()));
  }
}
