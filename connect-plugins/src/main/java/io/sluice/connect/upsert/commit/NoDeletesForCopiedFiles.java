package io.sluice.connect.upsert.commit;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.SnapshotAncestryValidator;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.util.ContentFileUtil;

/**
 * Refuses a commit that removes data files whose live rows it copied at snapshot {@code base} when
 * a snapshot since then added a delete file that may apply to one of them: the copy holds the rows
 * that delete deletes, and removing the file would bring them back. A DV or file-scoped position
 * delete of another data file cannot apply; every other delete file (an equality delete, a position
 * delete of several files) is taken to apply. Iceberg's own check for removed files ({@code
 * RowDelta.validateNoConflictingDeleteFiles}) refuses any new delete file that the conflict filter
 * lets through, also those of files the commit does not touch, which other tasks add all the time.
 */
final class NoDeletesForCopiedFiles implements SnapshotAncestryValidator {
  private final FileIO io;
  private final long base;
  private final Set<String> copied;
  private volatile String problem;

  NoDeletesForCopiedFiles(FileIO io, long base, List<DataFile> copied) {
    this.io = io;
    this.base = base;
    this.copied = copied.stream().map(DataFile::location).collect(Collectors.toSet());
  }

  @Override
  public boolean validate(Iterable<Snapshot> ancestry) {
    for (Snapshot snapshot : ancestry) {
      if (snapshot.snapshotId() == base) {
        break;
      }
      for (DeleteFile delete : snapshot.addedDeleteFiles(io)) {
        String target = ContentFileUtil.referencedDataFileLocation(delete);
        if (target == null || copied.contains(target)) {
          problem =
              "snapshot "
                  + snapshot.snapshotId()
                  + " added delete file "
                  + delete.location()
                  + (target == null ? ", which may apply to" : " for")
                  + " a data file this commit copied since snapshot "
                  + base;
          return false;
        }
      }
    }
    problem = null;
    return true;
  }

  @Override
  public String errorMessage() {
    return problem == null ? "no delete for a copied data file" : problem;
  }
}
