package io.sluice.router.prevalidate;

import io.sluice.router.validate.RecordValidator;
import io.sluice.router.validate.TopicValidator;
import io.sluice.router.validate.ValidationResult;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Predicate;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Validates the records a stream thread has just polled on a background thread, while the stream
 * thread is still processing earlier records or waiting for a commit; the stream thread then takes
 * the verdict instead of scanning the bytes itself.
 *
 * <p>Why: under exactly_once_v2 one stream thread processes, then blocks on each commit, so the
 * rate is set by its time per record, and on a busy stream thread the scan costs about twice what
 * it costs in a loop of its own (caches and branch predictors are cold). The worker scans in such a
 * loop, on a core the stream thread leaves idle.
 *
 * <p>Only "valid" is handed over, as the identity of the value array that was checked: the stream
 * thread accepts a record only when its value is that very array (the consumer makes a new one per
 * record), so a stale, missing or overwritten verdict costs nothing but the stream thread's own
 * validation. Tombstones, poison and registry outages are always decided by the stream thread, so
 * DLQ records, retries and metrics do not change. The routing decision and its output stay in the
 * stream thread's transaction.
 */
public final class Prevalidator implements AutoCloseable {
  private static final Logger log = LoggerFactory.getLogger(Prevalidator.class);

  /**
   * Verdicts kept per partition at least (8 KiB with compressed references): enough for Kafka
   * Streams' defaults (1,000 records buffered per partition, polls of 1,000).
   */
  static final int MIN_LANE_SIZE = 2048;

  /** Verdicts kept per partition at most (256 KiB): larger polls only lose some verdicts. */
  static final int MAX_LANE_SIZE = 65536;

  /** How often (in records) a stream thread tells the worker how far it has got. */
  static final int PROGRESS_EVERY = 32;

  /**
   * Polls waiting for the worker; when it falls this far behind, further polls are skipped. Kafka
   * Streams buffers about one poll per partition ahead of its stream thread, so a worker further
   * behind would find only records already processed, while the polls it holds outlive young
   * collections (in the router benchmark, 32 queued polls set off G1 concurrent marking that the
   * pass-through did not have).
   */
  static final int QUEUED_POLLS = 4;

  /** Records of one partition validated before moving on to the next partition of a poll. */
  static final int CHUNK = 64;

  private static final Duration CLOSE_WAIT = Duration.ofSeconds(5);
  private static final Prevalidator DISABLED = new Prevalidator();

  private final RecordValidator validator;
  private final Predicate<String> isInput;
  private final BlockingQueue<ConsumerRecords<byte[], byte[]>> polls;
  private final Map<String, TopicLanes> topics = new ConcurrentHashMap<>();
  private final Thread worker;
  private final int laneSize;
  private final AtomicLong pollsDone = new AtomicLong();
  private volatile boolean closed;

  private Prevalidator() {
    this.validator = null;
    this.isInput = topic -> false;
    this.polls = null;
    this.worker = null;
    this.laneSize = MIN_LANE_SIZE;
  }

  private Prevalidator(
      RecordValidator validator, Predicate<String> isInput, String threadName, int laneSize) {
    this.validator = validator;
    this.isInput = isInput;
    this.laneSize = laneSize;
    this.polls = new ArrayBlockingQueue<>(QUEUED_POLLS);
    this.worker = new Thread(this::work, threadName);
    this.worker.setDaemon(true);
  }

  /**
   * Starts the worker thread ({@code threadName}) for stream threads that hold at most {@code
   * recordsAhead} unprocessed records of a partition (Kafka Streams' buffered.records.per.partition
   * plus one poll of max.poll.records); records of topics {@code isInput} rejects are not looked
   * at.
   */
  public static Prevalidator start(
      RecordValidator validator, Predicate<String> isInput, String threadName, int recordsAhead) {
    Prevalidator prevalidator =
        new Prevalidator(validator, isInput, threadName, laneSize(recordsAhead));
    prevalidator.worker.start();
    return prevalidator;
  }

  /**
   * Verdicts to keep per partition: a slot must not be reused before the stream thread reached its
   * record, so at least {@code recordsAhead}, as a power of two. A fixed lane smaller than a poll
   * lets verdicts be overwritten before they are used (docs/benchmarks.md, Findings).
   */
  static int laneSize(int recordsAhead) {
    int needed = Math.min(MAX_LANE_SIZE, Math.max(2, recordsAhead));
    return Math.max(MIN_LANE_SIZE, Integer.highestOneBit(needed - 1) << 1);
  }

