package io.sluice.bench.sink;

import io.sluice.lake.offsets.SnapshotOffsets;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.apache.iceberg.DataOperations;
import org.apache.iceberg.Snapshot;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.data.IcebergGenerics;
import org.apache.iceberg.data.Record;
import org.apache.iceberg.io.CloseableIterable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watches the sink tables for new snapshots and records what each made visible:
 *
 * <ul>
 *   <li>upsert table: the offsets its commit recorded in the snapshot summary ({@code
 *       sluice.offsets.<connector>});
 *   <li>changelog table: the highest Kafka offset per partition among the rows the snapshot
 *       appended (read from the table itself, {@code _kafka_metadata}), plus one.
 * </ul>
 *
 * A snapshot counts from its own commit time, so how often this polls does not change the figures.
 * Without a changelog table it watches the upsert table alone. Every upsert table snapshot also
 * goes into a {@link SnapshotTally} (bytes written, commit modes) the first time a poll sees it.
 */
public final class TablePoller implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(TablePoller.class);
  private static final String KAFKA_METADATA = "_kafka_metadata";

  private final Catalog catalog;
  private final TableIdentifier currentTable;
  private final String upsertConnector;
  private final TableIdentifier changelogTable;
  private final String topic;
  private final Coverage upserts = new Coverage();
  private final Coverage appends = new Coverage();
  private final SnapshotTally upsertSnapshots = new SnapshotTally();
  private final Set<Long> seenUpserts = new HashSet<>();
  private final Set<Long> seenAppends = new HashSet<>();
  private final Map<Integer, Long> appendedUpTo = new HashMap<>();
  private final ScheduledExecutorService executor =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "sink-bench-poller");
            t.setDaemon(true);
            return t;
          });
  private volatile Throwable fatal;
  private int failuresInARow;
  private Table current;
  private Table changelog;

  /** Watches the upsert table {@code currentTable} alone. */
  public TablePoller(
      Catalog catalog, TableIdentifier currentTable, String upsertConnector, String topic) {
    this(catalog, currentTable, upsertConnector, null, topic);
  }

  TablePoller(
      Catalog catalog,
      TableIdentifier currentTable,
      String upsertConnector,
      TableIdentifier changelogTable,
      String topic) {
    this.catalog = catalog;
    this.currentTable = currentTable;
    this.upsertConnector = upsertConnector;
    this.changelogTable = changelogTable;
    this.topic = topic;
  }

  public void start(Duration every) {
    executor.scheduleWithFixedDelay(this::pollQuietly, 0, every.toMillis(), TimeUnit.MILLISECONDS);
  }

  public Coverage upserts() {
    return upserts;
  }

  Coverage appends() {
    return appends;
  }

  /** What the upsert table's snapshots wrote. */
  public SnapshotTally upsertSnapshots() {
    return upsertSnapshots;
  }

  private void pollQuietly() {
    try {
      poll();
      failuresInARow = 0;
    } catch (RuntimeException e) {
      // SQLite busy while a sink commits, a table not created yet: the next poll sees it.
      failuresInARow++;
      if (failuresInARow % 50 == 0) {
        log.warn(
            "Polling the sink tables failed {} times in a row: {}", failuresInARow, e.toString());
      } else {
        log.debug("Polling the sink tables failed, retrying: {}", e.toString());
      }
    } catch (Error e) {
      // The executor would stop scheduling silently: make the benchmark see it.
      fatal = e;
      throw e;
    }
  }

  /**
   * Fails when polling stopped for good.
   *
   * @throws IllegalStateException with the error that stopped it
   */
  public void checkAlive() {
    Throwable error = fatal;
    if (error != null) {
      throw new IllegalStateException("polling the sink tables stopped: " + error, error);
    }
  }

  /** One look at both tables (also callable directly, e.g. after the poller stopped). */
  synchronized void poll() {
    current = refreshed(current, currentTable);
    if (current != null) {
      for (Snapshot s : current.snapshots()) {
        if (!seenUpserts.contains(s.snapshotId())) {
          upserts.add(s.timestampMillis(), upsertOffsets(s));
          upsertSnapshots.add(s);
          seenUpserts.add(s.snapshotId());
        }
      }
    }
    changelog = changelogTable == null ? null : refreshed(changelog, changelogTable);
    if (changelog != null) {
      for (Snapshot s : changelog.snapshots()) {
        if (!seenAppends.contains(s.snapshotId())) {
          if (DataOperations.APPEND.equals(s.operation())) {
            readAppended(changelog, s);
          }
          seenAppends.add(s.snapshotId());
          appends.add(s.timestampMillis(), Map.copyOf(appendedUpTo));
        }
      }
    }
  }

  private Table refreshed(Table table, TableIdentifier id) {
    if (table != null) {
      table.refresh();
      return table;
    }
    return catalog.tableExists(id) ? catalog.loadTable(id) : null;
  }

  private Map<Integer, Long> upsertOffsets(Snapshot s) {
    Map<Integer, Long> offsets = new HashMap<>();
    SnapshotOffsets.fromSummary(s.summary(), upsertConnector)
        .ifPresent(
            all ->
                all.forEach(
                    (tp, next) -> {
                      if (tp.topic().equals(topic)) {
                        offsets.put(tp.partition(), next);
                      }
                    }));
    return offsets;
  }

  private void readAppended(Table table, Snapshot s) {
    IcebergGenerics.ScanBuilder scan =
        IcebergGenerics.read(table)
            .select(KAFKA_METADATA + ".partition", KAFKA_METADATA + ".offset");
    scan =
        s.parentId() == null
            ? scan.useSnapshot(s.snapshotId())
            : scan.appendsBetween(s.parentId(), s.snapshotId());
    try (CloseableIterable<Record> rows = scan.build()) {
      for (Record row : rows) {
        Record metadata = (Record) row.getField(KAFKA_METADATA);
        int partition = (Integer) metadata.getField("partition");
        long next = (Long) metadata.getField("offset") + 1;
        appendedUpTo.merge(partition, next, Math::max);
      }
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read snapshot " + s.snapshotId(), e);
    }
  }

  @Override
  public void close() {
    executor.shutdownNow();
    try {
      executor.awaitTermination(10, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
