package io.sluice.router;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * A producer that answers {@link #partitionsFor} from a per-topic cache and asks the wrapped
 * producer on one in {@value #REFRESH_EVERY} calls for a topic; everything else is passed through.
 *
 * <p>Kafka Streams asks for the output topic's partitions on every record whose sink has a {@code
 * StreamPartitioner} (the router's keeps the input partition), and the producer answers under a
 * lock while updating its metadata bookkeeping: a cost a pass-through topology does not have. Only
 * the partition count is used, to fold input partition p into p mod n when an output topic has
 * fewer partitions than its input; the producer itself still checks every explicit partition
 * against its current metadata when sending. Meant for one stream thread's producer: concurrent
 * callers at worst refresh a little early or late.
 */
final class PartitionCachingProducer implements Producer<byte[], byte[]> {
  static final int REFRESH_EVERY = 256;

  private final Producer<byte[], byte[]> delegate;
  private final Map<String, Cached> partitions = new ConcurrentHashMap<>();
  private String lastTopic;
  private Cached lastCached;

  PartitionCachingProducer(Producer<byte[], byte[]> delegate) {
    this.delegate = delegate;
  }

  private static final class Cached {
    final List<PartitionInfo> partitions;
    int uses;

    Cached(List<PartitionInfo> partitions) {
      this.partitions = partitions;
    }
  }

  @Override
  public List<PartitionInfo> partitionsFor(String topic) {
    // Records come in runs to one output topic (the router names it with the same String).
    Cached cached = topic == lastTopic ? lastCached : partitions.get(topic);
    if (cached != null && ++cached.uses < REFRESH_EVERY) {
      lastTopic = topic;
      lastCached = cached;
      return cached.partitions;
    }
    List<PartitionInfo> fresh = delegate.partitionsFor(topic);
    lastTopic = null;
    lastCached = null;
    if (fresh.isEmpty()) {
      partitions.remove(topic);
    } else {
      partitions.put(topic, new Cached(fresh));
    }
    return fresh;
  }

  @Override
  public void initTransactions() {
    delegate.initTransactions();
  }

  @Override
  public void beginTransaction() {
    delegate.beginTransaction();
  }

  @Override
  public void sendOffsetsToTransaction(
      Map<TopicPartition, OffsetAndMetadata> offsets, ConsumerGroupMetadata groupMetadata) {
    delegate.sendOffsetsToTransaction(offsets, groupMetadata);
  }

  @Override
  public void commitTransaction() {
    delegate.commitTransaction();
  }

  @Override
  public void abortTransaction() {
    delegate.abortTransaction();
  }

  @Override
  public void registerMetricForSubscription(KafkaMetric metric) {
    delegate.registerMetricForSubscription(metric);
  }

  @Override
  public void unregisterMetricFromSubscription(KafkaMetric metric) {
    delegate.unregisterMetricFromSubscription(metric);
  }

  @Override
  public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record) {
    return delegate.send(record);
  }

  @Override
  public Future<RecordMetadata> send(ProducerRecord<byte[], byte[]> record, Callback callback) {
    return delegate.send(record, callback);
  }

  @Override
  public void flush() {
    delegate.flush();
  }

  @Override
  public Map<MetricName, ? extends Metric> metrics() {
    return delegate.metrics();
  }

  @Override
  public Uuid clientInstanceId(Duration timeout) {
    return delegate.clientInstanceId(timeout);
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  public void close(Duration timeout) {
    delegate.close(timeout);
  }
}
