package io.sluice.connect.upsert.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.ToDoubleFunction;

/**
 * The maintenance meters of one table ({@link TableMeters#maintenance()}). The rewrite counters
 * exist from the start at 0; the gauges of the table's files appear with the first maintenance
 * pass, and the last-maintenance gauges with the first pass too, so that no dashboard reads "0
 * delete files" or "maintained in 1970" before anything was looked at. Thread-safe.
 */
public final class MaintenanceMeters {
  private final MeterRegistry registry;
  private final Clock clock;
  private final Tags tags;
  private final Counter rewrites;
  private final Counter rewriteFailures;
  private final AtomicReference<TableFileCounts> counts = new AtomicReference<>();
  private final AtomicBoolean countGauges = new AtomicBoolean();
  private final AtomicLong lastRunMs = new AtomicLong();
  private final AtomicLong lastDurationNanos = new AtomicLong();
  private final AtomicLong offsetsRetired = new AtomicLong();

  MaintenanceMeters(MeterRegistry registry, Clock clock, Tags tags) {
    this.registry = registry;
    this.clock = clock;
    this.tags = tags;
    rewrites = rewritesCounter("success");
    rewriteFailures = rewritesCounter("failure");
  }

  /** Publishes what a pass read from the table's current snapshot. */
  public void inspected(TableFileCounts now) {
    counts.set(now);
    if (countGauges.compareAndSet(false, true)) {
      countGauge(
          SinkMeters.TABLE_DATA_FILES,
          "Data files of the current snapshot",
          null,
          TableFileCounts::dataFiles);
      countGauge(
          SinkMeters.TABLE_DELETE_FILES,
          "Delete files of the current snapshot, by kind",
          "equality",
          TableFileCounts::equalityDeleteFiles);
      countGauge(
          SinkMeters.TABLE_DELETE_FILES,
          "Delete files of the current snapshot, by kind",
          "position",
          TableFileCounts::positionDeleteFiles);
      countGauge(
          SinkMeters.TABLE_EQUALITY_DELETED_ROWS,
          "Rows of the live equality delete files: deletes every read applies until a rewrite"
              + " applies them",
          null,
          TableFileCounts::equalityDeletedRows);
      countGauge(
          SinkMeters.TABLE_SNAPSHOTS,
          "Snapshots the table keeps",
          null,
          TableFileCounts::snapshots);
      Gauge.builder(SinkMeters.OFFSETS_RETIRED_PARTITIONS, offsetsRetired, AtomicLong::get)
          .description(
              "Partitions (of any connector name) whose recorded offsets are past"
                  + " maintenance.snapshots.offsets-horizon-ms at the last expiry: no task"
                  + " recorded them again, so they no longer keep snapshots from expiring")
          .tags(tags)
          .strongReference(true)
          .register(registry);
    }
  }

  /**
   * How many (connector, partition) entries of the table's offsets were past the offsets horizon at
   * the last expiry (published with the pass's other gauges).
   */
  public void offsetsRetired(int entries) {
    offsetsRetired.set(entries);
  }

  /** Records a finished maintenance pass over the table. */
  public void ran(long durationNanos) {
    lastDurationNanos.set(durationNanos);
    // The time last: a scrape that sees this pass's time also sees its duration.
    if (lastRunMs.getAndSet(clock.millis()) == 0) {
      Gauge.builder(SinkMeters.MAINTENANCE_LAST_DURATION, lastDurationNanos, n -> n.get() / 1e9)
          .description("How long the table's last maintenance pass took")
          .tags(tags)
          .baseUnit("seconds")
          .strongReference(true)
          .register(registry);
      Gauge.builder(SinkMeters.MAINTENANCE_LAST_TIMESTAMP, lastRunMs, ms -> ms.get() / 1000.0)
          .description("When the table's last maintenance pass ended (epoch)")
          .tags(tags)
          .baseUnit("seconds")
          .strongReference(true)
          .register(registry);
    }
  }

  /** Counts a rewrite (of a partition or of data files) that committed. */
  public void rewritten() {
    rewrites.increment();
  }

  /** Counts a rewrite that was abandoned (refused by Iceberg) or failed. */
  public void rewriteFailed() {
    rewriteFailures.increment();
  }

  private void countGauge(
      String name, String description, String kind, ToDoubleFunction<TableFileCounts> value) {
    Gauge.Builder<AtomicReference<TableFileCounts>> gauge =
        Gauge.builder(name, counts, c -> value.applyAsDouble(c.get()))
            .description(description)
            .tags(tags)
            .strongReference(true);
    if (kind != null) {
      gauge.tag("kind", kind);
    }
    gauge.register(registry);
  }

  private Counter rewritesCounter(String result) {
    return Counter.builder(SinkMeters.MAINTENANCE_REWRITES)
        .description("Rewrites of the table's maintenance (of partitions or data files), by result")
        .tags(tags)
        .tag("result", result)
        .register(registry);
  }
}