  /**
   * The most records of one partition a stream thread holds unprocessed: what Kafka Streams buffers
   * before it pauses the partition, plus one poll; the {@code recordsAhead} of {@link #start}.
   */
  public static int recordsAhead(StreamsConfig streams, String applicationId) {
    Object maxPollRecords =
        streams
            .getMainConsumerConfigs(applicationId, applicationId, 0)
            .get(ConsumerConfig.MAX_POLL_RECORDS_CONFIG);
    int buffered = streams.getInt(StreamsConfig.BUFFERED_RECORDS_PER_PARTITION_CONFIG);
    return buffered + Integer.parseInt(String.valueOf(maxPollRecords));
  }

  /** False for {@link #disabled()}, which validates nothing ahead. */
  boolean active() {
    return polls != null;
  }

  /** One that validates nothing ahead: every record is validated by its stream thread. */
  public static Prevalidator disabled() {
    return DISABLED;
  }

  /**
   * Hands a stream thread's poll to the worker; never blocks. Skipped when the worker is too far
   * behind (its stream threads then validate those records themselves).
   */
  void submit(ConsumerRecords<byte[], byte[]> records) {
    if (polls != null && !closed && !records.isEmpty()) {
      polls.offer(records);
    }
  }

  /**
   * Drops the verdicts of partitions a stream thread gave up (revoked or lost), so they do not keep
   * values alive. A poll queued before may still leave marks for them; they are overwritten as the
   * partition's offsets come round again and never match another consumer's arrays.
   */
  void forget(Collection<TopicPartition> partitions) {
    for (TopicPartition partition : partitions) {
      TopicLanes lanes = topics.get(partition.topic());
      if (lanes != null) {
        lanes.forget(partition.partition());
      }
    }
  }

  /**
   * Valid records the stream threads took from the worker instead of scanning them, since the
   * start; monotonic.
   */
  public long recordsTaken() {
    long taken = 0;
    for (TopicLanes lanes : topics.values()) {
      taken += lanes.taken();
    }
    return taken;
  }

  /** How many submitted polls the worker has been through; for tests. */
  long pollsDone() {
    return pollsDone.get();
  }

  /** The verdicts of {@code topic}'s partitions, for the stream threads to take. */
  public TopicLanes lanes(String topic) {
    if (polls == null) {
      return TopicLanes.NONE;
    }
    return topics.computeIfAbsent(topic, t -> new TopicLanes(laneSize));
  }

