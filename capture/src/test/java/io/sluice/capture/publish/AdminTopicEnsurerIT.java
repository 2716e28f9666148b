package io.sluice.capture.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.sluice.embedded.EmbeddedKafka;
import io.sluice.embedded.TopicReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * A topic the ensurer returns must take an idempotent producer's first sends at once. Before the
 * ensurer waited for leaders, the first request could meet a partition the broker had announced but
 * not yet opened (NOT_LEADER_OR_FOLLOWER); with five requests in flight a later batch then landed
 * first and sequence 0 retried as OutOfOrderSequence until it expired (KAFKA-15591).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class AdminTopicEnsurerIT {
  private static final int TOPICS = 30;
  private static final int PARTITIONS = 3;
  private static final int RECORDS_PER_TOPIC = 60;

  private final Path dir = Path.of("target", "it-ensurer-" + UUID.randomUUID()).toAbsolutePath();
  private EmbeddedKafka kafka;
  private Admin admin;
  private KafkaProducer<byte[], byte[]> producer;

  @BeforeAll
  void start() {
    kafka = EmbeddedKafka.start(dir.resolve("kafka"));
    admin =
        Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
    producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                kafka.bootstrapServers(),
                ProducerConfig.ACKS_CONFIG,
                "all",
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                true,
                ProducerConfig.MAX_IN_FLIGHT_REQUESTS_PER_CONNECTION,
                5,
                // One record per batch, sent at once: as many requests in flight as allowed.
                ProducerConfig.LINGER_MS_CONFIG,
                0,
                ProducerConfig.BATCH_SIZE_CONFIG,
                1,
                // A stuck sequence expires in 10 s instead of the default 120 s.
                ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG,
                5_000,
                ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG,
                10_000),
            new ByteArraySerializer(),
            new ByteArraySerializer());
  }

  @AfterAll
  void stop() throws IOException {
    producer.close(Duration.ofSeconds(5));
    admin.close(Duration.ofSeconds(5));
    kafka.close();
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    }
  }

  @Test
  void everyRecordSentRightAfterEnsuringANewTopicIsAcknowledgedAndReadable() {
    TopicEnsurer ensurer = new AdminTopicEnsurer(admin, PARTITIONS, producer::partitionsFor);
    Map<String, List<Future<RecordMetadata>>> sent = new LinkedHashMap<>();
    for (int t = 0; t < TOPICS; t++) {
      String topic = "ensured-" + t;
      ensurer.ensure(topic);
      sent.put(topic, sendAtOnce(topic));
    }
    assertEveryRecordAcknowledgedAndReadable(sent);
  }

  @Test
  void aTopicCreatedElsewhereAMomentAgoIsWaitedForLikeANewOne() throws Exception {
    TopicEnsurer ensurer = new AdminTopicEnsurer(admin, PARTITIONS, producer::partitionsFor);
    Map<String, List<Future<RecordMetadata>>> sent = new LinkedHashMap<>();
    for (int t = 0; t < 10; t++) {
      String topic = "created-elsewhere-" + t;
      admin.createTopics(List.of(new NewTopic(topic, 2, (short) 1))).all().get();
      ensurer.ensure(topic);
      sent.put(topic, sendAtOnce(topic));
    }
    assertEveryRecordAcknowledgedAndReadable(sent);
  }

  @Test
  void aTopicTheBrokerRefusesFailsAtOnceNamingIt() {
    TopicEnsurer ensurer = new AdminTopicEnsurer(admin, PARTITIONS, producer::partitionsFor);

    assertThatThrownBy(() -> ensurer.ensure("no spaces allowed"))
        .isInstanceOf(PublishException.class)
        .hasMessageStartingWith("cannot create change topic no spaces allowed: ")
        .hasMessageContaining("InvalidTopicException");
  }

  private List<Future<RecordMetadata>> sendAtOnce(String topic) {
    List<Future<RecordMetadata>> acks = new ArrayList<>();
    for (int i = 0; i < RECORDS_PER_TOPIC; i++) {
      byte[] key = ("key-" + i).getBytes(StandardCharsets.UTF_8);
      acks.add(producer.send(new ProducerRecord<>(topic, key, key)));
    }
    return acks;
  }

  private void assertEveryRecordAcknowledgedAndReadable(
      Map<String, List<Future<RecordMetadata>>> sent) {
    List<String> unacknowledged = new ArrayList<>();
    sent.forEach(
        (topic, acks) -> {
          for (int i = 0; i < acks.size(); i++) {
            try {
              acks.get(i).get(30, TimeUnit.SECONDS);
            } catch (ExecutionException e) {
              unacknowledged.add(topic + " record " + i + ": " + e.getCause());
            } catch (Exception e) {
              unacknowledged.add(topic + " record " + i + ": " + e);
            }
          }
        });
    assertThat(unacknowledged).as("records the broker did not acknowledge").isEmpty();
    for (String topic : sent.keySet()) {
      assertThat(TopicReader.readCommitted(kafka.bootstrapServers(), topic))
          .as("records readable on %s", topic)
          .hasSize(RECORDS_PER_TOPIC);
    }
  }
}
