package io.sluice.connect.guard;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.data.Field;
import org.apache.kafka.connect.data.Schema;

/**
 * Whether records fit one Iceberg table as the Apache Iceberg sink writes them (its {@code
 * RecordConverter}), schema evolution on or off as the sink has it:
 *
 * <ul>
 *   <li>a field without a column fits: the sink adds the column (evolution on) or drops the value.
 *       The type the column will get ({@link SinkTypes}) is remembered, so a later record bringing
 *       the same field with a type that column cannot take does not fit either;
 *   <li>a column takes its own type and what Iceberg promotes to it (int to long, float to double,
 *       a decimal of the same scale with no more digits); with evolution on also what the sink
 *       widens the column for (a long into an int column, a double into a float column) and an
 *       optional field into a required column (the sink makes it optional);
 *   <li>a required column needs its field (a null fails the write);
 *   <li>nothing else fits.
 * </ul>
 *
 * <p>This runs for every record on the sink's hot path. A verdict is cached per column by the
 * identity of the Connect schema that fitted, and a struct rebuilt per record (the Apache
 * transforms build the value's top level and {@code _cdc} anew for each record) costs one lookup
 * per field whose schema object is unchanged. Not thread-safe: one per task.
 */
final class TableFit {
  private final boolean evolution;
  private Types.StructType columns;
  private final Node root = new Node();

  /** Columns the record being checked would add, and nodes that fit only with them. */
  private final List<Pending> pending = new ArrayList<>();

  /**
   * @param columns the table's columns; none for a table that does not exist yet
   * @param evolution whether the sink evolves the table ({@code
   *     iceberg.tables.evolve-schema-enabled})
   */
  TableFit(Types.StructType columns, boolean evolution) {
    this.columns = columns;
    this.evolution = evolution;
  }

  /**
   * The table's columns as just loaded: cached verdicts are dropped; columns predicted for fields
   * the table still lacks are kept (the sink may not have written the record that adds them yet).
   */
  void columns(Types.StructType reloaded) {
    this.columns = reloaded;
    root.forget();
  }

  /** Null when a value of schema {@code record} fits, else why not. */
  Misfit check(Schema record) {
    pending.clear();
    Misfit misfit = value(record, columns, false, root);
    if (misfit == null) {
      for (Pending p : pending) {
        if (p.type() != null) {
          p.node().predicted = p.type();
        }
        p.node().fits = p.schema();
      }
    }
    pending.clear();
    return misfit;
  }

  private Misfit value(Schema field, Type column, boolean required, Node node) {
    if (node.fits == field) {
      return null;
    }
    int before = pending.size();
    Misfit misfit = fit(field, column, required, node);
    if (misfit == null) {
      if (pending.size() == before) {
        node.fits = field;
      } else {
        // Fits only with columns this record would add: cached once the whole record fits.
        pending.add(new Pending(node, field, null));
      }
    }
    return misfit;
  }

  private Misfit fit(Schema field, Type column, boolean required, Node node) {
    if (required && field.isOptional() && !evolution) {
      return Misfit.of(
          column,
          "optional " + SinkTypes.describe(field),
          "the column is required and the sink's schema evolution is off, so a null fails the"
              + " write: make the column optional");
    }
    return switch (column.typeId()) {
      case STRUCT ->
          field.type() == Schema.Type.STRUCT
              ? struct(field, column.asStructType(), node)
              : different(column, field);
      case LIST -> {
        if (field.type() != Schema.Type.ARRAY) {
          yield different(column, field);
        }
        Types.NestedField element = column.asListType().fields().get(0);
        yield named(
            value(field.valueSchema(), element.type(), element.isRequired(), node.child("element")),
            "element");
      }
      case MAP -> {
        if (field.type() != Schema.Type.MAP) {
          yield different(column, field);
        }
        Types.MapType map = column.asMapType();
        Misfit key = value(field.keySchema(), map.keyType(), true, node.child("key"));
        yield key != null
            ? key.under("key")
            : named(
                value(
                    field.valueSchema(),
                    map.valueType(),
                    map.isValueRequired(),
                    node.child("value")),
                "value");
      }
      default -> primitive(field, column.asPrimitiveType());
    };
  }

