package io.sluice.router;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class PartitionCachingProducerTest {
  private static final Node BROKER = new Node(1, "localhost", 9092);

  /** A mock producer whose partition counts can change and that counts the questions. */
  private static final class CountingProducer extends MockProducer<byte[], byte[]> {
    final Map<String, Integer> partitionCounts = new HashMap<>();
    int asked;

    CountingProducer() {
      super(true, null, new ByteArraySerializer(), new ByteArraySerializer());
    }

    @Override
    public List<PartitionInfo> partitionsFor(String topic) {
      asked++;
      List<PartitionInfo> partitions = new ArrayList<>();
      for (int p = 0; p < partitionCounts.getOrDefault(topic, 0); p++) {
        partitions.add(new PartitionInfo(topic, p, BROKER, new Node[0], new Node[0]));
      }
      return partitions;
    }
  }

  private final CountingProducer delegate = new CountingProducer();
  private final PartitionCachingProducer producer = new PartitionCachingProducer(delegate);

  @Test
  void asksTheProducerOnceEveryRefreshInterval() {
    delegate.partitionCounts.put("t.clean", 3);

    for (int i = 0; i < 2 * PartitionCachingProducer.REFRESH_EVERY; i++) {
      assertThat(producer.partitionsFor("t.clean")).hasSize(3);
    }

    assertThat(delegate.asked).isEqualTo(2);
  }

  @Test
  void keepsEachTopicsCountWhenTopicsAlternate() {
    delegate.partitionCounts.put("t.clean", 3);
    delegate.partitionCounts.put("t.dlq", 1);

    for (int i = 0; i < PartitionCachingProducer.REFRESH_EVERY - 1; i++) {
      assertThat(producer.partitionsFor("t.clean")).hasSize(3);
      assertThat(producer.partitionsFor("t.dlq")).hasSize(1);
      // The same name in another String: found by equality, not only identity.
      assertThat(producer.partitionsFor(new String("t.clean"))).hasSize(3);
    }

    assertThat(delegate.asked).isEqualTo(3);
  }

  @Test
  void seesAddedPartitionsWithinOneRefreshInterval() {
    delegate.partitionCounts.put("t.clean", 2);
    producer.partitionsFor("t.clean");
    delegate.partitionCounts.put("t.clean", 4);

    int calls = 0;
    while (producer.partitionsFor("t.clean").size() != 4) {
      calls++;
    }

    assertThat(calls).isLessThan(PartitionCachingProducer.REFRESH_EVERY);
  }

  @Test
  void doesNotCacheATopicWithoutPartitions() {
    assertThat(producer.partitionsFor("unknown")).isEmpty();
    delegate.partitionCounts.put("unknown", 1);

    assertThat(producer.partitionsFor("unknown")).hasSize(1);
    assertThat(delegate.asked).isEqualTo(2);
  }

  @Test
  void sendsThroughTheWrappedProducer() {
    byte[] value = {0, 0, 0, 0, 1, 7};
    producer.send(new ProducerRecord<>("t.clean", 1, new byte[] {9}, value));

    assertThat(delegate.history())
        .singleElement()
        .satisfies(
            sent -> {
              assertThat(sent.partition()).isEqualTo(1);
              assertThat(sent.value()).isSameAs(value);
            });
  }
}
