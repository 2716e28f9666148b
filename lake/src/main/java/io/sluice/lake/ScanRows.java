package io.sluice.lake;

import org.apache.iceberg.FileScanTask;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableScan;
import org.apache.iceberg.data.BaseDeleteLoader;
import org.apache.iceberg.data.DeleteFilter;
import org.apache.iceberg.data.DeleteLoader;
import org.apache.iceberg.data.GenericDeleteFilter;
import org.apache.iceberg.data.IdentityPartitionConverters;
import org.apache.iceberg.data.InternalRecordWrapper;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.expressions.Evaluator;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.formats.FormatModelRegistry;
import org.apache.iceberg.formats.ReadBuilder;
import org.apache.iceberg.io.CloseableIterable;
import org.apache.iceberg.io.FileIO;
import org.apache.iceberg.types.Types;
import org.apache.iceberg.util.PartitionUtil;

/**
 * Rows of a scan as Iceberg's generic reader ({@code IcebergGenerics}) returns them, read on the
 * calling thread. The generic reader plans in the worker pool and loads each file's deletes in the
 * delete worker pool, and Iceberg waits for either in 10 ms polls ({@code Tasks.waitFor}): for the
 * small files of a sink's commit or a test's check, those polls were most of the time a read took.
 * Here planning and delete loading run where the read runs; what is read is the same: every delete
 * that applies, the residual filter, partition constants, and the columns deletes need beside the
 * projection (as the generic reader, {@link DeleteFilter#requiredSchema()}).
 */
public final class ScanRows {
  private ScanRows() {}

  /**
   * The rows of {@code scan} (its snapshot, filter and projection), one planned file after the
   * other; each file is opened once the rows before it are read.
   */
  public static CloseableIterable<Record> read(TableScan scan) {
    Table table = scan.table();
    Schema projection = scan.schema();
    CloseableIterable<FileScanTask> tasks = plan(scan);
    boolean caseSensitive = scan.isCaseSensitive();
    // The tasks' manifests stay open while the files are read: closing the rows closes them.
    return CloseableIterable.combine(
        CloseableIterable.concat(
            CloseableIterable.transform(
                tasks, task -> read(table, task, projection, caseSensitive))),
        tasks);
  }

  /**
   * The files of {@code scan}, one task per whole file with every delete file that applies, planned
   * on the calling thread.
   */
  public static CloseableIterable<FileScanTask> plan(TableScan scan) {
    return scan.planWith(SameThreadExecutor.INSTANCE).planFiles();
  }

  /** One planned file's rows: its deletes applied, then the rows its task's residual keeps. */
  private static CloseableIterable<Record> read(
      Table table, FileScanTask task, Schema projection, boolean caseSensitive) {
    DeleteFilter<Record> deletes = deletes(table.io(), task, table.schema(), projection);
    CloseableIterable<Record> rows = open(table, task, deletes, task.residual());
    Expression residual = task.residual();
    if (residual == null || residual == Expressions.alwaysTrue()) {
      return rows;
    }
    Types.StructType type = deletes.requiredSchema().asStruct();
    InternalRecordWrapper wrapper = new InternalRecordWrapper(type);
    Evaluator matches = new Evaluator(type, residual, caseSensitive);
    return CloseableIterable.filter(rows, row -> matches.eval(wrapper.wrap(row)));
  }

  /**
   * One file's rows with its deletes applied, without those of row groups that {@code filter} shows
   * to hold no matching row: a row returned may still not match it.
   *
   * @param projection the columns wanted, which may hold metadata columns such as {@code _pos}
   * @param filter a filter of the table's columns; null: none
   */
  public static CloseableIterable<Record> open(
      Table table, FileScanTask task, Schema projection, Expression filter) {
    return open(table, task, deletes(table.io(), task, table.schema(), projection), filter);
  }

  private static CloseableIterable<Record> open(
      Table table, FileScanTask task, DeleteFilter<Record> deletes, Expression filter) {
    ReadBuilder<Record, Object> reader =
        FormatModelRegistry.<Record, Object>readBuilder(
                task.file().format(), Record.class, table.io().newInputFile(task.file()))
            .project(deletes.requiredSchema())
            .idToConstant(
                PartitionUtil.constantsMap(task, IdentityPartitionConverters::convertConstant))
            .split(task.start(), task.length());
    if (filter != null) {
      reader = reader.filter(filter);
    }
    return deletes.filter(reader.build());
  }

  /** The deletes of {@code task}, loaded on the calling thread. */
  public static DeleteFilter<Record> deletes(
      FileIO io, FileScanTask task, Schema tableSchema, Schema projection) {
    return new GenericDeleteFilter(io, task, tableSchema, projection) {
      @Override
      protected DeleteLoader newDeleteLoader() {
        return deleteLoader(io);
      }
    };
  }

  /** Reads delete files (DVs, position and equality deletes) through {@code io}, on this thread. */
  public static BaseDeleteLoader deleteLoader(FileIO io) {
    return new BaseDeleteLoader(
        f -> io.newInputFile(f.location(), f.fileSizeInBytes()), SameThreadExecutor.INSTANCE);
  }
}
