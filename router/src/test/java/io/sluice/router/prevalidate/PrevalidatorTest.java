package io.sluice.router.prevalidate;

import static io.sluice.router.testing.Orders.TOPIC;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.sluice.router.testing.Orders;
import io.sluice.router.validate.RecordValidator;
import io.sluice.router.validate.ValidationResult;
import io.sluice.schema.testing.InMemorySchemaRegistryClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRebalanceListener;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.MockConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.streams.StreamsConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class PrevalidatorTest {
  private static final Duration WAIT = Duration.ofSeconds(10);
  private static final String THREAD = "prevalidator-test";

  private InMemorySchemaRegistryClient registry;
  private int valueId;
  private int keyId;
  private RecordValidator validator;
  private Prevalidator prevalidator;

  @BeforeEach
  void setUp() {
    registry = new InMemorySchemaRegistryClient();
    valueId = registry.register(TOPIC + "-value", Orders.ENVELOPE);
    keyId = registry.register(TOPIC + "-key", Orders.KEY);
    validator = new RecordValidator(registry);
    prevalidator = Prevalidator.start(validator, TOPIC::equals, THREAD, 2000);
  }

  /** What a stream thread does on the first record of a schema: resolve it in the registry. */
  private void resolveSchemasOnTheStreamThread() {
    ConsumerRecord<byte[], byte[]> first = valid(TOPIC, 0, 100);
    assertThat(validator.validate(TOPIC, first.key(), first.value()))
        .isEqualTo(ValidationResult.VALID);
  }

  @AfterEach
  void tearDown() {
    prevalidator.close();
  }

  private ConsumerRecord<byte[], byte[]> valid(String topic, int partition, long offset) {
    return new ConsumerRecord<>(
        topic,
        partition,
        offset,
        Orders.wire(keyId, Orders.key((int) offset + 1)),
        Orders.wire(valueId, Orders.create((int) offset + 1)));
  }

  private ConsumerRecord<byte[], byte[]> record(long offset, byte[] value) {
    return new ConsumerRecord<>(
        TOPIC, 0, offset, Orders.wire(keyId, Orders.key((int) offset + 1)), value);
  }

  @SafeVarargs
  private static ConsumerRecords<byte[], byte[]> poll(ConsumerRecord<byte[], byte[]>... records) {
    Map<TopicPartition, List<ConsumerRecord<byte[], byte[]>>> byPartition = new HashMap<>();
    for (ConsumerRecord<byte[], byte[]> r : records) {
      byPartition
          .computeIfAbsent(new TopicPartition(r.topic(), r.partition()), tp -> new ArrayList<>())
          .add(r);
    }
    return new ConsumerRecords<>(byPartition, Map.of());
  }

  private Prevalidator.Lane lane(String topic, int partition) {
    return prevalidator.lanes(topic).lane(partition);
  }

  private void awaitMarked(ConsumerRecord<byte[], byte[]> record) {
    await()
        .atMost(WAIT)
        .until(
            () ->
                lane(record.topic(), record.partition())
                    .isMarkedValid(record.offset(), record.value()));
  }

  @Test
  void aValidRecordIsTakenOnceAndOnlyForTheArrayThatWasChecked() {
    resolveSchemasOnTheStreamThread();
    ConsumerRecord<byte[], byte[]> first = valid(TOPIC, 0, 0);
    ConsumerRecord<byte[], byte[]> json = record(1, "{\"id\":2}".getBytes(StandardCharsets.UTF_8));
    ConsumerRecord<byte[], byte[]> tombstone = record(2, null);
    ConsumerRecord<byte[], byte[]> last = valid(TOPIC, 0, 3);
    prevalidator.submit(poll(first, json, tombstone, last));
    awaitMarked(last);

    Prevalidator.TopicLanes lanes = prevalidator.lanes(TOPIC);
    byte[] equalCopy = Arrays.copyOf(first.value(), first.value().length);
    assertThat(lanes.takeValid(0, 0, equalCopy)).as("equal bytes, other array").isFalse();
    assertThat(lanes.takeValid(0, 0, first.value())).isTrue();
    assertThat(lanes.takeValid(0, 0, first.value())).as("taken already").isFalse();
    assertThat(lanes.takeValid(0, 1, json.value())).as("poison").isFalse();
    assertThat(lanes.takeValid(0, 2, null)).as("tombstone").isFalse();
    assertThat(lanes.takeValid(0, 3, last.value())).isTrue();
    assertThat(lanes.takeValid(1, 3, last.value())).as("other partition").isFalse();
    assertThat(prevalidator.recordsTaken()).isEqualTo(2);
  }

  @Test
  void recordsOfTopicsThatAreNotInputsAreNotChecked() {
    resolveSchemasOnTheStreamThread();
    ConsumerRecord<byte[], byte[]> other = valid("other.topic", 0, 0);
    prevalidator.submit(poll(other));
    ConsumerRecord<byte[], byte[]> input = valid(TOPIC, 0, 0);
    prevalidator.submit(poll(input));
    awaitMarked(input); // polls are handled in order: the first one is done

    assertThat(lane("other.topic", 0).isMarkedValid(0, other.value())).isFalse();
  }

  @Test
  void recordsOfSchemasNotResolvedYetAreLeftToTheStreamThreadWithoutAskingTheRegistry() {
    ConsumerRecord<byte[], byte[]> beforeResolved = valid(TOPIC, 0, 0);
    prevalidator.submit(poll(beforeResolved));
    await().atMost(WAIT).until(() -> prevalidator.pollsDone() == 1);
    int callsBefore = registry.calls();
    resolveSchemasOnTheStreamThread();
    int callsAfterResolving = registry.calls();
    ConsumerRecord<byte[], byte[]> afterResolved = valid(TOPIC, 0, 1);
    prevalidator.submit(poll(afterResolved));
    awaitMarked(afterResolved);

    assertThat(lane(TOPIC, 0).isMarkedValid(0, beforeResolved.value())).isFalse();
    assertThat(callsAfterResolving).isGreaterThan(callsBefore);
    assertThat(registry.calls()).as("calls by the worker").isEqualTo(callsAfterResolving);
  }

  @Test
  void recordsTheStreamThreadHasPassedAreSkipped() {
    resolveSchemasOnTheStreamThread();
    ConsumerRecord<byte[], byte[]> reached = valid(TOPIC, 0, 10);
    // The stream thread validated offset 10 itself; its first record publishes its progress.
    assertThat(prevalidator.lanes(TOPIC).takeValid(0, 10, reached.value())).isFalse();
    ConsumerRecord<byte[], byte[]> behind = valid(TOPIC, 0, 9);
    ConsumerRecord<byte[], byte[]> ahead = valid(TOPIC, 0, 11);
    prevalidator.submit(poll(behind, reached, ahead));
    awaitMarked(ahead);

    assertThat(lane(TOPIC, 0).isMarkedValid(9, behind.value())).isFalse();
    assertThat(lane(TOPIC, 0).isMarkedValid(10, reached.value())).isFalse();
  }

  @Test
  void lanesHoldTheBufferedRecordsAndOnePollOfEveryPartition() {
    assertThat(Prevalidator.laneSize(1000 + 1000)).isEqualTo(2048);
    assertThat(Prevalidator.laneSize(1000 + 500)).isEqualTo(2048);
    assertThat(Prevalidator.laneSize(2048)).isEqualTo(2048);
    assertThat(Prevalidator.laneSize(2049)).isEqualTo(4096);
    assertThat(Prevalidator.laneSize(1000 + 4000)).isEqualTo(8192);
    assertThat(Prevalidator.laneSize(Integer.MAX_VALUE)).isEqualTo(65536);
    assertThat(Prevalidator.laneSize(0)).isEqualTo(2048);
  }

  @Test
  void recordsAheadAreTheStreamThreadsBufferPlusOnePoll() {
    assertThat(recordsAhead(Map.of())).isEqualTo(1000 + 1000);
    assertThat(recordsAhead(Map.of("max.poll.records", "4000"))).isEqualTo(1000 + 4000);
    assertThat(
            recordsAhead(
                Map.of(
                    "main.consumer.max.poll.records", "300",
                    "buffered.records.per.partition", "200")))
        .isEqualTo(200 + 300);
  }

  private static int recordsAhead(Map<String, String> overrides) {
    Map<String, Object> props = new HashMap<>(overrides);
    props.put(StreamsConfig.APPLICATION_ID_CONFIG, "prevalidator-test");
    props.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:9092");
    return Prevalidator.recordsAhead(new StreamsConfig(props), "prevalidator-test");
  }

  @Test
  void aVerdictOutlivesOnePollOfMaxPollRecordsInALargerLane() {
    Prevalidator.Lane lane = new Prevalidator.Lane(Prevalidator.laneSize(1000 + 4000));
    byte[] first = {1};
    byte[] last = {2};
    lane.markValid(5, first);
    lane.markValid(5 + 1000 + 4000, last);

    assertThat(lane.takeValid(5, first)).isTrue();
    assertThat(lane.takeValid(5 + 1000 + 4000, last)).isTrue();
  }

  @Test
  void aSlotIsReusedLaneSizeOffsetsLater() {
    Prevalidator.Lane lane = new Prevalidator.Lane(Prevalidator.MIN_LANE_SIZE);
    byte[] early = {1};
    byte[] late = {1};
    lane.markValid(5, early);
    lane.markValid(5 + Prevalidator.MIN_LANE_SIZE, late);

    assertThat(lane.takeValid(5, early)).isFalse();
    assertThat(lane.takeValid(5 + Prevalidator.MIN_LANE_SIZE, late)).isTrue();
  }

  @Test
  void theMainConsumerHandsEveryPollOver() {
    resolveSchemasOnTheStreamThread();
    TopicPartition partition = new TopicPartition(TOPIC, 2);
    MockConsumer<byte[], byte[]> mock = new MockConsumer<>("earliest");
    mock.assign(List.of(partition));
    mock.updateBeginningOffsets(Map.of(partition, 0L));
    ConsumerRecord<byte[], byte[]> record = valid(TOPIC, 2, 0);
    mock.addRecord(record);
    try (PrevalidatingConsumer consumer = new PrevalidatingConsumer(mock, prevalidator)) {
      ConsumerRecords<byte[], byte[]> polled = consumer.poll(Duration.ZERO);

      assertThat(polled.records(partition)).containsExactly(record);
      awaitMarked(record);
    }
  }

  @Test
  void disabledValidatesNothingAndStartsNoThread() {
    Prevalidator disabled = Prevalidator.disabled();
    ConsumerRecord<byte[], byte[]> record = valid(TOPIC, 0, 0);
    disabled.submit(poll(record));

    assertThat(disabled.lanes(TOPIC).takeValid(0, 0, record.value())).isFalse();
    assertThat(disabled.active()).isFalse();
    assertThat(prevalidator.active()).isTrue();
    disabled.close();
  }

  @Test
  void closeStopsTheWorker() {
    assertThat(threadAlive()).isTrue();
    prevalidator.close();
    assertThat(threadAlive()).isFalse();
    prevalidator.submit(poll(valid(TOPIC, 0, 0))); // ignored, no failure
  }

  private static boolean threadAlive() {
    return Thread.getAllStackTraces().keySet().stream()
        .anyMatch(t -> t.getName().equals(THREAD) && t.isAlive());
  }

  @Test
  void revokedAndLostPartitionsAreForgotten() {
    resolveSchemasOnTheStreamThread();
    TopicPartition revoked = new TopicPartition(TOPIC, 0);
    TopicPartition kept = new TopicPartition(TOPIC, 1);
    TopicPartition lost = new TopicPartition(TOPIC, 2);
    List<ConsumerRebalanceListener> listeners = new ArrayList<>();
    MockConsumer<byte[], byte[]> mock =
        new MockConsumer<>("earliest") {
          @Override
          public synchronized void subscribe(
              java.util.regex.Pattern pattern, ConsumerRebalanceListener listener) {
            listeners.add(listener);
          }
        };
    ConsumerRecord<byte[], byte[]> onRevoked = valid(TOPIC, 0, 0);
    ConsumerRecord<byte[], byte[]> onKept = valid(TOPIC, 1, 0);
    ConsumerRecord<byte[], byte[]> onLost = valid(TOPIC, 2, 0);
    prevalidator.submit(poll(onRevoked, onKept, onLost));
    awaitMarked(onRevoked);
    awaitMarked(onKept);
    awaitMarked(onLost);
    List<String> seenByStreams = new ArrayList<>();
    try (PrevalidatingConsumer consumer = new PrevalidatingConsumer(mock, prevalidator)) {
      consumer.subscribe(
          java.util.regex.Pattern.compile(".*"),
          new ConsumerRebalanceListener() {
            @Override
            public void onPartitionsRevoked(java.util.Collection<TopicPartition> partitions) {
              seenByStreams.add("revoked " + partitions);
            }

            @Override
            public void onPartitionsAssigned(java.util.Collection<TopicPartition> partitions) {}

            @Override
            public void onPartitionsLost(java.util.Collection<TopicPartition> partitions) {
              seenByStreams.add("lost " + partitions);
            }
          });
      listeners.get(0).onPartitionsRevoked(List.of(revoked));
      listeners.get(0).onPartitionsLost(List.of(lost));
    }

    assertThat(seenByStreams).containsExactly("revoked [" + revoked + "]", "lost [" + lost + "]");
    assertThat(lane(TOPIC, 0).isMarkedValid(0, onRevoked.value())).isFalse();
    assertThat(lane(TOPIC, 2).isMarkedValid(0, onLost.value())).isFalse();
    assertThat(lane(TOPIC, 1).isMarkedValid(0, onKept.value())).isTrue();
    assertThat(prevalidator.lanes(TOPIC).takeValid(1, 0, onKept.value())).isTrue();
    assertThat(prevalidator.recordsTaken()).as("counts survive forgetting").isEqualTo(1);
  }
}
