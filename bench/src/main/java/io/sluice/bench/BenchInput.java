package io.sluice.bench;

import io.sluice.schema.registry.SchemaRegistryClient;
import io.sluice.stack.workload.OrderRow;
import io.sluice.stack.workload.OrdersAvro;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The router benchmark's input: N orders inserts as Debezium envelopes in the Confluent wire format
 * (schemas registered under the topic's subjects), keyed by the Avro order id, with an evenly
 * spread share of poison (the row as JSON instead of Avro). Deterministic: seed 42.
 */
final class BenchInput {
  private static final int SEED = 42;

  /** What was produced: how many poison records and the size of one valid value. */
  record Produced(long poison, int valueBytes) {}

  private final long records;
  private final int payloadBytes;
  private final double poisonRatio;

  BenchInput(long records, int payloadBytes, double poisonRatio) {
    this.records = records;
    this.payloadBytes = payloadBytes;
    this.poisonRatio = poisonRatio;
  }

  Produced produce(
      String bootstrapServers,
      SchemaRegistryClient registry,
      String topic,
      Consumer<String> progress) {
    OrdersAvro orders = OrdersAvro.register(registry, topic);
    String padding = padding(orders);
    long poison = 0;
    long started = System.nanoTime();
    try (KafkaProducer<byte[], byte[]> producer = producer(bootstrapServers)) {
      for (long i = 0; i < records; i++) {
        OrderRow row = padded(OrderRow.generate(i + 1, SEED), padding);
        byte[] value;
        if (isPoison(i)) {
          value = poisonValue(row);
          poison++;
        } else {
          value = orders.created(row);
        }
        producer.send(new ProducerRecord<>(topic, orders.key(row.orderId()), value));
      }
      producer.flush();
    }
    progress.accept(
        String.format(
            "produced %d records (%d poison) to %s in %.1f s",
            records, poison, topic, (System.nanoTime() - started) / 1e9));
    return new Produced(poison, orders.created(padded(OrderRow.generate(1, SEED), padding)).length);
  }

  /** Poison is spread evenly: record i is poison when it crosses the next multiple of 1/ratio. */
  private boolean isPoison(long i) {
    return Math.floor((i + 1) * poisonRatio) > Math.floor(i * poisonRatio);
  }

  /** A JSON rendering of the row: the typical "someone produced JSON to an Avro topic" poison. */
  private static byte[] poisonValue(OrderRow row) {
    return ("{\"order_id\":"
            + row.orderId()
            + ",\"business_key\":\""
            + row.businessKey()
            + "\",\"status\":\""
            + row.status()
            + "\"}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** What to append to the business key so a value is about {@code payloadBytes} long. */
  private String padding(OrdersAvro orders) {
    int natural = orders.created(OrderRow.generate(1, SEED)).length;
    int missing = payloadBytes - natural;
    return missing > 0 ? "x".repeat(missing) : "";
  }

  private static OrderRow padded(OrderRow row, String padding) {
    if (padding.isEmpty()) {
      return row;
    }
    return new OrderRow(
        row.orderId(),
        row.businessKey() + padding,
        row.customerId(),
        row.amountCents(),
        row.status(),
        row.eventId(),
        row.seed(),
        row.updatedAtMs());
  }

  private static KafkaProducer<byte[], byte[]> producer(String bootstrapServers) {
    Map<String, Object> config =
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            bootstrapServers,
            ProducerConfig.ACKS_CONFIG,
            "all",
            ProducerConfig.LINGER_MS_CONFIG,
            20,
            ProducerConfig.BATCH_SIZE_CONFIG,
            256 * 1024);
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }
}
