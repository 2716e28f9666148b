package io.sluice.tools.reconcile;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.function.LongConsumer;
import org.apache.iceberg.Table;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;

/**
 * The rows of an Iceberg table as Iceberg's own reader returns them (deletes applied), reduced to
 * canonical lines over the source's columns and fed to a sorter: a scan has no order.
 */
final class IcebergRows {
  private IcebergRows() {}

  /** Reads every row of {@code table} into {@code sorter}; returns the number read. */
  static long readInto(
      Table table,
      List<String> columns,
      List<String> primaryKey,
      ExternalSorter sorter,
      LongConsumer progress) {
    long rows = 0;
    Object[] values = new Object[columns.size()];
    Object[] key = new Object[primaryKey.size()];
    int[] keyIndexes = primaryKey.stream().mapToInt(columns::indexOf).toArray();
    boolean[] present = new boolean[columns.size()];
    for (int i = 0; i < columns.size(); i++) {
      present[i] = table.schema().findField(columns.get(i)) != null;
    }
    try (CloseableIterable<Record> records = IcebergGenerics.read(table).build()) {
      for (Record record : records) {
        for (int i = 0; i < values.length; i++) {
          values[i] = present[i] ? record.getField(columns.get(i)) : null;
        }
        for (int k = 0; k < key.length; k++) {
          key[k] = values[keyIndexes[k]];
        }
        sorter.add(new KeyedLine(SortKey.of(key), CanonicalRows.line(columns, values)));
        if (++rows % 200_000 == 0) {
          progress.accept(rows);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException("reading Iceberg table " + table.name() + " failed", e);
    }
    return rows;
  }
}
