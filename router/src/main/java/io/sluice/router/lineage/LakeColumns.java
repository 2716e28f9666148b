package io.sluice.router.lineage;

import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.avro.Schema;

/**
 * The columns the lake makes of an Avro schema, flattened by path: a record's fields ({@code
 * after.amount_cents}, nested records as {@code after.address.city}), a list's element ({@code
 * tags.element}) and a map's value ({@code attributes.value}). Parents come before their children.
 * For a Debezium envelope only the row is flattened (the {@code after} record, which {@code before}
 * shares): the envelope's other fields never reach a table.
 */
final class LakeColumns {
  private LakeColumns() {}

  /** A column: its type and whether it may be null ({@code union[null, T]}). */
  /**
   * One column. {@code defaulted}: the field has a default, so a reader of an older row has a value
   * for it (Debezium writes a {@code NOT NULL DEFAULT} column so).
   */
  record Column(LakeType type, boolean optional, boolean defaulted) {
    Column(LakeType type, boolean optional) {
      this(type, optional, false);
    }
  }

  /** The columns of a value schema: the row of an envelope, else every field. */
  static Map<String, Column> ofValue(Schema value) {
    Schema row = envelopeRow(value);
    Map<String, Column> columns = new LinkedHashMap<>();
    if (row != null) {
      addFields(row, "after.", columns, new HashSet<>());
    } else if (value.getType() == Schema.Type.RECORD) {
      addFields(value, "", columns, new HashSet<>());
    } else {
      add("value", value, columns, new HashSet<>());
    }
    return columns;
  }

  /** The columns of a key schema: its fields (or the key itself when it is no record). */
  static Map<String, Column> ofKey(Schema key) {
    Map<String, Column> columns = new LinkedHashMap<>();
    if (key.getType() == Schema.Type.RECORD) {
      addFields(key, "", columns, new HashSet<>());
    } else {
      add("key", key, columns, new HashSet<>());
    }
    return columns;
  }

  /** The row record of a Debezium envelope (op, before, after), or null for any other schema. */
  private static Schema envelopeRow(Schema value) {
    if (value.getType() != Schema.Type.RECORD
        || value.getField("op") == null
        || value.getField("before") == null
        || value.getField("after") == null) {
      return null;
    }
    Schema after = nonNull(value.getField("after").schema());
    return after != null && after.getType() == Schema.Type.RECORD ? after : null;
  }

  private static void addFields(
      Schema record, String prefix, Map<String, Column> columns, Set<String> open) {
    // A recursive record is followed once: Iceberg has no recursive types to compare further.
    if (!open.add(record.getFullName())) {
      return;
    }
    for (Schema.Field field : record.getFields()) {
      add(prefix + field.name(), field.schema(), field.hasDefaultValue(), columns, open);
    }
    open.remove(record.getFullName());
  }

  private static void add(
      String path, Schema schema, Map<String, Column> columns, Set<String> open) {
    add(path, schema, false, columns, open);
  }

  private static void add(
      String path,
      Schema schema,
      boolean defaulted,
      Map<String, Column> columns,
      Set<String> open) {
    Schema type = nonNull(schema);
    boolean optional = type != schema;
    if (type == null) {
      columns.put(path, new Column(new LakeType("null", 0, 0), true));
      return;
    }
    columns.put(path, new Column(LakeType.of(type), optional, defaulted));
    switch (type.getType()) {
      case RECORD -> addFields(type, path + ".", columns, open);
      case ARRAY -> add(path + ".element", type.getElementType(), columns, open);
      case MAP -> add(path + ".value", type.getValueType(), columns, open);
      default -> {}
    }
  }

  /**
   * T for {@code T} or a union of null and T; null for the null type; the union itself for a union
   * of more than one non-null type.
   */
  private static Schema nonNull(Schema schema) {
    if (schema.getType() == Schema.Type.NULL) {
      return null;
    }
    if (schema.getType() != Schema.Type.UNION) {
      return schema;
    }
    Schema only = null;
    int nonNull = 0;
    for (Schema branch : schema.getTypes()) {
      if (branch.getType() != Schema.Type.NULL) {
        only = branch;
        nonNull++;
      }
    }
    if (nonNull == schema.getTypes().size()) {
      return schema; // no null branch: a plain union, compared as one type
    }
    if (nonNull == 0) {
      return null;
    }
    return nonNull == 1
        ? only
        : Schema.createUnion(
            schema.getTypes().stream().filter(s -> s.getType() != Schema.Type.NULL).toList());
  }
}
