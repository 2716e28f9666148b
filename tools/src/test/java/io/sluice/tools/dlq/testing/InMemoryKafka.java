package io.sluice.tools.dlq.testing;

import io.sluice.tools.dlq.kafka.KafkaClients;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Partitioner;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.clients.producer.internals.BuiltInPartitioner;
import org.apache.kafka.common.Cluster;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * {@link KafkaClients} over an in-memory log for unit tests: consumers are {@link MockConsumer}s
 * that read the log, producers are transactional {@link MockProducer}s whose records reach the log
 * only when their transaction commits (as read_committed consumers see it).
 */
public final class InMemoryKafka implements KafkaClients {
  private static final Node NODE = new Node(0, "localhost", 9092);

  private final Map<String, Integer> topics = new LinkedHashMap<>();
  private final Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> log = new HashMap<>();
  private final List<LogProducer> producers = new ArrayList<>();
  private final List<String> compactedTopics = new ArrayList<>();
  private long clockMs = 1_700_000_000_000L;
  private int failSend = -1;

  public void createTopic(String topic, int partitions) {
    topics.putIfAbsent(topic, partitions);
    for (int p = 0; p < partitions; p++) {
      log.putIfAbsent(new TopicPartition(topic, p), new ArrayList<>());
    }
  }

  /** Appends a committed record; returns its offset. */
  public long append(String topic, int partition, byte[] key, byte[] value, Headers headers) {
    return append(topic, partition, clockMs++, key, value, headers);
  }

  /** Appends a committed record with a timestamp; returns its offset. */
  public long append(
      String topic, int partition, long timestampMs, byte[] key, byte[] value, Headers headers) {
    List<ConsumerRecord<byte[], byte[]>> records = partition(topic, partition);
    long offset = records.size();
    records.add(
        new ConsumerRecord<>(
            topic,
            partition,
            offset,
            timestampMs,
            TimestampType.CREATE_TIME,
            key == null ? -1 : key.length,
            value == null ? -1 : value.length,
            key,
            value,
            headers == null ? new RecordHeaders() : headers,
            Optional.empty()));
    return offset;
  }

  /** The committed records of one partition. */
  public List<ConsumerRecord<byte[], byte[]>> records(String topic, int partition) {
    return List.copyOf(partition(topic, partition));
  }

  /** The committed records of every partition of {@code topic}. */
  public List<ConsumerRecord<byte[], byte[]>> records(String topic) {
    List<ConsumerRecord<byte[], byte[]>> all = new ArrayList<>();
    for (int p = 0; p < topics.getOrDefault(topic, 0); p++) {
      all.addAll(partition(topic, p));
    }
    return all;
  }

  /** The next producer handed out fails its send number {@code sendNumber} (0-based). */
  public void failSendOfNextProducer(int sendNumber) {
    failSend = sendNumber;
  }

  public boolean hasTopic(String topic) {
    return topics.containsKey(topic);
  }

  public List<String> compactedTopics() {
    return List.copyOf(compactedTopics);
  }

  /** Every producer handed out, in order. */
  public List<LogProducer> producers() {
    return List.copyOf(producers);
  }

  @Override
  public LogConsumer consumer() {
    return new LogConsumer();
  }

  @Override
  public LogProducer transactionalProducer(String transactionalId) {
    LogProducer producer = new LogProducer(transactionalId);
    producer.failSendNumber = failSend;
    failSend = -1;
    producers.add(producer);
    return producer;
  }

  @Override
  public void ensureCompactedTopic(String topic) {
    if (!topics.containsKey(topic)) {
      createTopic(topic, 1);
      compactedTopics.add(topic);
    }
  }

  private List<ConsumerRecord<byte[], byte[]>> partition(String topic, int partition) {
    List<ConsumerRecord<byte[], byte[]>> records = log.get(new TopicPartition(topic, partition));
    if (records == null) {
      throw new IllegalArgumentException("no partition " + topic + "-" + partition);
    }
    return records;
  }

  private List<PartitionInfo> infos(String topic) {
    List<PartitionInfo> infos = new ArrayList<>();
    for (int p = 0; p < topics.getOrDefault(topic, 0); p++) {
      infos.add(new PartitionInfo(topic, p, NODE, new Node[] {NODE}, new Node[] {NODE}));
    }
    return infos;
  }

  /** A MockConsumer whose positions and records come from the log. */
  public final class LogConsumer extends MockConsumer<byte[], byte[]> {
    private final Map<TopicPartition, Long> positions = new HashMap<>();

    LogConsumer() {
      super("earliest");
    }

    @Override
    public synchronized List<PartitionInfo> partitionsFor(String topic) {
      return infos(topic);
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
      return infos(topic);
    }

    @Override
    public synchronized Map<String, List<PartitionInfo>> listTopics(Duration timeout) {
      Map<String, List<PartitionInfo>> all = new LinkedHashMap<>();
      topics.keySet().forEach(topic -> all.put(topic, infos(topic)));
      return all;
    }

    @Override
    public synchronized void assign(Collection<TopicPartition> partitions) {
      super.assign(partitions);
      positions.keySet().retainAll(partitions);
      partitions.forEach(tp -> positions.putIfAbsent(tp, 0L));
    }

