package io.sluice.schema.avro;

import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;

/**
 * Compiles an Avro writer schema into {@link ScanNode}s. Records without captures are compiled once
 * per schema instance, which also ties the knot of recursive schemas; records with captures get
 * their own nodes, so the same row type can capture into different slots under {@code before} and
 * {@code after}.
 */
public final class ScanCompiler {
  private final Map<Schema, ScanNode> sharedRecords = new IdentityHashMap<>();

  /** A plan that reads {@code schema} and captures nothing. */
  public ScanNode compile(Schema schema) {
    return compile(schema, Map.of());
  }

  /** A plan that reads {@code schema} and captures the named top-level (and inner) fields. */
  public ScanNode compile(Schema schema, Map<String, Capture> captures) {
    switch (schema.getType()) {
      case NULL:
        return new ScanNode(ScanNode.NULL, "null");
      case BOOLEAN:
        return new ScanNode(ScanNode.BOOLEAN, "boolean");
      case INT:
        return new ScanNode(ScanNode.INT, "int");
      case LONG:
        return new ScanNode(ScanNode.LONG, "long");
      case FLOAT:
        return new ScanNode(ScanNode.FLOAT, "float");
      case DOUBLE:
        return new ScanNode(ScanNode.DOUBLE, "double");
      case BYTES:
        return new ScanNode(ScanNode.BYTES, "bytes");
      case STRING:
        return new ScanNode(ScanNode.STRING, "string");
      case FIXED:
        ScanNode fixed = new ScanNode(ScanNode.FIXED, "fixed " + schema.getFullName());
        fixed.fixedSize = schema.getFixedSize();
        return fixed;
      case ENUM:
        ScanNode enumNode = new ScanNode(ScanNode.ENUM, "enum " + schema.getFullName());
        enumNode.symbols = schema.getEnumSymbols().toArray(new String[0]);
        return enumNode;
      case UNION:
        List<Schema> branches = schema.getTypes();
        ScanNode union = new ScanNode(ScanNode.UNION, "union");
        union.children = new ScanNode[branches.size()];
        for (int i = 0; i < branches.size(); i++) {
          union.children[i] = compile(branches.get(i), captures);
        }
        return union;
      case ARRAY:
        ScanNode array = new ScanNode(ScanNode.ARRAY, "array");
        array.children = new ScanNode[] {compile(schema.getElementType())};
        return array;
      case MAP:
        ScanNode map = new ScanNode(ScanNode.MAP, "map");
        map.children = new ScanNode[] {compile(schema.getValueType())};
        return map;
      case RECORD:
        return record(schema, captures);
      default:
        throw new IllegalArgumentException("unsupported Avro type " + schema.getType());
    }
  }

  private ScanNode record(Schema schema, Map<String, Capture> captures) {
    boolean shared = captures.isEmpty();
    if (shared) {
      ScanNode known = sharedRecords.get(schema);
      if (known != null) {
        return known;
      }
    }
    List<Schema.Field> fields = schema.getFields();
    ScanNode node = new ScanNode(ScanNode.RECORD, "record " + schema.getFullName());
    node.children = new ScanNode[fields.size()];
    node.fieldNames = new String[fields.size()];
    if (shared) {
      sharedRecords.put(schema, node);
    } else {
      node.slots = new int[fields.size()];
    }
    for (int i = 0; i < fields.size(); i++) {
      Schema.Field field = fields.get(i);
      Capture capture = shared ? null : captures.get(field.name());
      node.fieldNames[i] = field.name();
      node.children[i] = compile(field.schema(), capture == null ? Map.of() : capture.inner());
      if (!shared) {
        node.slots[i] = capture == null ? -1 : capture.slot();
      }
    }
    return node;
  }
}
