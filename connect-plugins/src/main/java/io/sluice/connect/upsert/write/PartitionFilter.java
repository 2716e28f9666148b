package io.sluice.connect.upsert.write;

import java.util.List;
import org.apache.iceberg.PartitionField;
import org.apache.iceberg.PartitionSpec;
import org.apache.iceberg.Schema;
import org.apache.iceberg.StructLike;
import org.apache.iceberg.expressions.Expression;
import org.apache.iceberg.expressions.Expressions;
import org.apache.iceberg.expressions.UnboundTerm;

/**
 * A row filter that selects exactly one partition: each partition field's transform of its source
 * column equals the partition's value. Every row of a file of the partition satisfies it, so a scan
 * with it reads every live row of the partition and no other.
 */
public final class PartitionFilter {
  private PartitionFilter() {}

  /**
   * @param schema the table's current schema, which names the source columns now
   */
  public static Expression of(Schema schema, PartitionSpec spec, StructLike partition) {
    Expression filter = Expressions.alwaysTrue();
    List<PartitionField> fields = spec.fields();
    for (int i = 0; i < fields.size(); i++) {
      PartitionField field = fields.get(i);
      String column = schema.findColumnName(field.sourceId());
      @SuppressWarnings("unchecked")
      UnboundTerm<Object> term =
          field.transform().isIdentity()
              ? Expressions.ref(column)
              : (UnboundTerm<Object>) Expressions.transform(column, field.transform());
      Object value = partition.get(i, Object.class);
      filter =
          Expressions.and(
              filter, value == null ? Expressions.isNull(term) : Expressions.equal(term, value));
    }
    return filter;
  }
}