    @Override
    public synchronized void seek(TopicPartition partition, long offset) {
      positions.put(partition, offset);
    }

    @Override
    public synchronized long position(TopicPartition partition) {
      return positions.get(partition);
    }

    @Override
    public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
      Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> batch = new HashMap<>();
      positions.forEach(
          (tp, position) -> {
            List<ConsumerRecord<byte[], byte[]>> records = log.get(tp);
            if (records != null && position < records.size()) {
              batch.put(tp, List.copyOf(records.subList((int) (long) position, records.size())));
              positions.put(tp, (long) records.size());
            }
          });
      return new ConsumerRecords<>(batch, Map.of());
    }

    @Override
    public synchronized Map<TopicPartition, Long> beginningOffsets(
        Collection<TopicPartition> partitions) {
      Map<TopicPartition, Long> offsets = new HashMap<>();
      partitions.forEach(tp -> offsets.put(tp, 0L));
      return offsets;
    }

    @Override
    public Map<TopicPartition, Long> beginningOffsets(
        Collection<TopicPartition> partitions, Duration timeout) {
      return beginningOffsets(partitions);
    }

    @Override
    public synchronized Map<TopicPartition, Long> endOffsets(
        Collection<TopicPartition> partitions) {
      Map<TopicPartition, Long> offsets = new HashMap<>();
      partitions.forEach(tp -> offsets.put(tp, (long) log.getOrDefault(tp, List.of()).size()));
      return offsets;
    }

    @Override
    public Map<TopicPartition, Long> endOffsets(
        Collection<TopicPartition> partitions, Duration timeout) {
      return endOffsets(partitions);
    }

    @Override
    public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(
        Map<TopicPartition, Long> timestamps, Duration timeout) {
      Map<TopicPartition, OffsetAndTimestamp> found = new HashMap<>();
      timestamps.forEach(
          (tp, ts) ->
              log.getOrDefault(tp, List.of()).stream()
                  .filter(r -> r.timestamp() >= ts)
                  .findFirst()
                  .ifPresent(
                      r -> found.put(tp, new OffsetAndTimestamp(r.offset(), r.timestamp()))));
      return found;
    }
  }

  /**
   * A transactional MockProducer: sends are buffered and reach the log on commit, with the offsets
   * the send futures reported; an abort drops them.
   */
  public final class LogProducer extends MockProducer<byte[], byte[]> {
    private final String transactionalId;
    private final List<ProducerRecord<byte[], byte[]>> pending = new ArrayList<>();
    private final Map<TopicPartition, Integer> pendingCount = new HashMap<>();

    /** When set, the send with this index (0-based, over the producer's life) fails. */
    public int failSendNumber = -1;

    private int sends;

    LogProducer(String transactionalId) {
      super(
          cluster(),
          true,
          new KeyPartitioner(),
          new ByteArraySerializer(),
          new ByteArraySerializer());
      this.transactionalId = transactionalId;
    }

    public String transactionalId() {
      return transactionalId;
    }

    @Override
    public synchronized Future<RecordMetadata> send(
        ProducerRecord<byte[], byte[]> record, Callback callback) {
      super.send(record, callback);
      if (sends++ == failSendNumber) {
        return CompletableFuture.failedFuture(
            new org.apache.kafka.common.errors.TimeoutException("injected send failure"));
      }
      int partition =
          record.partition() != null
              ? record.partition()
              : BuiltInPartitioner.partitionForKey(record.key(), topics.get(record.topic()));
      TopicPartition tp = new TopicPartition(record.topic(), partition);
      long offset = partition(record.topic(), partition).size() + pendingCount.getOrDefault(tp, 0);
      pendingCount.merge(tp, 1, Integer::sum);
      pending.add(
          new ProducerRecord<>(
              record.topic(),
              partition,
              record.timestamp(),
              record.key(),
              record.value(),
              record.headers()));
      return CompletableFuture.completedFuture(new RecordMetadata(tp, offset, 0, clockMs, 0, 0));
    }

    @Override
    public void commitTransaction() {
      super.commitTransaction();
      for (ProducerRecord<byte[], byte[]> r : pending) {
        append(r.topic(), r.partition(), clockMs++, r.key(), r.value(), r.headers());
      }
      pending.clear();
      pendingCount.clear();
    }

    @Override
    public void abortTransaction() {
      super.abortTransaction();
      pending.clear();
      pendingCount.clear();
    }
  }

  private Cluster cluster() {
    List<PartitionInfo> all = new ArrayList<>();
    topics.keySet().forEach(t -> all.addAll(infos(t)));
    return new Cluster("in-memory", List.of(NODE), all, java.util.Set.of(), java.util.Set.of());
  }

  /** The producer's default partitioning of keyed records. */
  static final class KeyPartitioner implements Partitioner {
    @Override
    public int partition(
        String topic, Object key, byte[] keyBytes, Object value, byte[] valueBytes, Cluster c) {
      return BuiltInPartitioner.partitionForKey(keyBytes, c.partitionsForTopic(topic).size());
    }

    @Override
    public void close() {}

    @Override
    public void configure(Map<String, ?> configs) {}
  }
}
