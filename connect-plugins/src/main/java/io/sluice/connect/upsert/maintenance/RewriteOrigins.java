package io.sluice.connect.upsert.maintenance;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.deletes.PositionDeleteIndex;
import org.apache.iceberg.types.TypeUtil;

/**
 * Where each row a file rewrite copied came from: the k-th row written (counting over the new files
 * in the order written) is the row at {@code positions[k]} of the replaced file whose span holds k.
 * With it, a row that another commit deleted by position in a replaced file while the rewrite ran
 * can be deleted by position in the new file that holds it ({@link #carry}). Eight bytes per row.
 */
final class RewriteOrigins {
  private final Map<String, int[]> spans = new LinkedHashMap<>();
  private long[] positions = new long[1024];
  private int count;
  private int positionField = -1;
  private String current;
  private int currentStart;

  /**
   * The schema to read the replaced files' rows in: {@code carried} with the row position last, so
   * that a writer of {@code carried} ignores it.
   */
  Schema projection(Schema carried) {
    positionField = carried.columns().size();
    return TypeUtil.join(carried, new Schema(MetadataColumns.ROW_POSITION));
  }

  /** The rows of {@code file} come next. */
  void opening(DataFile file) {
    closeSpan();
    current = file.location();
    currentStart = count;
  }

  /** A row read in {@link #projection}, about to be written. */
  void row(Record row) {
    if (count == positions.length) {
      positions = Arrays.copyOf(positions, positions.length * 2);
    }
    positions[count++] = (Long) row.get(positionField);
  }

  private void closeSpan() {
    if (current != null) {
      spans.put(current, new int[] {currentStart, count});
      current = null;
    }
  }

  /** Rows copied in all. */
  int rows() {
    return count;
  }

  /**
   * The positions in {@code written} of the copied rows that {@code deleted} deletes now.
   *
   * @param deleted the position deletes each replaced file has now, by location (absent: none)
   * @param written the new files, in the order written
   * @return positions to delete by new file location, ascending; empty when none
   * @throws IllegalStateException when the new files do not hold every copied row
   */
  Map<String, List<Long>> carry(Map<String, PositionDeleteIndex> deleted, List<DataFile> written) {
    closeSpan();
    long[] starts = new long[written.size() + 1];
    for (int j = 0; j < written.size(); j++) {
      starts[j + 1] = starts[j] + written.get(j).recordCount();
    }
    if (starts[written.size()] != count) {
      throw new IllegalStateException(
          "the rewrite wrote " + starts[written.size()] + " rows but copied " + count);
    }
    Map<String, List<Long>> carried = new LinkedHashMap<>();
    for (Map.Entry<String, int[]> span : spans.entrySet()) {
      PositionDeleteIndex now = deleted.get(span.getKey());
      if (now == null || now.isEmpty()) {
        continue;
      }
      int file = 0;
      for (int k = span.getValue()[0]; k < span.getValue()[1]; k++) {
        if (now.isDeleted(positions[k])) {
          while (starts[file + 1] <= k) {
            file++;
          }
          carried
              .computeIfAbsent(written.get(file).location(), l -> new ArrayList<>())
              .add(k - starts[file]);
        }
      }
    }
    return carried;
  }
}
