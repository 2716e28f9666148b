package io.sluice.connect.upsert.sim;

import io.sluice.connect.upsert.quarantine.QuarantineClients;
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
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The simulation's Kafka: every partition a log of byte records, for the quarantine's clients (it
 * reads input records back by their coordinates, writes DLQ records and reads them again on open).
 * Topics that have no log yet (DLQ topics before their first record) have one partition.
 */
final class SimKafka implements QuarantineClients {
  private final Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> logs =
      new LinkedHashMap<>();
  private final Map<String, Integer> partitions = new HashMap<>();
  private final java.util.function.LongSupplier wallClock;

  SimKafka(java.util.function.LongSupplier wallClock) {
    this.wallClock = wallClock;
  }

  /** Creates {@code topic} with {@code count} partitions, or grows it to that many. */
  void topic(String topic, int count) {
    partitions.merge(topic, count, Math::max);
    for (int p = 0; p < count; p++) {
      logs.computeIfAbsent(new TopicPartition(topic, p), k -> new ArrayList<>());
    }
  }

  /** Appends a record; its offset. */
  long append(
      TopicPartition tp, byte[] key, byte[] value, org.apache.kafka.common.header.Headers headers) {
    topic(tp.topic(), tp.partition() + 1);
    List<ConsumerRecord<byte[], byte[]>> log = logs.get(tp);
    long offset = log.size();
    log.add(
        new ConsumerRecord<>(
            tp.topic(),
            tp.partition(),
            offset,
            wallClock.getAsLong(),
            TimestampType.CREATE_TIME,
            key == null ? -1 : key.length,
            value == null ? -1 : value.length,
            key,
            value,
            headers == null
                ? new org.apache.kafka.common.header.internals.RecordHeaders()
                : headers,
            Optional.empty()));
    return offset;
  }

  List<ConsumerRecord<byte[], byte[]>> log(TopicPartition tp) {
    return logs.getOrDefault(tp, List.of());
  }

  long end(TopicPartition tp) {
    return log(tp).size();
  }

  @Override
  public Producer<byte[], byte[]> producer(Map<String, Object> config) {
    return new Writer();
  }

  @Override
  public Consumer<byte[], byte[]> consumer(Map<String, Object> config) {
    return new Reader();
  }

  /** Appends at send: a sent record is in the log (a crash after send() may have delivered it). */
  private final class Writer extends MockProducer<byte[], byte[]> {
    Writer() {
      super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public synchronized Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
      return send(record, null);
    }

    @Override
    public synchronized Future<RecordMetadata> send(
        ProducerRecord<byte[], byte[]> record, Callback callback) {
      TopicPartition tp =
          new TopicPartition(record.topic(), record.partition() == null ? 0 : record.partition());
      long offset = append(tp, record.key(), record.value(), record.headers());
      RecordMetadata metadata = new RecordMetadata(tp, offset, 0, wallClock.getAsLong(), 0, 0);
      if (callback != null) {
        callback.onCompletion(metadata, null);
      }
      return CompletableFuture.completedFuture(metadata);
    }

    @Override
    public synchronized void flush() {}

    @Override
    public synchronized void close(Duration timeout) {}
  }

  private final class Reader extends MockConsumer<byte[], byte[]> {
    private final Map<TopicPartition, Long> positions = new LinkedHashMap<>();

    Reader() {
      super("earliest");
    }

    @Override
    public synchronized void assign(Collection<TopicPartition> tps) {
      positions.keySet().retainAll(tps);
      tps.forEach(tp -> positions.putIfAbsent(tp, 0L));
    }

    @Override
    public synchronized void seek(TopicPartition tp, long offset) {
      positions.put(tp, offset);
    }

    @Override
    public synchronized void seek(TopicPartition tp, OffsetAndMetadata offset) {
      positions.put(tp, offset.offset());
    }

    @Override
    public synchronized void seekToBeginning(Collection<TopicPartition> tps) {
      tps.forEach(tp -> positions.put(tp, 0L));
    }

    @Override
    public synchronized long position(TopicPartition tp, Duration timeout) {
      return positions.get(tp);
    }

    @Override
    public synchronized long position(TopicPartition tp) {
      return positions.get(tp);
    }

    @Override
    public synchronized Map<TopicPartition, Long> endOffsets(
        Collection<TopicPartition> tps, Duration timeout) {
      Map<TopicPartition, Long> ends = new HashMap<>();
      tps.forEach(tp -> ends.put(tp, end(tp)));
      return ends;
    }

    @Override
    public synchronized List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
      Integer count = partitions.get(topic);
      List<PartitionInfo> infos = new ArrayList<>();
      for (int p = 0; count != null && p < count; p++) {
        infos.add(new PartitionInfo(topic, p, Node.noNode(), new Node[0], new Node[0]));
      }
      return infos;
    }

    @Override
    public synchronized ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
      Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> fetched = new HashMap<>();
      positions.replaceAll(
          (tp, position) -> {
            List<ConsumerRecord<byte[], byte[]>> log = log(tp);
            int to = (int) Math.min(log.size(), position + 100);
            if (position < to) {
              fetched.put(tp, new ArrayList<>(log.subList(position.intValue(), to)));
            }
            return Math.max(position, to);
          });
      return new ConsumerRecords<>(fetched, Map.of());
    }

    @Override
    public synchronized void close(Duration timeout) {}

    @Override
    public synchronized void close() {}
  }
}
