package io.sluice.connect.upsert.table;

import io.sluice.connect.upsert.error.RecordRejectedException;
import io.sluice.connect.upsert.error.SinkErrorCode;
import java.util.ArrayList;
import java.util.List;
import org.apache.iceberg.Schema;
import org.apache.iceberg.UpdateSchema;
import org.apache.iceberg.types.Type;
import org.apache.iceberg.types.TypeUtil;
import org.apache.iceberg.types.Types;
import org.apache.kafka.connect.errors.DataException;

/**
 * What a table's schema must change to take rows of a record schema: new columns (optional),
 * widened types (int to long, float to double, decimal precision) and required columns the record
 * may leave null. A narrower record type needs no change (its values are widened on write); an
 * incompatible one fails.
 */
public final class SchemaEvolution {
  private SchemaEvolution() {}

  /** One schema change. */
  public sealed interface Change {
    void applyTo(UpdateSchema update);
  }

  /** Adds an optional column under {@code parent} (null for a top-level column). */
  public record AddColumn(String parent, String name, Type type) implements Change {
    @Override
    public void applyTo(UpdateSchema update) {
      if (parent == null) {
        update.addColumn(name, type);
      } else {
        update.addColumn(parent, name, type);
      }
    }
  }

  /** Widens a primitive column. */
  public record WidenColumn(String name, Type.PrimitiveType type) implements Change {
    @Override
    public void applyTo(UpdateSchema update) {
      update.updateColumn(name, type);
    }
  }

  /** Makes a required (non-key) column optional. */
  public record MakeOptional(String name) implements Change {
    @Override
    public void applyTo(UpdateSchema update) {
      update.makeColumnOptional(name);
    }
  }

  /**
   * The changes {@code table} needs to hold rows of {@code record}.
   *
   * @throws DataException naming the column when a record type cannot be stored in the column
   */
  public static List<Change> changes(Schema table, Schema record) {
    List<Change> changes = new ArrayList<>();
    compareStruct(table, table.asStruct(), record.asStruct(), null, changes);
    return changes;
  }

  private static void compareStruct(
      Schema table,
      Types.StructType tableStruct,
      Types.StructType recordStruct,
      String parent,
      List<Change> changes) {
    for (Types.NestedField field : recordStruct.fields()) {
      String path = parent == null ? field.name() : parent + "." + field.name();
      Types.NestedField existing = tableStruct.field(field.name());
      if (existing == null) {
        changes.add(new AddColumn(parent, field.name(), field.type()));
        continue;
      }
      compareType(table, existing.type(), field.type(), path, changes);
      if (existing.isRequired()
          && field.isOptional()
          && !table.identifierFieldIds().contains(existing.fieldId())) {
        changes.add(new MakeOptional(path));
      }
    }
  }

  private static void compareType(
      Schema table, Type existing, Type incoming, String path, List<Change> changes) {
    if (existing.isPrimitiveType() && incoming.isPrimitiveType()) {
      comparePrimitive(existing.asPrimitiveType(), incoming.asPrimitiveType(), path, changes);
    } else if (existing.isStructType() && incoming.isStructType()) {
      compareStruct(table, existing.asStructType(), incoming.asStructType(), path, changes);
    } else if (existing.isListType() && incoming.isListType()) {
      compareType(
          table,
          existing.asListType().elementType(),
          incoming.asListType().elementType(),
          path + ".element",
          changes);
    } else if (existing.isMapType() && incoming.isMapType()) {
      compareType(
          table,
          existing.asMapType().keyType(),
          incoming.asMapType().keyType(),
          path + ".key",
          changes);
      compareType(
          table,
          existing.asMapType().valueType(),
          incoming.asMapType().valueType(),
          path + ".value",
          changes);
    } else {
      throw incompatible(path, existing, incoming);
    }
  }

  private static void comparePrimitive(
      Type.PrimitiveType existing, Type.PrimitiveType incoming, String path, List<Change> changes) {
    if (existing.equals(incoming)) {
      return;
    }
    if (existing instanceof Types.DecimalType column && incoming instanceof Types.DecimalType in) {
      if (in.scale() <= column.scale()
          && in.precision() - in.scale() <= column.precision() - column.scale()) {
        return;
      }
      if (in.scale() == column.scale() && in.precision() > column.precision()) {
        changes.add(new WidenColumn(path, incoming));
        return;
      }
      throw incompatible(path, existing, incoming);
    }
    if (TypeUtil.isPromotionAllowed(existing, incoming)) {
      changes.add(new WidenColumn(path, incoming));
    } else if (!TypeUtil.isPromotionAllowed(incoming, existing)) {
      throw incompatible(path, existing, incoming);
    }
  }

  private static DataException incompatible(String path, Type existing, Type incoming) {
    return new RecordRejectedException(
        SinkErrorCode.SINK_TYPE_UNWRITABLE,
        path,
        existing.toString(),
        "column "
            + path
            + " is "
            + existing
            + " in the table but "
            + incoming
            + " in the record; Iceberg cannot change one into the other");
  }
}
