package io.sluice.connect.upsert.quarantine;

import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** Makes the quarantine's Kafka clients; unit tests hand in mock clients instead. */
public interface QuarantineClients {
  Producer<byte[], byte[]> producer(Map<String, Object> config);

  Consumer<byte[], byte[]> consumer(Map<String, Object> config);

  /** Real clients. */
  QuarantineClients KAFKA =
      new QuarantineClients() {
        @Override
        public Producer<byte[], byte[]> producer(Map<String, Object> config) {
          return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
        }

        @Override
        public Consumer<byte[], byte[]> consumer(Map<String, Object> config) {
          return new KafkaConsumer<>(
              config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
        }
      };
}
