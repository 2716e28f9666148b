package io.sluice.connect.upsert.write;

import org.apache.iceberg.MetadataColumns;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.TableUtil;
import org.apache.iceberg.data.GenericRecord;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Types;

/**
 * Format v3 row lineage of rows that a merge or a rewrite carries over unchanged: they are read
 * with {@code _row_id} and {@code _last_updated_sequence_number} (Iceberg's reader fills in the
 * inherited values) and written with both, so an unchanged row keeps its id and is not marked
 * updated by the commit that moved it. New rows are written with both null: they inherit a new id
 * from the file's first row id and the commit's sequence number, as the spec asks.
 */
public final class RowLineage {
  private RowLineage() {}

  /** The schema rows are carried over in: {@code schema}, plus the lineage columns on v3+. */
  public static Schema carried(Table table, Schema schema) {
    return TableUtil.formatVersion(table) >= 3
        ? MetadataColumns.schemaWithRowLineage(schema)
        : schema;
  }

  /**
   * {@code row} (of the table's schema) as a row of {@code carried}; the row itself when {@code
   * carried} has no lineage columns.
   */
  public static Record asNew(Record row, Schema carried) {
    if (carried.findField(MetadataColumns.ROW_ID.fieldId()) == null) {
      return row;
    }
    Record out = GenericRecord.create(carried);
    for (Types.NestedField field : row.struct().fields()) {
      out.setField(field.name(), row.getField(field.name()));
    }
    return out;
  }
}
