package io.sluice.connect.upsert.maintenance;

import java.util.Collection;
import java.util.List;
import java.util.Set;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;

/**
 * The delete files of a partition that apply to nothing once a rewrite has replaced every data file
 * the partition had at a snapshot S by files of data sequence number S ({@link PartitionRewrite}
 * explains why each rule is correct): every equality delete of data sequence number at most S's,
 * and every position delete of data sequence number at most S's whose data file is unknown or among
 * the replaced ones.
 */
final class DanglingDeletes {
  private DanglingDeletes() {}

  /**
   * @param deletes the partition's live delete files at S
   * @param sequence S's sequence number, the data sequence number of the rewritten files
   * @param replaced locations of the partition's data files at S, all replaced
   */
  static List<DeleteFile> select(
      Collection<DeleteFile> deletes, long sequence, Set<String> replaced) {
    return deletes.stream().filter(f -> dangling(f, sequence, replaced)).toList();
  }

  static boolean dangling(DeleteFile file, long sequence, Set<String> replaced) {
    Long fileSequence = file.dataSequenceNumber();
    if (fileSequence == null || fileSequence > sequence) {
      // Committed after S (or of unknown age): it may apply to rows S did not have.
      return false;
    }
    if (file.content() == FileContent.EQUALITY_DELETES) {
      return true;
    }
    String target = file.referencedDataFile();
    return target == null || replaced.contains(target);
  }
}
