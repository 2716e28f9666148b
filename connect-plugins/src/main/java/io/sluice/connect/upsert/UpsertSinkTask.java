package io.sluice.connect.upsert;

import io.sluice.connect.upsert.commit.PendingChanges;
import io.sluice.connect.upsert.commit.UpsertCommitter;
import io.sluice.connect.upsert.config.ErrorTolerance;
import io.sluice.connect.upsert.config.InputFormat;
import io.sluice.connect.upsert.config.UpsertSinkConfig;
import io.sluice.connect.upsert.error.RecordRejectedException;
import io.sluice.connect.upsert.event.ChangeEvent;
import io.sluice.connect.upsert.event.ChangeExtractor;
import io.sluice.connect.upsert.event.WireChangeExtractor;
import io.sluice.connect.upsert.index.KeyIndexLimits;
import io.sluice.connect.upsert.maintenance.SinkMaintenance;
import io.sluice.connect.upsert.metrics.SinkMetrics;
import io.sluice.connect.upsert.metrics.SinkMetricsEndpoint;
import io.sluice.connect.upsert.quarantine.DlqTopics;
import io.sluice.connect.upsert.quarantine.Quarantine;
import io.sluice.connect.upsert.quarantine.Rejections;
import io.sluice.connect.upsert.table.TableNames;
import io.sluice.connect.upsert.table.TableResolver;
import io.sluice.lake.Catalogs;
import io.sluice.schema.connect.ConnectAvroCodec;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import java.io.IOException;
import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.errors.ConnectException;
import org.apache.kafka.connect.errors.DataException;
import org.apache.kafka.connect.sink.SinkRecord;
import org.apache.kafka.connect.sink.SinkTask;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Buffers change events for a commit interval, then hands them to the {@link UpsertCommitter}.
 * Iceberg is the source of truth for offsets: a (re)opened partition seeks to the offset its table
 * holds, records below it are skipped, and {@link #preCommit} gives Connect only offsets Iceberg
 * already holds, so a crash between the Iceberg commit and Connect's offset commit loses and
 * duplicates nothing.
 *
 * <p>A commit round runs on the task's commit thread while the task reads the next batch: one round
 * at a time. The task applies a round's outcome (offsets Iceberg now holds, fenced tables rewound)
 * on its own thread, at the end of a {@code put} once the round is done, and before it starts the
 * next round, opens or closes partitions; until then {@link #preCommit} reports the offsets before
 * the round.
 *
 * <p>Records of a table without a primary key (null key, no {@code primary.key.fields}) are skipped
 * ({@link KeylessTables}); a partition that has only skipped records since Iceberg's offsets hands
 * Connect the offset after them, since nothing of it waits for a commit.
 *
 * <p>A record the table cannot take ({@link RecordRejectedException}) fails the task, or with
 * {@code errors.sink.tolerance=all} goes to the DLQ ({@link Quarantine}) while the others are
 * written. A commit that fails for any other reason but a data or table problem is retried with
 * backoff for {@code errors.sink.retry.timeout}, then fails the task.
 */
public class UpsertSinkTask extends SinkTask {
  private static final Logger log = LoggerFactory.getLogger(UpsertSinkTask.class);

  private final TaskRuntime runtime;
  private final TaskHooks hooks;
  private PendingChanges pending = new PendingChanges();
  // The task's commits and its maintenance's take turns at the catalog.
  private final Lock catalogTurns = new ReentrantLock();
  private final Map<TopicPartition, Long> held = new HashMap<>();
  // Next offsets of partitions whose records since Iceberg's offsets were all keyless (skipped):
  // nothing of them is waiting for a commit, so Connect may commit these.
  private final Map<TopicPartition, Long> skippedTo = new HashMap<>();
  // When each table of the assignment was last committed (or first assigned), on the interval
  // clock: a table idle for maintenance.idle-commit.interval-ms rides along with the next round.
  private final Map<TableIdentifier, Long> lastCommitted = new HashMap<>();
  private TableNames names;
  private UpsertSinkConfig config;
  private ChangeExtractor extractor;

  /** The direct path ({@code schema.registry.url}); null when the converters decode. */
  private WireChangeExtractor wire;

  private UpsertCommitter committer;
  private TableResolver tables;
  private KeylessTables keyless;
  private SinkMetricsEndpoint.Lease metricsLease;
  private SinkMetrics metrics;
  private Quarantine quarantine;
  private SinkMaintenance maintenance;
  private Rejections rejections = Rejections.FAIL;
  private long lastCommitNanos;
  private Executor commitThread;
  // The commit round on the commit thread, until the task applied its outcome; null when none.
  private CommitRound inFlight;
  // Set when the task stops: a round retrying a failed commit gives up.
  private volatile boolean stopping;

  public UpsertSinkTask() {
    this(TaskRuntime.SYSTEM);
  }

  /** With the clocks, clients and maintenance thread of {@code runtime} (tests, simulations). */
  public UpsertSinkTask(TaskRuntime runtime) {
    this(runtime, TaskHooks.NONE);
  }

  /** With {@code hooks} armed: for test subclasses that crash the task on purpose. */
  protected UpsertSinkTask(TaskRuntime runtime, TaskHooks hooks) {
    this.runtime = runtime;
    this.hooks = hooks;
  }

  @Override
  public void start(Map<String, String> props) {
    config = new UpsertSinkConfig(props);
    extractor =
        new ChangeExtractor(config.inputFormat(), config.flatOpField(), config.primaryKeyFields());
    wire =
        config.schemaRegistryUrl().isEmpty()
            ? null
            : new WireChangeExtractor(
                extractor,
                new ConnectAvroCodec(HttpSchemaRegistryClient.create(config.schemaRegistryUrl())),
                config.inputFormat() == InputFormat.DEBEZIUM,
                config.primaryKeyFields());
    Catalog catalog = openCatalog(config);
    tables =
        new TableResolver(
            catalog,
            new TableResolver.Settings(
                config.tableAutoCreate(),
                config.tableEvolveSchema(),
                config.tableFormatVersion(),
                config.tablePartitionBy()));
    names = new TableNames(config.tableTopicRegex(), config.tableNameFormat());
    metricsLease = SinkMetricsEndpoint.acquire(config.metricsHost(), config.metricsPort());
    metrics = new SinkMetrics(metricsLease.meters(), config.connectorName(), names);
    keyless = new KeylessTables(config.primaryKeyFields().isEmpty(), names, metrics);
    committer =
        new UpsertCommitter(
            catalog,
            names,
            tables,
            config.connectorName(),
            config.taskId(),
            extractor.excludedField(),
            metrics,
            catalogTurns,
            config.mergeLimits(),
            config.maintenance().targetFileSizeBytes(),
            new KeyIndexLimits(
                config.keyIndexMaxBytes(),
                config.keyIndexSpillMaxBytes(),
                config.keyIndexSpillDir()),
            config.commitCopyFraction());
    if (config.errorsSinkTolerance() == ErrorTolerance.ALL) {
      Map<String, Object> kafka = config.kafkaProperties();
      quarantine =
          new Quarantine(
              new Quarantine.Settings(
                  config.connectorName(),
                  config.taskId(),
                  UpsertSinkTask.class.getName(),
                  new DlqTopics(config.errorsSinkDlqTopic(), config.topicNames()),
                  topic -> names.table(topic).toString(),
                  kafka,
                  Duration.ofSeconds(60),
                  hooks::dlqFlushed),
              runtime.clients(),
              metrics,
              runtime.wallClock());
      rejections = quarantine;
    }
    if (config.maintenanceEnabled()) {
      maintenance =
          new SinkMaintenance(
              catalog,
              names,
              config.maintenance(),
              id -> metrics.table(id).maintenance(),
              config.connectorName(),
              config.taskId(),
              runtime.wallClock(),
              catalogTurns,
              config.subscribedTopics(),
              runtime.maintenanceThread());
    }
    commitThread =
        runtime
            .commitThread()
            .apply("sluice-upsert-commit-" + config.connectorName() + "-" + config.taskId());
    lastCommitNanos = runtime.intervalClock().getAsLong();
    log.info(
        "Upsert sink task {} of {} started (commit every {} ms)",
        config.taskId(),
        config.connectorName(),
        config.commitIntervalMs());
  }

  @Override
  public void open(Collection<TopicPartition> partitions) {
    awaitCommit(Set.of());
    Map<TopicPartition, Long> fromIceberg = committer.heldOffsets(partitions);
    held.putAll(fromIceberg);
    fromIceberg.forEach(context::offset);
    long now = runtime.intervalClock().getAsLong();
    partitions.forEach(tp -> lastCommitted.putIfAbsent(names.table(tp.topic()), now));
    log.info("Opened {}; Iceberg holds offsets {}", partitions, fromIceberg);
    if (quarantine != null) {
      quarantine.open(partitions, fromIceberg, committer.dlqStart(partitions));
    }
    if (maintenance != null) {
      maintenance.assigned(partitions);
    }
  }

  @Override
  public void close(Collection<TopicPartition> partitions) {
    awaitCommit(Set.copyOf(partitions));
    pending.drop(partitions);
    partitions.forEach(held::remove);
    partitions.forEach(skippedTo::remove);
    // A table none of whose partitions the task still holds needs no key index in this task.
    partitions.stream()
        .map(tp -> names.table(tp.topic()))
        .distinct()
        .filter(id -> held.keySet().stream().noneMatch(tp -> id.equals(names.table(tp.topic()))))
        .forEach(committer::forgetIndex);
    if (quarantine != null) {
      quarantine.close(partitions);
    }
    if (maintenance != null) {
      maintenance.revoked(partitions);
    }
  }

  @Override
  public void put(Collection<SinkRecord> records) {
    if (wire != null) {
      // A registry outage fails the batch here, before any of it is taken: Connect offers it again.
      wire.resolveSchemas(records);
    }
    for (SinkRecord record : records) {
      TopicPartition tp = new TopicPartition(record.topic(), record.kafkaPartition());
      Long committed = held.get(tp);
      if (committed != null && record.kafkaOffset() < committed) {
        // Already in Iceberg (a rewind or a redelivery): writing it again would be a stale write.
        continue;
      }
      if (keyless.skip(record)) {
        if (pending.partitions().containsKey(tp) || (inFlight != null && inFlight.holds(tp))) {
          pending.add(tp, record.kafkaOffset(), null);
        } else {
          skippedTo.merge(tp, record.kafkaOffset() + 1, Math::max);
        }
        continue;
      }
      ChangeEvent event;
      try {
        event = extract(record).orElse(null);
        metrics.received(record.topic(), event);
      } catch (RecordRejectedException e) {
        rejections.reject(record.topic(), record.kafkaPartition(), record.kafkaOffset(), e);
        event = null;
      }
      pending.add(tp, record.kafkaOffset(), event);
    }
    commitIfDue();
    if (!pending.isEmpty()) {
      // The worker calls put again once its consumer's poll returns, which on a quiet topic is the
      // offset flush interval: records waiting for the next round would wait that long too.
      long untilDueMs =
          config.commitIntervalMs()
              - (runtime.intervalClock().getAsLong() - lastCommitNanos) / 1_000_000;
      context.timeout(Math.max(1, untilDueMs));
    }
  }

  private Optional<ChangeEvent> extract(SinkRecord record) {
    if (WireChangeExtractor.takes(record)) {
      if (wire == null) {
        throw new DataException(
            "record at topic "
                + record.topic()
                + " partition "
                + record.kafkaPartition()
                + " offset "
                + record.kafkaOffset()
                + " arrives as bytes: set "
                + UpsertSinkConfig.SCHEMA_REGISTRY_URL_CONFIG
                + " for the sink to decode Confluent-wire Avro itself, or a converter that"
                + " decodes it (e.g. io.sluice.connect.converter.RegistryAvroConverter)");
      }
      return wire.extract(record);
    }
    return extractor.extract(record);
  }

  /**
   * Only reports what Iceberg holds; commits happen in {@link #put}, which Connect calls on every
   * poll, records or not. A commit here could trip the fence and rewind, and Connect also calls
   * this while it revokes partitions: a seek asked for a partition then revoked is applied by the
   * worker after the next assignment, on a partition the consumer no longer holds, and fails the
   * task ({@code KafkaConsumer.seek}: no current assignment).
   */
  @Override
  public Map<TopicPartition, OffsetAndMetadata> preCommit(
      Map<TopicPartition, OffsetAndMetadata> currentOffsets) {
    Map<TopicPartition, OffsetAndMetadata> safe = new HashMap<>();
    currentOffsets
        .keySet()
        .forEach(
            tp -> {
              Long offset = held.get(tp);
              Long skipped = skippedTo.get(tp);
              if (skipped != null && (offset == null || skipped > offset)) {
                offset = skipped;
              }
              if (offset != null) {
                safe.put(tp, new OffsetAndMetadata(offset));
              }
            });
    return safe;
  }

  @Override
  public void stop() {
    stopping = true;
    // First: the maintenance thread uses the catalog closed below.
    if (maintenance != null) {
      maintenance.close();
    }
    // Then the round in flight, which uses the quarantine and the catalog: it commits or not, and
    // the next task reads from the offsets Iceberg holds either way.
    CommitRound round = inFlight;
    inFlight = null;
    if (round != null) {
      try {
        round.finish();
      } catch (RuntimeException e) {
        log.warn("The commit round in flight failed as the task stopped: {}", e.getMessage());
      }
    }
    if (commitThread instanceof ExecutorService thread) {
      thread.shutdown();
    }
    if (quarantine != null) {
      quarantine.close();
    }
    if (committer != null) {
      try {
        committer.close();
      } catch (IOException e) {
        log.warn("Could not close the Iceberg catalog", e);
      }
    }
    if (metricsLease != null) {
      metricsLease.close();
    }
  }

  @Override
  public String version() {
    return Versions.of(UpsertSinkTask.class);
  }

  /**
   * Starts a commit round when the interval passed, once the round before it ended; applies a round
   * that ended meanwhile.
   */
  private void commitIfDue() {
    if (!due()) {
      if (inFlight != null && inFlight.isDone()) {
        awaitCommit(Set.of());
      }
      return;
    }
    awaitCommit(Set.of());
    if (!due()) {
      return;
    }
    long now = runtime.intervalClock().getAsLong();
    addIdleTables(now);
    if (pending.isEmpty()) {
      return;
    }
    lastCommitNanos = now;
    CommitRound round = new CommitRound(pending, held, runtime.intervalClock(), this::commitRound);
    pending = new PendingChanges();
    inFlight = round;
    commitThread.execute(round.work());
    if (round.isDone()) {
      // Run by this thread (tests): its outcome applies now.
      awaitCommit(Set.of());
    }
  }

  private boolean due() {
    long elapsedMs = (runtime.intervalClock().getAsLong() - lastCommitNanos) / 1_000_000;
    return elapsedMs >= config.commitIntervalMs();
  }

  /**
   * Commits {@code round}'s batch on the commit thread; a commit that fails for any other reason
   * but a data or table problem is tried again with backoff for {@code errors.sink.retry.timeout}.
   */
  private void commitRound(CommitRound round) {
    long retryTimeoutMs = config.errorsSinkRetryTimeoutMs();
    long deadline = runtime.retryClock().getAsLong() + retryTimeoutMs * 1_000_000;
    long delayMs = 100;
    while (true) {
      try {
        committer.commit(round.batch(), round.held(), rejections, round);
        break;
      } catch (DataException e) {
        // A record or the table's setup: another attempt fails the same way.
        throw e;
      } catch (RuntimeException e) {
        boolean retry =
            !stopping
                && (retryTimeoutMs < 0
                    || (retryTimeoutMs > 0
                        && runtime.retryClock().getAsLong() + delayMs * 1_000_000 < deadline));
        if (!retry) {
          throw e;
        }
        log.warn("Commit failed, retrying in {} ms: {}", delayMs, e.getMessage());
        backoff(delayMs);
        delayMs = Math.min(delayMs * 2, config.errorsSinkRetryDelayMaxMs());
        tables.clear();
      }
    }
  }

  /**
   * Waits for the round in flight (runs it here if the commit thread has not started it) and
   * applies its outcome on the task's thread: the offsets Iceberg now holds, what it left pending
   * taken back, fenced tables rewound (all but {@code leaving}: the worker is revoking them, and a
   * seek of a revoked partition would fail the task).
   *
   * @throws RuntimeException the round's failure: the task fails with it
   */
  private void awaitCommit(Set<TopicPartition> leaving) {
    CommitRound round = inFlight;
    if (round == null) {
      return;
    }
    inFlight = null;
    round.finish();
    held.putAll(round.held());
    pending.takeBack(round.batch());
    if (round.ranOnThisThread()) {
      // Run here, so nothing was read meanwhile: the next round is due an interval after this one
      // started, but at least half an interval after it ended, else a commit that takes about the
      // interval or longer would be followed at once by another of the few records polled since.
      // A round on the commit thread is followed by what the task read while it ran.
      long halfInterval = config.commitIntervalMs() * 1_000_000 / 2;
      lastCommitNanos = Math.max(lastCommitNanos, round.endedNanos() - halfInterval);
    }
    for (CommitRound.Committed c : round.committed()) {
      lastCommitted.put(c.table(), c.atNanos());
      if (maintenance != null) {
        maintenance.committed(c.partitions());
      }
    }
    for (CommitRound.Fenced f : round.fenced()) {
      log.warn(
          "{}; dropping the batch of {} and rewinding its partitions to the offsets Iceberg holds",
          f.why().getMessage(),
          f.table());
      rewindToIceberg(f.table(), f.firstOffsets(), leaving);
    }
    if (quarantine != null) {
      quarantine.committed(held);
    }
    hooks.committed();
  }

  /**
   * Adds to this round the held partitions of every table not committed for {@code
   * maintenance.idle-commit.interval-ms}: their offsets are committed again, so that an old
   * snapshot is no longer the newest naming them and expiry can move past it. Per table, not per
   * task: a task busy with other tables would otherwise pin a quiet table's snapshots for as long
   * as it holds its partitions.
   */
  private void addIdleTables(long now) {
    long idleMs = config.idleCommitIntervalMs();
    if (idleMs <= 0) {
      return;
    }
    held.forEach(
        (tp, offset) -> {
          TableIdentifier table = names.table(tp.topic());
          long since = lastCommitted.getOrDefault(table, now);
          if ((now - since) / 1_000_000 >= idleMs && !pending.partitions().containsKey(tp)) {
            pending.add(tp, offset - 1, null);
          }
        });
  }

  private void backoff(long ms) {
    try {
      runtime.sleeper().sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new ConnectException("interrupted while waiting to retry a commit", e);
    }
  }

  /**
   * Forgets what this task read of {@code table}'s partitions since Iceberg's offsets and reads it
   * again: a partition Iceberg holds an offset for is sought there; one it holds none for (never
   * committed: a new table or partition, the connector's first batches) is sought back to the first
   * record this task has pending for it (in the fenced round, {@code fencedFirst}, or read since),
   * else the consumer would go on after the dropped records and the next commit would record an
   * offset past them. Partitions {@code leaving} are left alone: the worker is revoking them.
   */
  private void rewindToIceberg(
      TableIdentifier table, Map<TopicPartition, Long> fencedFirst, Set<TopicPartition> leaving) {
    List<TopicPartition> partitions =
        context.assignment().stream()
            .filter(tp -> table.equals(names.table(tp.topic())) && !leaving.contains(tp))
            .toList();
    Map<TopicPartition, Long> firstPending = new HashMap<>();
    partitions.forEach(
        tp -> {
          PendingChanges.Partition p = pending.partitions().get(tp);
          long first =
              Math.min(
                  fencedFirst.getOrDefault(tp, Long.MAX_VALUE),
                  p == null ? Long.MAX_VALUE : p.firstOffset());
          if (first != Long.MAX_VALUE) {
            firstPending.put(tp, first);
          }
        });
    pending.drop(partitions);
    partitions.forEach(held::remove);
    partitions.forEach(skippedTo::remove);
    // A table none of whose partitions the task still holds needs no key index in this task.
    partitions.stream()
        .map(tp -> names.table(tp.topic()))
        .distinct()
        .filter(id -> held.keySet().stream().noneMatch(tp -> id.equals(names.table(tp.topic()))))
        .forEach(committer::forgetIndex);
    tables.clear();
    Map<TopicPartition, Long> fromIceberg = committer.heldOffsets(partitions);
    held.putAll(fromIceberg);
    Map<TopicPartition, Long> seeks = new HashMap<>(firstPending);
    seeks.putAll(fromIceberg);
    seeks.forEach(context::offset);
    log.info("Rewound {} of {} to {}", partitions, table, seeks);
  }

  /** The catalog of the {@code iceberg.catalog.*} and {@code iceberg.hadoop.*} keys. */
  private static Catalog openCatalog(UpsertSinkConfig config) {
    Map<String, String> object = new HashMap<>(config.catalogProperties());
    object.put(Catalogs.NAME, config.catalogName());
    return Catalogs.open(object, config.hadoopProperties()).catalog();
  }
}
