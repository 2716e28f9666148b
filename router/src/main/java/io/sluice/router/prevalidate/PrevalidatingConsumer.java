package io.sluice.router.prevalidate;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerGroupMetadata;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.clients.consumer.OffsetCommitCallback;
import org.apache.kafka.clients.consumer.SubscriptionPattern;
import org.apache.kafka.common.Metric;
import org.apache.kafka.common.MetricName;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.metrics.KafkaMetric;

/**
 * A stream thread's main consumer that hands every poll to the {@link Prevalidator} before
 * returning it, and has it forget the verdicts of partitions this consumer gives up (so they do not
 * keep values alive); everything else is passed through.
 *
 * <p>Built only when validation ahead is on ({@code validate.ahead=true}, or {@code auto} with
 * enough processors): with the default, {@code false}, {@link PrevalidatingClientSupplier} hands
 * Kafka Streams the plain {@code KafkaConsumer} and this class is never instantiated.
 */
final class PrevalidatingConsumer implements Consumer<byte[], byte[]> {
  private static final ConsumerRebalanceListener NO_CALLBACK =
      new ConsumerRebalanceListener() {
        @Override
        public void onPartitionsRevoked(Collection<TopicPartition> partitions) {}

        @Override
        public void onPartitionsAssigned(Collection<TopicPartition> partitions) {}
      };

  private final Consumer<byte[], byte[]> delegate;
  private final Prevalidator prevalidator;

  PrevalidatingConsumer(Consumer<byte[], byte[]> delegate, Prevalidator prevalidator) {
    this.delegate = delegate;
    this.prevalidator = prevalidator;
  }

  @Override
  public ConsumerRecords<byte[], byte[]> poll(Duration timeout) {
    ConsumerRecords<byte[], byte[]> records = delegate.poll(timeout);
    prevalidator.submit(records);
    return records;
  }

  /** {@code callback}, after the prevalidator forgot the partitions revoked or lost. */
  private ConsumerRebalanceListener forgetting(ConsumerRebalanceListener callback) {
    return new ConsumerRebalanceListener() {
      @Override
      public void onPartitionsRevoked(Collection<TopicPartition> partitions) {
        prevalidator.forget(partitions);
        callback.onPartitionsRevoked(partitions);
      }

      @Override
      public void onPartitionsAssigned(Collection<TopicPartition> partitions) {
        callback.onPartitionsAssigned(partitions);
      }

      @Override
      public void onPartitionsLost(Collection<TopicPartition> partitions) {
        prevalidator.forget(partitions);
        callback.onPartitionsLost(partitions);
      }
    };
  }

  @Override
  public Set<TopicPartition> assignment() {
    return delegate.assignment();
  }

  @Override
  public Set<String> subscription() {
    return delegate.subscription();
  }

  @Override
  public void subscribe(Collection<String> topics) {
    delegate.subscribe(topics, forgetting(NO_CALLBACK));
  }

  @Override
  public void subscribe(Collection<String> topics, ConsumerRebalanceListener callback) {
    delegate.subscribe(topics, forgetting(callback));
  }

  @Override
  public void assign(Collection<TopicPartition> partitions) {
    delegate.assign(partitions);
  }

  @Override
  public void subscribe(Pattern pattern, ConsumerRebalanceListener callback) {
    delegate.subscribe(pattern, forgetting(callback));
  }

  @Override
  public void subscribe(Pattern pattern) {
    delegate.subscribe(pattern, forgetting(NO_CALLBACK));
  }

  @Override
  public void subscribe(SubscriptionPattern pattern, ConsumerRebalanceListener callback) {
    delegate.subscribe(pattern, forgetting(callback));
  }

  @Override
  public void subscribe(SubscriptionPattern pattern) {
    delegate.subscribe(pattern, forgetting(NO_CALLBACK));
  }

  @Override
  public void unsubscribe() {
    delegate.unsubscribe();
  }

  @Override
  public void commitSync() {
    delegate.commitSync();
  }

  @Override
  public void commitSync(Duration timeout) {
    delegate.commitSync(timeout);
  }

