package io.sluice.bench.sink;

import io.sluice.stack.workload.OrdersAvro;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * Produces {@link ChangeStream.Change}s to one topic as Debezium envelopes of the orders schemas,
 * noting in a {@link SendLog} when each was handed to the producer.
 */
public final class ChangeProducer {
  private final KafkaProducer<byte[], byte[]> producer;
  private final OrdersAvro orders;
  private final String topic;
  private final SendLog sends;

  public ChangeProducer(
      KafkaProducer<byte[], byte[]> producer, OrdersAvro orders, String topic, SendLog sends) {
    this.producer = producer;
    this.orders = orders;
    this.topic = topic;
    this.sends = sends;
  }

  /** When each record sent so far was handed to the producer. */
  public SendLog sends() {
    return sends;
  }

  /**
   * Sends {@code count} changes from {@code changes}, each when {@code pacing} lets it, then
   * flushes.
   *
   * @throws IllegalStateException when a send failed
   */
  public void produce(Supplier<ChangeStream.Change> changes, long count, Pacing pacing) {
    AtomicReference<Exception> failure = new AtomicReference<>();
    for (long i = 0; i < count; i++) {
      for (long wait = pacing.waitNanos(i); wait > 0; wait = pacing.waitNanos(i)) {
        LockSupport.parkNanos(wait);
      }
      ChangeStream.Change change = changes.get();
      byte[] key = orders.key(change.orderId());
      byte[] value =
          orders.value(OrdersAvro.envelope(change.op(), change.before(), change.after()));
      long sentAt = System.currentTimeMillis();
      producer.send(
          new ProducerRecord<>(topic, key, value),
          (metadata, e) -> {
            if (e != null) {
              failure.compareAndSet(null, e);
            } else {
              sends.sent(metadata.partition(), metadata.offset(), sentAt);
            }
          });
    }
    producer.flush();
    if (failure.get() != null) {
      throw new IllegalStateException("producing to " + topic + " failed", failure.get());
    }
  }
}
