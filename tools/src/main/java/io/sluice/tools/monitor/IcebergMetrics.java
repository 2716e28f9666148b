package io.sluice.tools.monitor;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The monitor's Iceberg meters, all with {@code table} ({@code namespace.name}): {@code
 * sluice_iceberg_table_last_commit_timestamp_seconds}, {@code sluice_iceberg_table_snapshots},
 * {@code sluice_iceberg_table_commits_total{operation}}, {@code sluice_iceberg_table_records},
 * {@code sluice_iceberg_table_data_files}, {@code sluice_iceberg_table_delete_files}, {@code
 * sluice_iceberg_table_equality_deletes}, {@code sluice_iceberg_table_load_failures_total}; and
 * {@code sluice_iceberg_last_refresh_timestamp_seconds}, {@code
 * sluice_iceberg_refresh_failures_total} for the catalog as a whole.
 *
 * <p>A table's meters are registered with its first reading; its commit counters start at 0 for
 * each of Iceberg's operations, so Prometheus's {@code rate()} sees the first commit. The last
 * commit gauge exists from the table's first snapshot on. A total the snapshot summary lacks shows
 * NaN.
 */
public final class IcebergMetrics {
  public static final String LAST_COMMIT = "sluice.iceberg.table.last.commit.timestamp";
  public static final String SNAPSHOTS = "sluice.iceberg.table.snapshots";
  public static final String COMMITS = "sluice.iceberg.table.commits";
  public static final String RECORDS = "sluice.iceberg.table.records";
  public static final String DATA_FILES = "sluice.iceberg.table.data.files";
  public static final String DELETE_FILES = "sluice.iceberg.table.delete.files";
  public static final String EQUALITY_DELETES = "sluice.iceberg.table.equality.deletes";
  public static final String LOAD_FAILURES = "sluice.iceberg.table.load.failures";
  public static final String LAST_REFRESH = "sluice.iceberg.last.refresh.timestamp";
  public static final String REFRESH_FAILURES = "sluice.iceberg.refresh.failures";

  private final MeterRegistry registry;
  private final AtomicLong lastRefreshMs = new AtomicLong();
  private final Counter refreshFailures;
  private Gauge lastRefresh;

  public IcebergMetrics(MeterRegistry registry) {
    this.registry = registry;
    this.refreshFailures =
        Counter.builder(REFRESH_FAILURES)
            .description(
                "Iceberg refreshes that failed as a whole (catalog unreachable or not listable)")
            .register(registry);
  }

  /** The meters of {@code table} ({@code namespace.name}); nothing is registered before use. */
  public TableMeters table(String table) {
    return new TableMeters(table);
  }

  /** Records an Iceberg refresh that completed at {@code at}. */
  public void refreshed(Instant at) {
    lastRefreshMs.set(at.toEpochMilli());
    if (lastRefresh == null) {
      lastRefresh =
          Gauge.builder(LAST_REFRESH, lastRefreshMs, ms -> ms.get() / 1000.0)
              .description("When the monitor's last complete Iceberg refresh ended (epoch)")
              .baseUnit("seconds")
              .strongReference(true)
              .register(registry);
    }
  }

  public void refreshFailed() {
    refreshFailures.increment();
  }

  /**
   * One table's meters: {@link #publish} shows a reading (registering the meters the first time),
   * {@link #loadFailed} counts a failed load, {@link #close} removes them.
   */
  public final class TableMeters implements AutoCloseable {
    private final String table;
    private final Tags tags;
    private final AtomicLong lastCommitMs = new AtomicLong(TableReading.NO_COMMIT);
    private final AtomicLong snapshots = new AtomicLong();
    private final AtomicLong records = new AtomicLong();
    private final AtomicLong dataFiles = new AtomicLong();
    private final AtomicLong deleteFiles = new AtomicLong();
    private final AtomicLong equalityDeletes = new AtomicLong();
    private final AtomicLong loadFailures = new AtomicLong();
    private final Map<String, AtomicLong> commits = new ConcurrentHashMap<>();
    private final List<Meter> meters = new ArrayList<>();
    private boolean registered;
    private boolean failuresRegistered;
    private boolean lastCommitRegistered;

    private TableMeters(String table) {
      this.table = table;
      this.tags = Tags.of("table", table);
    }

    /** Shows {@code reading}: gauges take its values, commit counters grow by its new commits. */
    public void publish(TableReading reading) {
      lastCommitMs.set(reading.lastCommitMillis());
      snapshots.set(reading.snapshots());
      records.set(reading.records());
      dataFiles.set(reading.dataFiles());
      deleteFiles.set(reading.deleteFiles());
      equalityDeletes.set(reading.equalityDeletes());
      if (!registered) {
        registered = true;
        registerFailures();
        registerGauges();
        TableReading.OPERATIONS.forEach(this::commitCounter);
      }
      reading.newCommits().forEach((operation, n) -> commitCounter(operation).addAndGet(n));
      if (!lastCommitRegistered && reading.lastCommitMillis() != TableReading.NO_COMMIT) {
        lastCommitRegistered = true;
        meters.add(
            Gauge.builder(LAST_COMMIT, lastCommitMs, ms -> ms.get() / 1000.0)
                .description("Timestamp of the table's current snapshot (epoch)")
                .tags(tags)
                .baseUnit("seconds")
                .strongReference(true)
                .register(registry));
      }
    }

    /** Counts a load or refresh of the table's metadata that failed. */
    public void loadFailed() {
      loadFailures.incrementAndGet();
      registerFailures();
    }

    /** The table this is about, {@code namespace.name}. */
    public String table() {
      return table;
    }

    private void registerFailures() {
      if (!failuresRegistered) {
        failuresRegistered = true;
        meters.add(
            FunctionCounter.builder(LOAD_FAILURES, loadFailures, AtomicLong::get)
                .description("Loads or refreshes of the table's metadata that failed")
                .tags(tags)
                .register(registry));
      }
    }

    private void registerGauges() {
      meters.add(count(SNAPSHOTS, "Snapshots in the table's metadata (until expired)", snapshots));
      meters.add(count(RECORDS, "total-records of the current snapshot's summary", records));
      meters.add(count(DATA_FILES, "total-data-files of the current snapshot", dataFiles));
      meters.add(
          count(
              DELETE_FILES,
              "total-delete-files of the current snapshot (position and equality)",
              deleteFiles));
      meters.add(
          count(
              EQUALITY_DELETES,
              "total-equality-deletes of the current snapshot: rows in equality delete files,"
                  + " which every read must apply until compaction",
              equalityDeletes));
    }

    private Meter count(String name, String description, AtomicLong value) {
      return Gauge.builder(name, value, v -> v.get() < 0 ? Double.NaN : v.get())
          .description(description)
          .tags(tags)
          .strongReference(true)
          .register(registry);
    }

    private AtomicLong commitCounter(String operation) {
      return commits.computeIfAbsent(
          operation,
          op -> {
            AtomicLong count = new AtomicLong();
            meters.add(
                FunctionCounter.builder(COMMITS, count, AtomicLong::get)
                    .description("New snapshots seen in the table's metadata, by operation")
                    .tags(tags.and("operation", op))
                    .register(registry));
            return count;
          });
    }

    /** Removes the table's meters (it is gone from the catalog). */
    @Override
    public void close() {
      meters.forEach(registry::remove);
      meters.clear();
    }
  }
}