  @Override
  public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets) {
    delegate.commitSync(offsets);
  }

  @Override
  public void commitSync(Map<TopicPartition, OffsetAndMetadata> offsets, Duration timeout) {
    delegate.commitSync(offsets, timeout);
  }

  @Override
  public void commitAsync() {
    delegate.commitAsync();
  }

  @Override
  public void commitAsync(OffsetCommitCallback callback) {
    delegate.commitAsync(callback);
  }

  @Override
  public void commitAsync(
      Map<TopicPartition, OffsetAndMetadata> offsets, OffsetCommitCallback callback) {
    delegate.commitAsync(offsets, callback);
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
  public void seek(TopicPartition partition, long offset) {
    delegate.seek(partition, offset);
  }

  @Override
  public void seek(TopicPartition partition, OffsetAndMetadata offsetAndMetadata) {
    delegate.seek(partition, offsetAndMetadata);
  }

  @Override
  public void seekToBeginning(Collection<TopicPartition> partitions) {
    delegate.seekToBeginning(partitions);
  }

  @Override
  public void seekToEnd(Collection<TopicPartition> partitions) {
    delegate.seekToEnd(partitions);
  }

  @Override
  public long position(TopicPartition partition) {
    return delegate.position(partition);
  }

  @Override
  public long position(TopicPartition partition, Duration timeout) {
    return delegate.position(partition, timeout);
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> committed(Set<TopicPartition> partitions) {
    return delegate.committed(partitions);
  }

  @Override
  public Map<TopicPartition, OffsetAndMetadata> committed(
      Set<TopicPartition> partitions, Duration timeout) {
    return delegate.committed(partitions, timeout);
  }

  @Override
  public Uuid clientInstanceId(Duration timeout) {
    return delegate.clientInstanceId(timeout);
  }

  @Override
  public Map<MetricName, ? extends Metric> metrics() {
    return delegate.metrics();
  }

  @Override
  public List<PartitionInfo> partitionsFor(String topic) {
    return delegate.partitionsFor(topic);
  }

  @Override
  public List<PartitionInfo> partitionsFor(String topic, Duration timeout) {
    return delegate.partitionsFor(topic, timeout);
  }

  @Override
  public Map<String, List<PartitionInfo>> listTopics() {
    return delegate.listTopics();
  }

  @Override
  public Map<String, List<PartitionInfo>> listTopics(Duration timeout) {
    return delegate.listTopics(timeout);
  }

  @Override
  public Set<TopicPartition> paused() {
    return delegate.paused();
  }

  @Override
  public void pause(Collection<TopicPartition> partitions) {
    delegate.pause(partitions);
  }

  @Override
  public void resume(Collection<TopicPartition> partitions) {
    delegate.resume(partitions);
  }

  @Override
  public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(
      Map<TopicPartition, Long> timestampsToSearch) {
    return delegate.offsetsForTimes(timestampsToSearch);
  }

  @Override
  public Map<TopicPartition, OffsetAndTimestamp> offsetsForTimes(
      Map<TopicPartition, Long> timestampsToSearch, Duration timeout) {
    return delegate.offsetsForTimes(timestampsToSearch, timeout);
  }

  @Override
  public Map<TopicPartition, Long> beginningOffsets(Collection<TopicPartition> partitions) {
    return delegate.beginningOffsets(partitions);
  }

  @Override
  public Map<TopicPartition, Long> beginningOffsets(
      Collection<TopicPartition> partitions, Duration timeout) {
    return delegate.beginningOffsets(partitions, timeout);
  }

  @Override
  public Map<TopicPartition, Long> endOffsets(Collection<TopicPartition> partitions) {
    return delegate.endOffsets(partitions);
  }

  @Override
  public Map<TopicPartition, Long> endOffsets(
      Collection<TopicPartition> partitions, Duration timeout) {
    return delegate.endOffsets(partitions, timeout);
  }

  @Override
  public OptionalLong currentLag(TopicPartition topicPartition) {
    return delegate.currentLag(topicPartition);
  }

  @Override
  public ConsumerGroupMetadata groupMetadata() {
    return delegate.groupMetadata();
  }

  @Override
  public void enforceRebalance() {
    delegate.enforceRebalance();
  }

  @Override
  public void enforceRebalance(String reason) {
    delegate.enforceRebalance(reason);
  }

  @Override
  public void close() {
    delegate.close();
  }

  @Override
  @SuppressWarnings("deprecation")
  public void close(Duration timeout) {
    delegate.close(timeout);
  }

  @Override
  public void close(CloseOptions option) {
    delegate.close(option);
  }

  @Override
  public void wakeup() {
    delegate.wakeup();
  }
}
