package io.sluice.lake;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.types.Comparators;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.Types;

/**
 * The order in which the tools print a table's rows: by the schema's identifier fields, in the
 * order {@link Schema#identifierFieldIds()} lists them (Iceberg keeps them in field-id order), then
 * by every top-level column in schema order (so rows with equal keys, or a table without identifier
 * fields such as a changelog, still print in one order). Values compare as what they are: numbers
 * numerically, strings lexically (by code point), temporal values in time order, binary as unsigned
 * bytes, nulls first; nested values by their text.
 */
public final class RowOrder {
  private RowOrder() {}

  /** The order of rows of {@code schema} as {@link IcebergRows} reads them. */
  public static Comparator<Record> of(Schema schema) {
    List<Comparator<Record>> keys = new ArrayList<>();
    for (int id : schema.identifierFieldIds()) {
      keys.add(byField(schema, id));
    }
    for (Types.NestedField column : schema.columns()) {
      keys.add(byField(schema, column.fieldId()));
    }
    return keys.stream().reduce(Comparator::thenComparing).orElse((a, b) -> 0);
  }

  /** The names of the fields {@link #of} sorts by first: the identifier fields, in order. */
  public static List<String> identifierNames(Schema schema) {
    return schema.identifierFieldIds().stream().map(schema::findColumnName).toList();
  }

  private static Comparator<Record> byField(Schema schema, int fieldId) {
    // Not Iceberg's Accessor: it casts to the internal representation (a timestamp to Long),
    // which a generic Record does not hold.
    int[] path = path(schema.asStruct(), fieldId);
    Comparator<Object> values = Comparator.nullsFirst(forType(schema.findType(fieldId)));
    return (a, b) -> values.compare(value(a, path), value(b, path));
  }

  /** Positions from the top-level struct down to {@code fieldId} (identifier fields may nest). */
  private static int[] path(Types.StructType struct, int fieldId) {
    List<Types.NestedField> fields = struct.fields();
    for (int i = 0; i < fields.size(); i++) {
      Types.NestedField field = fields.get(i);
      if (field.fieldId() == fieldId) {
        return new int[] {i};
      }
      if (field.type().isStructType()) {
        int[] below = path(field.type().asStructType(), fieldId);
        if (below != null) {
          int[] path = new int[below.length + 1];
          path[0] = i;
          System.arraycopy(below, 0, path, 1, below.length);
          return path;
        }
      }
    }
    return null;
  }

  private static Object value(Record row, int[] path) {
    Object value = row;
    for (int position : path) {
      if (value == null) {
        return null;
      }
      value = ((Record) value).get(position);
    }
    return value;
  }

  @SuppressWarnings({"unchecked", "rawtypes"})
  private static Comparator<Object> forType(Type type) {
    return switch (type.typeId()) {
      case STRING ->
          (a, b) -> Comparators.charSequences().compare((CharSequence) a, (CharSequence) b);
      case BINARY, FIXED -> (a, b) -> Comparators.unsignedBytes().compare(bytes(a), bytes(b));
      case STRUCT, LIST, MAP -> Comparator.comparing(IcebergRows::text);
      default ->
          (a, b) ->
              a instanceof Comparable c && a.getClass() == b.getClass()
                  ? c.compareTo(b)
                  : IcebergRows.text(a).compareTo(IcebergRows.text(b));
    };
  }

  private static ByteBuffer bytes(Object value) {
    return value instanceof byte[] array ? ByteBuffer.wrap(array) : (ByteBuffer) value;
  }
}
