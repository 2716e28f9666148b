package io.sluice.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedKafkaIT {

  @TempDir Path dir;

  @Test
  void transactionalWriteSurvivesRestartWithSameLogDir() throws Exception {
    int port;
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
      port = kafka.port();
      try (Admin admin = admin(kafka.bootstrapServers())) {
        admin.createTopics(List.of(new NewTopic("t", 3, (short) 1))).all().get();
      }
      try (KafkaProducer<String, String> producer =
          new KafkaProducer<>(
              Map.of(
                  ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                  kafka.bootstrapServers(),
                  ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                  "tx-1"),
              new StringSerializer(),
              new StringSerializer())) {
        producer.initTransactions();
        producer.beginTransaction();
        producer.send(new ProducerRecord<>("t", 1, "k", "v"));
        producer.commitTransaction();
      }
    }
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), port, 0)) {
      try (Admin admin = admin(kafka.bootstrapServers())) {
        assertThat(admin.listTopics().names().get()).contains("t");
      }
      try (KafkaConsumer<String, String> consumer =
          new KafkaConsumer<>(
              Map.of(
                  ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                  ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                  ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest",
                  ConsumerConfig.GROUP_ID_CONFIG, "g"),
              new StringDeserializer(),
              new StringDeserializer())) {
        consumer.subscribe(Set.of("t"));
        ConsumerRecords<String, String> records = ConsumerRecords.empty();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (records.isEmpty() && System.nanoTime() < deadline) {
          records = consumer.poll(Duration.ofMillis(500));
        }
        assertThat(records.count()).isEqualTo(1);
        assertThat(records.iterator().next().partition()).isEqualTo(1);
      }
    }
  }

  private static Admin admin(String bootstrap) {
    return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap));
  }
}
