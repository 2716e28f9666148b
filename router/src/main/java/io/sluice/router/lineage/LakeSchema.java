package io.sluice.router.lineage;

import io.sluice.router.lineage.LakeColumns.Column;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * What the lake holds after every accepted version of a subject: each column ever carried, with its
 * widest type, optional when any accepted version had it optional or dropped it, and the latest
 * accepted schema id that carried it. A table keeps a column that a later schema drops, so a new
 * version is compared with all of this, not only with the version before it: a field dropped as
 * long and added back as string would otherwise pass. Immutable.
 */
final class LakeSchema {
  /** A column of the lake and the latest accepted schema id that carried it. */
  private record Tracked(LakeType type, boolean optional, int schemaId) {}

  static final LakeSchema EMPTY = new LakeSchema(Map.of(), 0);

  private final Map<String, Tracked> columns;
  private final int latestId;

  private LakeSchema(Map<String, Tracked> columns, int latestId) {
    this.columns = columns;
    this.latestId = latestId;
  }

  /** The latest accepted schema id; 0 before the first. */
  int latestId() {
    return latestId;
  }

  /** What evolving to a schema gives: the lake after it, or why the lake cannot follow. */
  record Evolution(LakeSchema next, Refusal refusal) {}

  /**
   * Evolves the lake to the columns of schema {@code schemaId}. The first schema is always taken.
   * For a key ({@code key}), fields may neither come nor go nor become optional: they are the
   * table's identifier, the columns upserts match rows by.
   */
  Evolution evolve(Map<String, Column> incoming, int schemaId, boolean key) {
    Map<String, Tracked> next = new LinkedHashMap<>(columns);
    Set<String> added = new HashSet<>();
    for (Map.Entry<String, Column> entry : incoming.entrySet()) {
      String path = entry.getKey();
      Column column = entry.getValue();
      Tracked old = columns.get(path);
      if (old == null && (latestId == 0 || hasAncestorIn(path, added))) {
        next.put(path, new Tracked(column.type(), column.optional(), schemaId));
        continue;
      }
      if (old == null) {
        if (key) {
          return refused(Refusal.keyFieldAdded(path, column.type(), latestId));
        }
        // A required field with a default is what a NOT NULL DEFAULT column becomes: the sinks
        // add every new column as optional, and the rows before it hold null there.
        if (!column.optional() && !column.defaulted()) {
          return refused(Refusal.requiredAdded(path, column.type(), latestId));
        }
        added.add(path);
        next.put(path, new Tracked(column.type(), true, schemaId));
        continue;
      }
      LakeType type = widest(old.type(), column.type());
      if (type == null) {
        return refused(Refusal.typeChanged(path, old.type(), column.type(), old.schemaId()));
      }
      if (key && column.optional() && !old.optional()) {
        return refused(Refusal.keyFieldOptional(path, old.type(), old.schemaId()));
      }
      // Optional to required needs no change: the column stays optional and takes every value.
      next.put(path, new Tracked(type, old.optional() || column.optional(), schemaId));
    }
    for (Map.Entry<String, Tracked> entry : columns.entrySet()) {
      String path = entry.getKey();
      Tracked old = entry.getValue();
      if (incoming.containsKey(path) || !parentCarried(path, incoming)) {
        continue; // carried, or its parent went: the parent's verdict covers it
      }
      if (key) {
        return refused(Refusal.keyFieldDropped(path, old.type(), old.schemaId()));
      }
      if (!old.optional()) {
        return refused(Refusal.requiredDropped(path, old.type(), old.schemaId()));
      }
    }
    return new Evolution(new LakeSchema(Map.copyOf(next), schemaId), null);
  }

  /**
   * The type a column of type {@code column} has after a schema with {@code incoming}: the same,
   * the wider of two types one promotes to (a narrower value is widened on write), or null when
   * Iceberg cannot hold both.
   */
  private static LakeType widest(LakeType column, LakeType incoming) {
    if (column.equals(incoming) || incoming.promotesTo(column)) {
      return column;
    }
    return column.promotesTo(incoming) ? incoming : null;
  }

  private static Evolution refused(Refusal refusal) {
    return new Evolution(null, refusal);
  }

  private boolean hasAncestorIn(String path, Set<String> paths) {
    for (String p = parent(path); p != null; p = parent(p)) {
      if (paths.contains(p)) {
        return true;
      }
    }
    return false;
  }

  /** True when the column's parent is no column (a top-level field) or is in {@code incoming}. */
  private boolean parentCarried(String path, Map<String, Column> incoming) {
    String parent = parent(path);
    return parent == null || !columns.containsKey(parent) || incoming.containsKey(parent);
  }

  private static String parent(String path) {
    int dot = path.lastIndexOf('.');
    return dot < 0 ? null : path.substring(0, dot);
  }
}