  private void work() {
    // One validator per topic, used only by this thread.
    Map<String, TopicValidator> validators = new HashMap<>();
    try {
      while (!closed) {
        validate(polls.take(), validators);
        pollsDone.incrementAndGet();
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (RuntimeException e) {
      // Nothing is lost: every record not marked valid is validated by its stream thread.
      log.warn("Validation ahead stopped; stream threads validate every record themselves", e);
    }
  }

  /**
   * Validates one poll, {@value #CHUNK} records of each partition in turn: Kafka Streams takes
   * records from all of a task's partitions in timestamp order, not one partition after the other.
   */
  private void validate(
      ConsumerRecords<byte[], byte[]> records, Map<String, TopicValidator> validators) {
    List<Batch> batches = new ArrayList<>();
    for (TopicPartition partition : records.partitions()) {
      String topic = partition.topic();
      if (isInput.test(topic)) {
        batches.add(
            new Batch(
                validators.computeIfAbsent(topic, validator::forTopic),
                lanes(topic).lane(partition.partition()),
                records.records(partition)));
      }
    }
    boolean more = !batches.isEmpty();
    while (more && !closed) {
      more = false;
      for (Batch batch : batches) {
        more |= batch.validateNext(CHUNK);
      }
    }
  }

  /** One partition's records of a poll, validated a chunk at a time. */
  private static final class Batch {
    private final TopicValidator validator;
    private final Lane lane;
    private final List<ConsumerRecord<byte[], byte[]>> records;
    private int next;

    Batch(TopicValidator validator, Lane lane, List<ConsumerRecord<byte[], byte[]>> records) {
      this.validator = validator;
      this.lane = lane;
      this.records = records;
    }

    /**
     * Validates up to {@code count} more records, after skipping those the stream thread has
     * passed; false when none are left.
     */
    boolean validateNext(int count) {
      long passed = lane.processed();
      while (next < records.size() && records.get(next).offset() <= passed) {
        next++;
      }
      int end = Math.min(records.size(), next + count);
      for (; next < end; next++) {
        validate(records.get(next));
      }
      return next < records.size();
    }

    private void validate(ConsumerRecord<byte[], byte[]> record) {
      byte[] value = record.value();
      if (value == null) {
        return; // a tombstone: the stream thread decides
      }
      ValidationResult result;
      try {
        // Never asks the registry: records with schema ids the stream thread has not resolved yet
        // (null) are left to it, with its retries and backoff.
        result = validator.validateIfCached(record.key(), value);
      } catch (RuntimeException e) {
        // Whatever it is, the stream thread meets it again on the same record.
        log.debug(
            "Not validated ahead: {}-{}@{} ({})",
            record.topic(),
            record.partition(),
            record.offset(),
            e.toString());
        return;
      }
      if (result == ValidationResult.VALID) {
        lane.markValid(record.offset(), value);
      }
    }
  }

  /** Stops the worker; stream threads validate everything from then on. */
  @Override
  public void close() {
    if (worker == null || closed) {
      return;
    }
    closed = true;
    worker.interrupt();
    try {
      worker.join(CLOSE_WAIT.toMillis());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    if (worker.isAlive()) {
      log.warn("Validation-ahead thread {} did not stop within {}", worker.getName(), CLOSE_WAIT);
    }
    polls.clear();
  }

  /** The lanes of one topic, by partition; created as partitions show up. */
  public static final class TopicLanes {
    static final TopicLanes NONE = new TopicLanes(MIN_LANE_SIZE);

    private final int laneSize;
    private volatile Lane[] lanes = new Lane[0];

    TopicLanes(int laneSize) {
      this.laneSize = laneSize;
    }

    /**
     * True when the worker found the record at {@code offset} of {@code partition} valid, with
     * exactly this {@code value} array: the caller may skip validating it. Called by the stream
     * thread for every record, in offset order per partition.
     */
    public boolean takeValid(int partition, long offset, byte[] value) {
      if (this == NONE) {
        return false;
      }
      return lane(partition).takeValid(offset, value);
    }

    Lane lane(int partition) {
      Lane[] current = lanes;
      Lane lane = partition < current.length ? current[partition] : null;
      return lane != null ? lane : create(partition);
    }

    /** Empties the lane of {@code partition}, if it has one. */
    void forget(int partition) {
      Lane[] current = lanes;
      if (partition < current.length && current[partition] != null) {
        current[partition].clear();
      }
    }

    /** Records taken from this topic's lanes. */
    long taken() {
      long taken = 0;
      for (Lane lane : lanes) {
        taken += lane == null ? 0 : lane.taken();
      }
      return taken;
    }

    private synchronized Lane create(int partition) {
      Lane[] current = lanes;
      if (partition < current.length && current[partition] != null) {
        return current[partition];
      }
      Lane[] grown = Arrays.copyOf(current, Math.max(current.length, partition + 1));
      grown[partition] = new Lane(laneSize);
      lanes = grown;
      return grown[partition];
    }
  }

  /**
   * One partition's verdicts: slot {@code offset mod size} holds the value array found valid at
   * that offset. Written by the worker, read and cleared by the stream thread.
   */
  static final class Lane {
    private final AtomicReferenceArray<byte[]> valid;
    private final int mask;
    private final AtomicLong processed = new AtomicLong(-1);
    // Written by the partition's stream thread (one at a time): a plain add, read opaquely.
    private final AtomicLong taken = new AtomicLong();
    // Written by the stream thread only: how many records until it next publishes its offset.
    private int untilProgress = 1;

    /** A lane of {@code size} slots, a power of two. */
    Lane(int size) {
      if (Integer.bitCount(size) != 1) {
        throw new IllegalArgumentException("lane size must be a power of two, got " + size);
      }
      this.valid = new AtomicReferenceArray<>(size);
      this.mask = size - 1;
    }

    void markValid(long offset, byte[] value) {
      valid.setRelease(slot(offset), value);
    }

    boolean takeValid(long offset, byte[] value) {
      // The offset reached is only a hint for the worker: published every PROGRESS_EVERY records,
      // so that the two threads do not pass its cache line back and forth on every record.
      if (--untilProgress == 0) {
        untilProgress = PROGRESS_EVERY;
        processed.setOpaque(offset);
      }
      if (value == null) {
        return false; // a tombstone (and an empty slot holds null too)
      }
      int slot = slot(offset);
      if (valid.getAcquire(slot) != value) {
        return false;
      }
      // Cleared so that the lane does not keep values alive; a newer verdict overwritten here at
      // worst means one more record validated by the stream thread.
      valid.setRelease(slot, null);
      taken.setOpaque(taken.getPlain() + 1);
      return true;
    }

    long taken() {
      return taken.getOpaque();
    }

    /** Drops every verdict (the count of records taken stays). */
    void clear() {
      for (int slot = 0; slot <= mask; slot++) {
        valid.setRelease(slot, null);
      }
    }

    /** True when {@code value} is marked valid at {@code offset}; for tests. */
    boolean isMarkedValid(long offset, byte[] value) {
      return value != null && valid.getAcquire(slot(offset)) == value;
    }

    /**
     * An offset the stream thread has reached (at most {@link #PROGRESS_EVERY} records behind): the
     * worker skips what lies behind it.
     */
    long processed() {
      return processed.getOpaque();
    }

    private int slot(long offset) {
      return (int) (offset & mask);
    }
  }
}
