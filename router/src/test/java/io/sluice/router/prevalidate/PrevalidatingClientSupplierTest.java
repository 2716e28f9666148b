package io.sluice.router.prevalidate;

import static org.assertj.core.api.Assertions.assertThat;

import io.sluice.router.validate.RecordValidator;
import io.sluice.schema.testing.InMemorySchemaRegistryClient;
import java.util.Map;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.junit.jupiter.api.Test;

class PrevalidatingClientSupplierTest {
  // Building a consumer connects to nothing.
  private static final Map<String, Object> CONFIG =
      Map.of(
          ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
          "127.0.0.1:1",
          ConsumerConfig.GROUP_ID_CONFIG,
          "router-client-supplier-test");

  @Test
  void mainConsumersHandTheirPollsOverOnlyWhenValidatingAhead() {
    try (Consumer<byte[], byte[]> plain =
        new PrevalidatingClientSupplier(Prevalidator.disabled()).getConsumer(CONFIG)) {
      assertThat(plain).isInstanceOf(KafkaConsumer.class);
    }

    try (Prevalidator ahead =
            Prevalidator.start(
                new RecordValidator(new InMemorySchemaRegistryClient()),
                topic -> true,
                "router-client-supplier-test",
                2000);
        Consumer<byte[], byte[]> handing =
            new PrevalidatingClientSupplier(ahead).getConsumer(CONFIG)) {
      assertThat(handing).isInstanceOf(PrevalidatingConsumer.class);
    }
  }
}
