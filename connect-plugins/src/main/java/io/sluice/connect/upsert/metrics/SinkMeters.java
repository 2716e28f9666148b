package io.sluice.connect.upsert.metrics;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;
import java.time.Clock;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The upsert sink's meters on one registry, shared by every task that uses that registry. Names are
 * Micrometer's dotted form; tags {@code connector} and {@code table}. The Prometheus registry
 * renders them as {@code sluice_sink_records_total{op}} (op c, r, u, d, tombstone), {@code
 * sluice_sink_rows_upserted_total}, {@code sluice_sink_rows_deleted_total}, {@code
 * sluice_sink_commits_total{result}} (success, failure), {@code
 * sluice_sink_commit_duration_seconds_*}, {@code sluice_sink_freshness_seconds_*}, {@code
 * sluice_sink_last_commit_timestamp_seconds}, {@code sluice_sink_quarantined_total{code}} and
 * {@code sluice_sink_keyless_records_total} (records of a table without a primary key, skipped).
 *
 * <p>The table's maintenance ({@link MaintenanceMeters}) adds {@code sluice_sink_table_data_files},
 * {@code sluice_sink_table_delete_files{kind}} (equality, position), {@code
 * sluice_sink_table_equality_deleted_rows}, {@code sluice_sink_table_snapshots}, {@code
 * sluice_sink_maintenance_last_timestamp_seconds}, {@code
 * sluice_sink_maintenance_last_duration_seconds}, {@code
 * sluice_sink_maintenance_rewrites_total{result}} (success, failure) and {@code
 * sluice_sink_offsets_retired_partitions} (recorded partitions past the offsets horizon, which no
 * longer keep snapshots from expiring).
 *
 * <p>The key index adds {@code sluice_sink_key_index_keys}, {@code sluice_sink_key_index_bytes},
 * {@code sluice_sink_key_index_spilled_bytes}, {@code sluice_sink_key_index_builds_total} and
 * {@code sluice_sink_key_index_build_duration_*}; {@code sluice_sink_duplicate_keys_total{found}}
 * counts keys found with more than one live row (found: index-build).
 */
public final class SinkMeters {
  public static final String RECORDS = "sluice.sink.records";
  public static final String ROWS_UPSERTED = "sluice.sink.rows.upserted";
  public static final String ROWS_DELETED = "sluice.sink.rows.deleted";
  public static final String COMMITS = "sluice.sink.commits";
  public static final String COMMIT_DURATION = "sluice.sink.commit.duration";
  public static final String FRESHNESS = "sluice.sink.freshness";
  public static final String LAST_COMMIT_TIMESTAMP = "sluice.sink.last.commit.timestamp";
  public static final String QUARANTINED = "sluice.sink.quarantined";
  public static final String KEYLESS_RECORDS = "sluice.sink.keyless.records";
  public static final String TABLE_DATA_FILES = "sluice.sink.table.data.files";
  public static final String TABLE_DELETE_FILES = "sluice.sink.table.delete.files";
  public static final String TABLE_EQUALITY_DELETED_ROWS =
      "sluice.sink.table.equality.deleted.rows";
  public static final String TABLE_SNAPSHOTS = "sluice.sink.table.snapshots";
  public static final String MAINTENANCE_LAST_TIMESTAMP = "sluice.sink.maintenance.last.timestamp";
  public static final String MAINTENANCE_LAST_DURATION = "sluice.sink.maintenance.last.duration";
  public static final String MAINTENANCE_REWRITES = "sluice.sink.maintenance.rewrites";
  public static final String OFFSETS_RETIRED_PARTITIONS = "sluice.sink.offsets.retired.partitions";
  public static final String KEY_INDEX_KEYS = "sluice.sink.key.index.keys";
  public static final String KEY_INDEX_BYTES = "sluice.sink.key.index.bytes";
  public static final String KEY_INDEX_SPILLED_BYTES = "sluice.sink.key.index.spilled.bytes";
  public static final String KEY_INDEX_BUILDS = "sluice.sink.key.index.builds";
  public static final String KEY_INDEX_BUILD_DURATION = "sluice.sink.key.index.build.duration";
  public static final String DUPLICATE_KEYS = "sluice.sink.duplicate.keys";

  private final MeterRegistry registry;
  private final Clock clock;
  // Tasks of one connector may write one table, and a gauge keeps the object of its first
  // registration: each table's meters (and its last-commit time) exist once per registry.
  private final ConcurrentHashMap<String, TableMeters> tables = new ConcurrentHashMap<>();

  public SinkMeters(MeterRegistry registry) {
    this(registry, Clock.systemUTC());
  }

  /**
   * @param clock the wall clock of commit times and freshness
   */
  public SinkMeters(MeterRegistry registry, Clock clock) {
    this.registry = registry;
    this.clock = clock;
  }

  /** Meters that record nothing ({@code metrics.port} = -1). */
  public static SinkMeters disabled() {
    return new SinkMeters(new CompositeMeterRegistry());
  }

  public MeterRegistry registry() {
    return registry;
  }

  /** The meters of {@code table} written by {@code connector}, registered on first use. */
  public TableMeters table(String connector, String table) {
    return tables.computeIfAbsent(
        connector + '\u0000' + table, k -> new TableMeters(registry, clock, connector, table));
  }
}
