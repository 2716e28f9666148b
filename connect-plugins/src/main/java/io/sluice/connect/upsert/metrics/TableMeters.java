package io.sluice.connect.upsert.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.sluice.connect.upsert.error.SinkErrorCode;
import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.event.Operation;
import io.sluice.connect.upsert.event.SourceOp;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The meters of one table written by one connector. Thread-safe: the connector's tasks share it.
 * Every meter is registered up front (zeros included), except the last-commit gauge, which appears
 * with the first commit so that no dashboard reads "last commit in 1970".
 */
public final class TableMeters {
  private static final String TOMBSTONE = "tombstone";

  private final MeterRegistry registry;
  private final Clock clock;
  private final Tags tags;
  private final Counter[] records = new Counter[SourceOp.values().length + 1];
  private final Counter upserted;
  private final Counter deleted;
  private final Counter commitSuccesses;
  private final Counter commitFailures;
  private final Counter keyless;
  private final Timer commitDuration;
  private final Timer freshness;
  private final AtomicLong lastCommitMs = new AtomicLong();
  private final MaintenanceMeters maintenance;
  private final AtomicLong indexKeys = new AtomicLong();
  private final AtomicLong indexBytes = new AtomicLong();
  private final AtomicLong indexSpilledBytes = new AtomicLong();
  private final Counter indexBuilds;
  private final Timer indexBuildDuration;
  private final Counter duplicateKeysAtBuild;

  TableMeters(MeterRegistry registry, Clock clock, String connector, String table) {
    this.registry = registry;
    this.clock = clock;
    this.tags = Tags.of("connector", connector, "table", table);
    for (SourceOp op : SourceOp.values()) {
      records[op.ordinal()] = recordsCounter(op.code());
    }
    records[records.length - 1] = recordsCounter(TOMBSTONE);
    upserted =
        Counter.builder(SinkMeters.ROWS_UPSERTED)
            .description("Rows written by upsert commits (one per key and commit)")
            .tags(tags)
            .register(registry);
    deleted =
        Counter.builder(SinkMeters.ROWS_DELETED)
            .description("Keys deleted by commits (one per key and commit)")
            .tags(tags)
            .register(registry);
    keyless =
        Counter.builder(SinkMeters.KEYLESS_RECORDS)
            .description(
                "Records without a key (a source table without a primary key), skipped: the"
                    + " table has no current table, its events are in the changelog")
            .tags(tags)
            .register(registry);
    // Every code's series exists from the start at 0, so a rate of it is 0 rather than no data
    // until the first quarantine.
    for (SinkErrorCode code : SinkErrorCode.values()) {
      quarantinedCounter(code.name());
    }
    commitSuccesses = commitsCounter("success");
    commitFailures = commitsCounter("failure");
    commitDuration =
        Timer.builder(SinkMeters.COMMIT_DURATION)
            .description("Time to write a batch's files and commit them as one snapshot")
            .tags(tags)
            .serviceLevelObjectives(
                Duration.ofMillis(100),
                Duration.ofMillis(250),
                Duration.ofMillis(500),
                Duration.ofSeconds(1),
                Duration.ofMillis(2500),
                Duration.ofSeconds(5),
                Duration.ofSeconds(10))
            .register(registry);
    freshness =
        Timer.builder(SinkMeters.FRESHNESS)
            .description(
                "From the change at the source (source.ts_ms, else ts_ms) to its Iceberg commit")
            .tags(tags)
            .serviceLevelObjectives(
                Duration.ofMillis(500),
                Duration.ofSeconds(1),
                Duration.ofSeconds(2),
                Duration.ofSeconds(5),
                Duration.ofSeconds(10),
                Duration.ofSeconds(30),
                Duration.ofMinutes(1),
                Duration.ofMinutes(5),
                Duration.ofMinutes(15))
            .register(registry);
    maintenance = new MaintenanceMeters(registry, clock, tags);
    Gauge.builder(SinkMeters.KEY_INDEX_KEYS, indexKeys, AtomicLong::get)
        .description("Keys in the table's key index (absent ones included)")
        .tags(tags)
        .strongReference(true)
        .register(registry);
    Gauge.builder(SinkMeters.KEY_INDEX_BYTES, indexBytes, AtomicLong::get)
        .description("Bytes of the table's key index, on the heap and in memory-mapped files")
        .tags(tags)
        .baseUnit("bytes")
        .strongReference(true)
        .register(registry);
    Gauge.builder(SinkMeters.KEY_INDEX_SPILLED_BYTES, indexSpilledBytes, AtomicLong::get)
        .description(
            "Bytes of the table's key index in memory-mapped files (past key-index.max-bytes)")
        .tags(tags)
        .baseUnit("bytes")
        .strongReference(true)
        .register(registry);
    indexBuilds =
        Counter.builder(SinkMeters.KEY_INDEX_BUILDS)
            .description("Key indexes built for the table (a task's first commit, or a rebuild)")
            .tags(tags)
            .register(registry);
    indexBuildDuration =
        Timer.builder(SinkMeters.KEY_INDEX_BUILD_DURATION)
            .description("Time to build the table's key index from its key columns")
            .tags(tags)
            .register(registry);
    duplicateKeysAtBuild = duplicateKeysCounter("index-build");
  }

