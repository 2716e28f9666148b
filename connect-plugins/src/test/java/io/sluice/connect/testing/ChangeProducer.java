package io.sluice.connect.testing;

import io.sluice.schema.Subjects;
import io.sluice.schema.connect.ConnectAvroCodec;
import io.sluice.schema.registry.HttpSchemaRegistryClient;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.data.Struct;

/** Produces Connect keys and values as Confluent-wire Avro, as the capture module does. */
public final class ChangeProducer implements AutoCloseable {
  private final KafkaProducer<byte[], byte[]> producer;
  private final ConnectAvroCodec codec;

  public ChangeProducer(String bootstrap, String registryUrl) {
    producer =
        new KafkaProducer<>(
            Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                ProducerConfig.ACKS_CONFIG,
                "all"),
            new ByteArraySerializer(),
            new ByteArraySerializer());
    codec = new ConnectAvroCodec(HttpSchemaRegistryClient.create(registryUrl));
  }

  /**
   * Sends {@code value} (null: a tombstone) keyed by {@code key} (null: no key, as Debezium sends
   * the records of a table without a primary key) and waits for the ack.
   */
  public RecordMetadata send(String topic, Struct key, Struct value) {
    byte[] keyBytes = key == null ? null : codec.encode(Subjects.key(topic), key.schema(), key);
    byte[] valueBytes =
        value == null ? null : codec.encode(Subjects.value(topic), value.schema(), value);
    try {
      return producer.send(new ProducerRecord<>(topic, keyBytes, valueBytes)).get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } catch (ExecutionException e) {
      throw new IllegalStateException("send to " + topic + " failed", e.getCause());
    }
  }

  @Override
  public void close() {
    producer.close();
  }
}
