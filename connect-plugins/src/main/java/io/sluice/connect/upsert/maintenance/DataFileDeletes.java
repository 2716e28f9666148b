package io.sluice.connect.upsert.maintenance;

import java.util.List;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;

/**
 * A live data file and the live delete files that name it: its deletion vector (v3) or its
 * file-scoped position-delete files (v2). Equality deletes and position deletes that may name
 * several files are not among them: which of a file's rows they delete is unknown without reading.
 *
 * @param deletes position deletes whose only data file is {@code file}
 */
record DataFileDeletes(DataFile file, List<DeleteFile> deletes) {

  /**
   * Rows of the file these deletes delete: the sum of their record counts (a DV's is its
   * cardinality). Two position-delete files of one row would count it twice; the sink never writes
   * a position twice, and the sum then only brings the rewrite forward.
   */
  long deletedRows() {
    return Math.min(file.recordCount(), deletes.stream().mapToLong(DeleteFile::recordCount).sum());
  }

  /** Deleted rows over the file's rows; 0 for a file of no rows. */
  double deletedFraction() {
    return file.recordCount() == 0 ? 0 : (double) deletedRows() / file.recordCount();
  }

  /** The file's rows less those its deletes delete. */
  long liveRows() {
    return file.recordCount() - deletedRows();
  }

  /** The bytes of the file's live rows, assuming rows of one size. */
  long liveBytes() {
    return Math.round(file.fileSizeInBytes() * (1 - deletedFraction()));
  }
}
