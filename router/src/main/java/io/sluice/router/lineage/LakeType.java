package io.sluice.router.lineage;

import java.util.stream.Collectors;
import org.apache.avro.LogicalType;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;

/**
 * The type of one column as the lake sees an Avro type: its Avro type with its logical type ({@code
 * long}, {@code int (date)}, {@code decimal(10,2)}, {@code struct}, ...). Avro enums are strings to
 * Iceberg. Nullability is not part of the type: see {@link LakeColumns}.
 *
 * @param name what the type is, as messages show it
 * @param precision a decimal's precision, else 0
 * @param scale a decimal's scale, else 0
 */
record LakeType(String name, int precision, int scale) {
  static final LakeType STRUCT = new LakeType("struct", 0, 0);
  static final LakeType LIST = new LakeType("list", 0, 0);
  static final LakeType MAP = new LakeType("map", 0, 0);

  /** The lake type of a non-null Avro type. */
  static LakeType of(Schema schema) {
    LogicalType logical = schema.getLogicalType();
    if (logical instanceof LogicalTypes.Decimal decimal) {
      return new LakeType("decimal", decimal.getPrecision(), decimal.getScale());
    }
    String base =
        switch (schema.getType()) {
          case RECORD -> "struct";
          case ARRAY -> "list";
          case MAP -> "map";
          case ENUM, STRING -> "string";
          case BYTES -> "bytes";
          case FIXED -> "fixed[" + schema.getFixedSize() + "]";
          case UNION ->
              schema.getTypes().stream()
                  .map(s -> of(s).toString())
                  .collect(Collectors.joining(", ", "union[", "]"));
          default -> schema.getType().getName();
        };
    return new LakeType(logical == null ? base : base + " (" + logical.getName() + ")", 0, 0);
  }

  boolean isDecimal() {
    return name.equals("decimal");
  }

  /**
   * True when a column of this type can become {@code wider} by an Iceberg type promotion: int to
   * long, float to double, decimal(p,s) to decimal(p2,s) with p2 > p.
   */
  boolean promotesTo(LakeType wider) {
    if (isDecimal() && wider.isDecimal()) {
      return scale == wider.scale && precision < wider.precision;
    }
    return (name.equals("int") && wider.name.equals("long"))
        || (name.equals("float") && wider.name.equals("double"));
  }

  @Override
  public String toString() {
    return isDecimal() ? "decimal(" + precision + "," + scale + ")" : name;
  }
}