  private Misfit struct(Schema record, Types.StructType table, Node node) {
    List<Field> fields = record.fields();
    String[] names = node.fieldNames;
    Schema[] schemas = node.fieldSchemas;
    // Names as the last struct that fitted here has them, position by position. Compared by
    // reference on purpose: a struct rebuilt from its source's fields reuses their name strings,
    // and a name that is only equal takes the slower path.
    boolean sameNames = names != null && names.length == fields.size();
    int before = pending.size();
    for (int i = 0; i < fields.size(); i++) {
      Field field = fields.get(i);
      if (sameNames && field.name() == names[i]) {
        if (field.schema() == schemas[i]) {
          continue; // fitted this column as it is, no lookup
        }
      } else {
        sameNames = false;
      }
      Node child = node.child(field.name());
      if (child.fits == field.schema()) {
        continue;
      }
      Types.NestedField column = table.field(field.name());
      Misfit misfit =
          column == null
              ? newColumn(field.schema(), child)
              : value(field.schema(), column.type(), column.isRequired(), child);
      if (misfit != null) {
        return misfit.under(field.name());
      }
    }
    if (!sameNames) {
      for (Types.NestedField column : node.required(table)) {
        if (record.field(column.name()) == null) {
          return new Misfit(
              column.name(),
              column.type().toString(),
              "absent",
              "the column is required, so the write fails without it: make the column optional");
        }
      }
    }
    if (pending.size() == before) {
      node.remember(fields, sameNames);
    }
    return null;
  }

  /** A field the table has no column for: the sink adds it (optional) with its own type. */
  private Misfit newColumn(Schema field, Node node) {
    if (node.predicted == null) {
      pending.add(new Pending(node, field, SinkTypes.of(field)));
      return null;
    }
    return value(field, node.predicted, false, node);
  }

  private Misfit primitive(Schema field, Type.PrimitiveType column) {
    Type record = SinkTypes.of(field);
    if (column instanceof Types.DecimalType decimal && record instanceof Types.DecimalType in) {
      Types.DecimalType declared =
          Types.DecimalType.of(SinkTypes.declaredPrecision(field), in.scale());
      if (declared.scale() != decimal.scale()) {
        return Misfit.of(column, declared, "Iceberg cannot change a decimal's scale");
      }
      return declared.precision() <= decimal.precision()
          ? null
          : Misfit.of(
              column,
              declared,
              "its values may have more digits than the column holds, and the sink does not widen"
                  + " it: widen the column to "
                  + declared);
    }
    if (record.equals(column)
        || (record.isPrimitiveType() && TypeUtil.isPromotionAllowed(record, column))
        || (evolution && sinkWidens(column, record))) {
      return null;
    }
    return different(column, field);
  }

  /** The promotions the Apache sink makes itself ({@code SchemaUtils.needsDataTypeUpdate}). */
  private static boolean sinkWidens(Type column, Type record) {
    return column.typeId() == Type.TypeID.INTEGER && record.typeId() == Type.TypeID.LONG
        || column.typeId() == Type.TypeID.FLOAT && record.typeId() == Type.TypeID.DOUBLE;
  }

  private static Misfit different(Type column, Schema field) {
    return Misfit.of(column, SinkTypes.describe(field), "Iceberg cannot change one into the other");
  }

  private static Misfit named(Misfit misfit, String name) {
    return misfit == null ? null : misfit.under(name);
  }

  private record Pending(Node node, Schema schema, Type type) {}

  /** One column's cached verdict, the column predicted for it, and its nested columns. */
  private static final class Node {
    /** The last Connect schema that fitted this column. */
    Schema fits;

    /** The column the sink will add for a field the table lacks, from the first that fitted. */
    Type predicted;

    private Types.StructType requiredOf;
    private List<Types.NestedField> required;
    private Map<String, Node> children;

    /** The field names and schemas of the last struct that fitted here, in its order. */
    private String[] fieldNames;

    private Schema[] fieldSchemas;

    Node child(String name) {
      if (children == null) {
        children = new HashMap<>();
      }
      return children.computeIfAbsent(name, n -> new Node());
    }

    /** The required columns of {@code table}, computed once per struct type. */
    List<Types.NestedField> required(Types.StructType table) {
      if (requiredOf != table) {
        required = table.fields().stream().filter(Types.NestedField::isRequired).toList();
        requiredOf = table;
      }
      return required;
    }

    /** The fields of a struct that fitted here; {@code sameNames}: the names are those held. */
    void remember(List<Field> fields, boolean sameNames) {
      if (!sameNames) {
        fieldNames = new String[fields.size()];
        fieldSchemas = new Schema[fields.size()];
      }
      for (int i = 0; i < fieldNames.length; i++) {
        fieldNames[i] = fields.get(i).name();
        fieldSchemas[i] = fields.get(i).schema();
      }
    }

    void forget() {
      fits = null;
      requiredOf = null;
      required = null;
      fieldNames = null;
      fieldSchemas = null;
      if (children != null) {
        children.values().forEach(Node::forget);
      }
    }
  }
}
