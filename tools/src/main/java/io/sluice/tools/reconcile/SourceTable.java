package io.sluice.tools.reconcile;

import java.util.List;

/**
 * A base table of a captured database and its primary key, in key ordinal order (empty when the
 * table has none: it has a changelog but no current table).
 */
public record SourceTable(String database, String name, List<String> primaryKey) {
  public SourceTable {
    primaryKey = List.copyOf(primaryKey);
  }

  /** {@code <db>.<table>}. */
  public String qualifiedName() {
    return database + "." + name;
  }

  /** The upsert sink's table for this one: {@code <db>.<table>_current}. */
  public String currentTable() {
    return qualifiedName() + "_current";
  }

  public boolean keyed() {
    return !primaryKey.isEmpty();
  }
}
