package io.sluice.router.prevalidate;

import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.streams.KafkaClientSupplier;

/**
 * The clients Kafka Streams would create by default, except that main consumers hand their polls to
 * the {@link Prevalidator} ({@link PrevalidatingConsumer}). Kafka Streams asks for a main consumer
 * here only with the classic group protocol; with {@code group.protocol=streams} it builds its own,
 * and the stream threads validate every record themselves.
 */
public final class PrevalidatingClientSupplier implements KafkaClientSupplier {
  private final Prevalidator prevalidator;

  /** Clients whose main consumers hand their polls to {@code prevalidator}, unless disabled. */
  public PrevalidatingClientSupplier(Prevalidator prevalidator) {
    this.prevalidator = prevalidator;
  }

  @Override
  public Admin getAdmin(Map<String, Object> config) {
    return Admin.create(config);
  }

  @Override
  public Producer<byte[], byte[]> getProducer(Map<String, Object> config) {
    return new KafkaProducer<>(config, new ByteArraySerializer(), new ByteArraySerializer());
  }

  @Override
  public Consumer<byte[], byte[]> getConsumer(Map<String, Object> config) {
    // With validation ahead off, nothing to hand over: the consumer as Kafka Streams would build
    // it.
    return prevalidator.active()
        ? new PrevalidatingConsumer(consumer(config), prevalidator)
        : consumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getRestoreConsumer(Map<String, Object> config) {
    return consumer(config);
  }

  @Override
  public Consumer<byte[], byte[]> getGlobalConsumer(Map<String, Object> config) {
    return consumer(config);
  }

  private static Consumer<byte[], byte[]> consumer(Map<String, Object> config) {
    return new KafkaConsumer<>(config, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }
}
