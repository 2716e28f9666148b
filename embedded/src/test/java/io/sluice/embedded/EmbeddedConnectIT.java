package io.sluice.embedded;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.sluice.embedded.ConnectRestClient.ConnectRestException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedConnectIT {
  @TempDir Path dir;

  @Test
  void classpathSinkReceivesRecordsAndConnectorsSurviveAWorkerRestart() throws Exception {
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"))) {
      try (Admin admin =
          Admin.create(
              Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
        admin.createTopics(List.of(new NewTopic("in", 1, (short) 1))).all().get();
      }
      Map<String, String> config =
          Map.of(
              "connector.class", RecordingSinkConnector.class.getName(),
              "topics", "in",
              "tasks.max", "1",
              "key.converter", "org.apache.kafka.connect.storage.StringConverter",
              "value.converter", "org.apache.kafka.connect.storage.StringConverter");
      int port;
      try (EmbeddedConnect connect = EmbeddedConnect.start(kafka.bootstrapServers(), "it", 0)) {
        port = Integer.parseInt(connect.url().substring(connect.url().lastIndexOf(':') + 1));
        ConnectRestClient client = connect.client();
        assertThat(client.connectors()).isEmpty();
        client.putConnector("rec", config);
        client.awaitRunning("rec", Duration.ofSeconds(30));
        produce(kafka.bootstrapServers(), "one");
        await("first value reaches the sink")
            .atMost(Duration.ofSeconds(30))
            .until(() -> RecordingSinkConnector.VALUES.contains("one"));

        assertThatThrownBy(() -> client.status("missing"))
            .isInstanceOf(ConnectRestException.class)
            .hasMessageContaining("404");
      }
      try (EmbeddedConnect connect = EmbeddedConnect.start(kafka.bootstrapServers(), "it", port)) {
        assertThat(connect.url()).isEqualTo("http://127.0.0.1:" + port);
        assertThat(connect.client().connectors()).containsExactly("rec");
        connect.client().awaitRunning("rec", Duration.ofSeconds(30));
        produce(kafka.bootstrapServers(), "two");
        await("value after the restart reaches the sink")
            .atMost(Duration.ofSeconds(30))
            .until(() -> RecordingSinkConnector.VALUES.contains("two"));
        assertThat(RecordingSinkConnector.VALUES).containsOnlyOnce("one");
      }
    }
  }

  private static void produce(String bootstrap, String value) throws Exception {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap),
            new StringSerializer(),
            new StringSerializer())) {
      producer.send(new ProducerRecord<>("in", "k", value)).get();
    }
  }
}
