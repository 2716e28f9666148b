package io.sluice.connect.upsert.maintenance;

import io.sluice.connect.upsert.config.MaintenanceSettings;
import io.sluice.connect.upsert.metrics.MaintenanceMeters;
import io.sluice.connect.upsert.table.TableNames;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.iceberg.exceptions.NoSuchTableException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A sink task's table maintenance, on one background thread of its own so that ingestion never
 * waits for it. A table is checked after each commit of the task to it and every {@code
 * maintenance.check.interval-ms}; requests for a table already waiting are merged, and the single
 * thread runs at most one pass at a time, so at most one pass per table is ever in flight. Only the
 * tables of {@link MaintainedTables} are maintained. A pass that fails is logged and retried with
 * the next one: maintenance never fails the task.
 */
public final class SinkMaintenance implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(SinkMaintenance.class);
  // Below Connect's task.shutdown.graceful.timeout.ms default (5 s): a pass checks for the stop
  // between steps and every 1,024 rows, and the interrupt ends Iceberg's retry waits.
  private static final long STOP_WAIT_MS = 4_000;

  private final Catalog catalog;
  private final MaintainedTables tables;
  private final MaintenanceSettings settings;
  private final Function<TableIdentifier, MaintenanceMeters> meters;
  private final Clock clock;
  private final TableMaintenance maintenance;
  private final ScheduledExecutorService thread;
  private final Set<TableIdentifier> queued = ConcurrentHashMap.newKeySet();
  // Used on the maintenance thread only.
  private final Map<TableIdentifier, Long> lastOrphanSearch = new HashMap<>();
  private volatile boolean stopping;

  /**
   * @param catalog the task's catalog (the maintenance loads its own table objects from it)
   * @param meters the maintenance meters of a table
   * @param commits held while a maintenance commit reaches the catalog, shared with the task's own
   *     commits so that the two take turns instead of racing
   * @param subscribed whether the connector subscribes to a topic: its partitions' offsets keep
   *     their snapshots whatever their age
   * @param threads makes the single thread the passes run on, given its name
   */
  public SinkMaintenance(
      Catalog catalog,
      TableNames names,
      MaintenanceSettings settings,
      Function<TableIdentifier, MaintenanceMeters> meters,
      String connector,
      int taskId,
      Clock clock,
      Lock commits,
      Predicate<String> subscribed,
      Function<String, ScheduledExecutorService> threads) {
    this.catalog = catalog;
    this.tables = new MaintainedTables(names);
    this.settings = settings;
    this.meters = meters;
    this.clock = clock;
    this.maintenance =
        new TableMaintenance(
            settings,
            taskId,
            () -> stopping,
            commits,
            (name, tp) -> name.equals(connector) && subscribed.test(tp.topic()));
    String name = "sluice-maintenance-" + connector + "-" + taskId;
    this.thread = threads.apply(name);
    long every = settings.checkIntervalMs();
    thread.scheduleWithFixedDelay(this::checkAll, every, every, TimeUnit.MILLISECONDS);
    log.info("Table maintenance of task {} of {} started: {}", taskId, connector, settings);
  }

  /** The task was assigned {@code partitions}. */
  public void assigned(Collection<TopicPartition> partitions) {
    tables.assigned(partitions);
  }

  /** The task lost {@code partitions}. */
  public void revoked(Collection<TopicPartition> partitions) {
    tables.revoked(partitions);
  }

  /** The task committed {@code partitions}' tables: check those it maintains. */
  public void committed(Collection<TopicPartition> partitions) {
    tables.among(partitions).forEach(this::request);
  }

  private void checkAll() {
    tables.all().forEach(this::request);
  }

  private void request(TableIdentifier id) {
    if (stopping || !queued.add(id)) {
      return;
    }
    try {
      thread.execute(() -> run(id));
    } catch (RejectedExecutionException e) {
      queued.remove(id);
    }
  }

  private void run(TableIdentifier id) {
    queued.remove(id);
    if (stopping || !tables.all().contains(id)) {
      return;
    }
    try {
      Table table = catalog.loadTable(id);
      long now = clock.millis();
      // The first pass of a task searches too: tasks restarted more often than the interval would
      // otherwise never search.
      Long last = lastOrphanSearch.get(id);
      boolean orphansDue = last == null || now - last >= settings.orphansIntervalMs();
      maintenance.run(table, meters.apply(id), orphansDue, now);
      if (orphansDue) {
        lastOrphanSearch.put(id, now);
      }
    } catch (NoSuchTableException e) {
      // Not created yet: its first commit creates it.
    } catch (CancellationException e) {
      log.info("Maintenance of {} stopped: the task stops", id);
    } catch (RuntimeException e) {
      if (stopping) {
        // Interrupted by close(): Iceberg wraps the interrupt of its retry wait.
        log.info("Maintenance of {} stopped: the task stops ({})", id, e.toString());
        return;
      }
      log.warn("Maintenance of {} failed; the next pass tries again: {}", id, e.toString());
    }
  }

  /** Stops the maintenance thread: interrupts a pass, waits for it a bounded time. */
  @Override
  public void close() {
    stopping = true;
    thread.shutdownNow();
    try {
      if (!thread.awaitTermination(STOP_WAIT_MS, TimeUnit.MILLISECONDS)) {
        log.warn("Table maintenance did not stop within {} ms", STOP_WAIT_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
