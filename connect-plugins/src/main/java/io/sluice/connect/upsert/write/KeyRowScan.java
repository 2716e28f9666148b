package io.sluice.connect.upsert.write;

import io.sluice.lake.ScanRows;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.iceberg.DataFile;
import org.apache.iceberg.DeleteFile;
import org.apache.iceberg.FileContent;
import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.DeleteWriteResult;
import org.apache.iceberg.io.OutputFileFactory;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.ContentFileUtil;
import org.apache.iceberg.util.StructLikeSet;

/**
 * Deletes by position the rows some keys have in the live data files of some partition specs at a
 * snapshot: for specs partitioned by a column that is not the key, where an equality delete cannot
 * be placed from the key alone ({@link KeyDeleteTargets}). The files are found by a scan planned
 * with an {@code in} filter of the keys (files whose key bounds hold none of them are skipped) and
 * read with their deletes applied, key columns and positions only, skipping row groups the filter
 * rules out. The deletes are written as the sink's position deletes are ({@link PositionDeletes}):
 * on v3 one DV per file, merged with every position delete the file has (its DV, or position
 * deletes of a table upgraded from v2, file- or partition-scoped); on v2 one file-scoped
 * position-delete file per file, merged with the file-scoped ones it has.
 *
 * <p>The commit must name the files deleted from as referenced ({@link
 * DeleteWriteResult#referencedDataFiles()}, validated to exist) and validate from {@code base}: a
 * rewrite of one of them since then would keep the rows. Rows another writer adds for the keys
 * after {@code base} are not deleted.
 */
final class KeyRowScan {
  private KeyRowScan() {}

  /**
   * @param specIds the specs whose live files are searched
   * @param keys the keys, rows of {@code keySchema} in Iceberg's internal representation ({@link
   *     InternalRecordWrapper})
   * @return the position deletes written (none when no key has a row there)
   * @throws IOException when a file cannot be read or written; those written are deleted
   */
  static DeleteWriteResult deleteRows(
      Table table,
      Snapshot base,
      Set<Integer> specIds,
      Schema keySchema,
      StructLikeSet keys,
      OutputFileFactory files)
      throws IOException {
    Expression filter = filter(keySchema, keys);
    Schema projection = TypeUtil.join(keySchema, new Schema(MetadataColumns.ROW_POSITION));
    InternalRecordWrapper key = new InternalRecordWrapper(keySchema.asStruct());
    boolean dvs = TableUtil.formatVersion(table) >= 3;
    Map<String, List<Long>> positionsByFile = new LinkedHashMap<>();
    Map<String, DataFile> targets = new HashMap<>();
    Map<String, List<DeleteFile>> previous = new HashMap<>();
    try (CloseableIterable<FileScanTask> tasks =
        ScanRows.plan(table.newScan().useSnapshot(base.snapshotId()).filter(filter))) {
      for (FileScanTask task : tasks) {
        if (!specIds.contains(task.file().specId())) {
          continue;
        }
        List<Long> positions = new ArrayList<>();
        try (CloseableIterable<Record> rows = DataFileRows.open(table, task, projection, filter)) {
          for (Record row : rows) {
            if (keys.contains(key.wrap(row))) {
              positions.add((Long) row.getField(MetadataColumns.ROW_POSITION.name()));
            }
          }
        }
        if (positions.isEmpty()) {
          continue;
        }
        String location = task.file().location();
        positionsByFile.put(location, positions);
        targets.put(location, task.file());
        List<DeleteFile> had = new ArrayList<>();
        for (DeleteFile delete : task.deletes()) {
          // A DV replaces every position delete of its file (Iceberg reads no other once a file
          // has one), so it takes them all in; a v2 file keeps those of other files' deletes too.
          if (delete.content() == FileContent.POSITION_DELETES
              && (dvs || ContentFileUtil.isFileScoped(delete))) {
            had.add(delete);
          }
        }
        if (!had.isEmpty()) {
          previous.put(location, had);
        }
      }
    }
    if (positionsByFile.isEmpty()) {
      return new DeleteWriteResult(List.of());
    }
    return PositionDeletes.write(table, files, positionsByFile, targets, previous);
  }

  /**
   * Rows whose key columns each hold a value of one of {@code keys}: all of the keys' rows, and
   * maybe others (for a key of several columns). Columns of types whose values Iceberg's internal
   * representation does not give exactly as literals are not filtered.
   */
  private static Expression filter(Schema keySchema, StructLikeSet keys) {
    Expression filter = Expressions.alwaysTrue();
    List<Types.NestedField> columns = keySchema.columns();
    for (int i = 0; i < columns.size(); i++) {
      Types.NestedField column = columns.get(i);
      if (!filterable(column)) {
        continue;
      }
      Set<Object> values = new LinkedHashSet<>();
      for (StructLike key : keys) {
        values.add(key.get(i, Object.class));
      }
      filter = Expressions.and(filter, Expressions.in(column.name(), values));
    }
    return filter;
  }

  private static boolean filterable(Types.NestedField column) {
    return switch (column.type().typeId()) {
      case INTEGER, LONG, STRING, DATE, TIMESTAMP, DECIMAL, UUID -> true;
      default -> false;
    };
  }
}
