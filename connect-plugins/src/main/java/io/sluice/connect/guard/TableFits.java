package io.sluice.connect.guard;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.apache.iceberg.Schema;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.types.Types;

/**
 * The tables one task's records go to, each with its schema as last loaded ({@link TableFit}). A
 * record that does not fit is checked again against the table as the catalog has it now before it
 * is refused (the table may have evolved), unless the schema was loaded within the refresh
 * interval: a run of records that do not fit costs one load per interval, not one per record. A
 * table that does not exist is looked up again once the interval has passed. Not thread-safe.
 */
final class TableFits {
  /** A table's current schema, empty when the table does not exist. */
  @FunctionalInterface
  interface Loader {
    Optional<Schema> load(TableIdentifier table);
  }

  private final Loader loader;
  private final boolean evolution;
  private final long refreshNanos;
  private final LongSupplier nanoClock;
  private final Map<String, Entry> tables = new HashMap<>();

  /**
   * @param evolution whether the sink evolves its tables' schemas
   * @param refreshIntervalMs least time between two loads of one table
   * @param nanoClock {@link System#nanoTime}, or a test's clock
   */
  TableFits(Loader loader, boolean evolution, long refreshIntervalMs, LongSupplier nanoClock) {
    this.loader = loader;
    this.evolution = evolution;
    this.refreshNanos = refreshIntervalMs * 1_000_000L;
    this.nanoClock = nanoClock;
  }

  /**
   * Null when a value of schema {@code record} fits {@code table} ({@code namespace.table}), else
   * why not.
   */
  Misfit check(String table, org.apache.kafka.connect.data.Schema record) {
    Entry entry = tables.get(table);
    if (entry == null) {
      entry = new Entry(TableIdentifier.parse(table));
      load(entry);
      tables.put(table, entry);
    } else if (!entry.exists && due(entry)) {
      load(entry);
    }
    Misfit misfit = entry.fit.check(record);
    if (misfit != null && due(entry)) {
      load(entry);
      misfit = entry.fit.check(record);
    }
    return misfit;
  }

  private boolean due(Entry entry) {
    return nanoClock.getAsLong() - entry.loadedAt >= refreshNanos;
  }

  private void load(Entry entry) {
    Optional<Schema> schema = loader.load(entry.id);
    entry.loadedAt = nanoClock.getAsLong();
    entry.exists = schema.isPresent();
    Types.StructType columns = schema.map(Schema::asStruct).orElseGet(Types.StructType::of);
    if (entry.fit == null) {
      entry.fit = new TableFit(columns, evolution);
    } else {
      entry.fit.columns(columns);
    }
  }

  private static final class Entry {
    final TableIdentifier id;
    TableFit fit;
    boolean exists;
    long loadedAt;

    Entry(TableIdentifier id) {
      this.id = id;
    }
  }
}