  /** The meters of the table's maintenance. */
  public MaintenanceMeters maintenance() {
    return maintenance;
  }

  /** Counts a record quarantined with {@code code} ({@code sluice_sink_quarantined_total}). */
  public void quarantined(String code) {
    quarantinedCounter(code).increment();
  }

  private Counter quarantinedCounter(String code) {
    return Counter.builder(SinkMeters.QUARANTINED)
        .description("Records the sink could not write and sent to the DLQ, by SINK_* code")
        .tags(tags)
        .tag("code", code)
        .register(registry);
  }

  /** Counts a keyless record, skipped ({@code sluice_sink_keyless_records_total}). */
  public void keyless() {
    keyless.increment();
  }

  /**
   * Counts a record taken from Kafka.
   *
   * @param event its change, null for a tombstone
   */
  public void received(ChangeEvent event) {
    records[event == null ? records.length - 1 : event.sourceOp().ordinal()].increment();
  }

  /**
   * Records a successful commit.
   *
   * @param batch the rows written, one event per key
   * @param events every event the commit covers, for freshness
   * @param durationNanos time to write and commit
   */
  public void committed(List<ChangeEvent> batch, List<ChangeEvent> events, long durationNanos) {
    long now = clock.millis();
    // The gauge first: a scrape that sees this commit's counts also sees its time.
    if (lastCommitMs.getAndAccumulate(now, Math::max) == 0) {
      Gauge.builder(SinkMeters.LAST_COMMIT_TIMESTAMP, lastCommitMs, ms -> ms.get() / 1000.0)
          .description("When the table's last commit by this connector succeeded (epoch)")
          .tags(tags)
          .baseUnit("seconds")
          .strongReference(true)
          .register(registry);
    }
    commitSuccesses.increment();
    commitDuration.record(durationNanos, TimeUnit.NANOSECONDS);
    int deletes = 0;
    for (ChangeEvent event : batch) {
      if (event.operation() == Operation.DELETE) {
        deletes++;
      }
    }
    upserted.increment(batch.size() - deletes);
    deleted.increment(deletes);
    for (ChangeEvent event : events) {
      if (event.sourceTimeMs() != ChangeEvent.NO_TIME) {
        freshness.record(Math.max(0, now - event.sourceTimeMs()), TimeUnit.MILLISECONDS);
      }
    }
  }

  /**
   * Records a key index built for the table: how long the build took and what it holds (a task's
   * index of the table; with several tasks the last one reported).
   */
  public void keyIndexBuilt(long keys, long durationNanos) {
    indexKeys.set(keys);
    indexBuilds.increment();
    indexBuildDuration.record(durationNanos, TimeUnit.NANOSECONDS);
  }

  /**
   * Records what the table's key index holds after a commit.
   *
   * @param bytes all its bytes, {@code spilledBytes} of them in memory-mapped files
   */
  public void keyIndexSize(long keys, long bytes, long spilledBytes) {
    indexKeys.set(keys);
    indexBytes.set(bytes);
    indexSpilledBytes.set(spilledBytes);
  }

  /**
   * Records keys found with more than one live row in the table.
   *
   * @param found where: {@code index-build} (the key index read the table)
   */
  public void duplicateKeys(String found, long keys) {
    if (keys > 0) {
      ("index-build".equals(found) ? duplicateKeysAtBuild : duplicateKeysCounter(found))
          .increment(keys);
    }
  }

  private Counter duplicateKeysCounter(String found) {
    return Counter.builder(SinkMeters.DUPLICATE_KEYS)
        .description(
            "Keys found with more than one live row in the table (another writer's row, or a key"
                + " that moved between partitions two tasks held), by where they were found")
        .tags(tags)
        .tag("found", found)
        .register(registry);
  }

  /** Records a batch whose files could not be written or whose commit was refused. */
  public void commitFailed() {
    commitFailures.increment();
  }

  private Counter recordsCounter(String op) {
    return Counter.builder(SinkMeters.RECORDS)
        .description("Records taken from Kafka, by source operation (redeliveries excluded)")
        .tags(tags)
        .tag("op", op)
        .register(registry);
  }

  private Counter commitsCounter(String result) {
    return Counter.builder(SinkMeters.COMMITS)
        .description("Iceberg commits of the table, by result")
        .tags(tags)
        .tag("result", result)
        .register(registry);
  }
}
