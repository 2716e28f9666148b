package io.sluice.connect.upsert.maintenance;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;

/**
 * The delete files of a partition that apply to nothing once a rewrite has replaced data files it
 * had at a snapshot S by files of data sequence number S's ({@link PartitionRewrite} and {@link
 * FileRewrite} explain why each rule is correct).
 */
final class DanglingDeletes {
  private DanglingDeletes() {}

  /**
   * After a rewrite of every data file of the partition: every equality delete of data sequence
   * number at most S's, and every position delete of data sequence number at most S's whose data
   * file is unknown or among the replaced ones.
   *
   * @param deletes the partition's live delete files at S
   * @param sequence S's sequence number, the data sequence number of the rewritten files
   * @param replaced locations of the partition's data files at S, all replaced
   */
  static List<DeleteFile> select(
      Collection<DeleteFile> deletes, long sequence, Set<String> replaced) {
    return deletes.stream().filter(f -> dangling(f, sequence, replaced)).toList();
  }

  /**
   * After a rewrite of some of the partition's data files that carries over the rows deleted since
   * it read them ({@link FileRewrite}): the position deletes that name one replaced file alone (its
   * DV, its file-scoped position deletes), whatever their sequence number. Equality deletes and
   * position deletes of several files may still apply to files that stay.
   *
   * @param deletes delete files that apply to replaced files now
   * @param replaced locations of the replaced data files
   */
  static List<DeleteFile> ofReplacedFiles(Collection<DeleteFile> deletes, Set<String> replaced) {
    return deletes.stream()
        .filter(f -> f.content() == FileContent.POSITION_DELETES)
        .filter(f -> names(f, replaced))
        .toList();
  }

  static boolean dangling(DeleteFile file, long sequence, Set<String> replaced) {
    if (!olderThanOrOf(file, sequence)) {
      return false;
    }
    if (file.content() == FileContent.EQUALITY_DELETES) {
      return true;
    }
    String target = FileGroup.referencedDataFile(file);
    return target == null || replaced.contains(target);
  }

  private static boolean names(DeleteFile file, Set<String> replaced) {
    String target = FileGroup.referencedDataFile(file);
    return target != null && replaced.contains(target);
  }

  /**
   * Committed at or before S; one committed after S (or of unknown age) may delete rows S lacks.
   */
  private static boolean olderThanOrOf(DeleteFile file, long sequence) {
    Long fileSequence = file.dataSequenceNumber();
    return fileSequence != null && fileSequence <= sequence;
  }
}
