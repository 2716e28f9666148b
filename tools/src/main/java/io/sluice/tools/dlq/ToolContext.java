package io.sluice.tools.dlq;

import io.sluice.schema.registry.HttpSchemaRegistryClient;
import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.tools.dlq.kafka.BrokerClients;
import io.sluice.tools.dlq.kafka.KafkaClients;
import java.time.Clock;

/** What the dlq commands talk to; unit tests give fakes, the CLI the real ones. */
public interface ToolContext {

  /** Kafka clients of the cluster at {@code bootstrapServers}. */
  KafkaClients kafka(String bootstrapServers);

  /** A registry client for {@code url}. */
  SchemaRegistryClient registry(String url);

  /** The clock for ages and ledger timestamps. */
  Clock clock();

  /** The real cluster, registry and clock. */
  ToolContext DEFAULT =
      new ToolContext() {
        @Override
        public KafkaClients kafka(String bootstrapServers) {
          return new BrokerClients(bootstrapServers);
        }

        @Override
        public SchemaRegistryClient registry(String url) {
          return HttpSchemaRegistryClient.create(url);
        }

        @Override
        public Clock clock() {
          return Clock.systemUTC();
        }
      };
}
