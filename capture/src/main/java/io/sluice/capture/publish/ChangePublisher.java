package io.sluice.capture.publish;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.connect.source.SourceRecord;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Publishes each Debezium batch to Kafka as Confluent-wire Avro and marks the batch processed only
 * after the broker acknowledged every record: a crash may repeat events, never lose one.
 */
public final class ChangePublisher
    implements DebeziumEngine.ChangeConsumer<ChangeEvent<SourceRecord, SourceRecord>> {
  private static final Logger log = LoggerFactory.getLogger(ChangePublisher.class);

  /**
   * Called before a batch is published (blocks while paused) and after each acknowledged record.
   */
  public interface Listener {
    void beforeBatch() throws InterruptedException;

    void published(SourceRecord record, RecordMetadata metadata);
  }

  private final Producer<byte[], byte[]> producer;
  private final ChangeEncoder encoder;
  private final TopicEnsurer topics;
  private final Listener listener;

  public ChangePublisher(
      Producer<byte[], byte[]> producer,
      ChangeEncoder encoder,
      TopicEnsurer topics,
      Listener listener) {
    this.producer = producer;
    this.encoder = encoder;
    this.topics = topics;
    this.listener = listener;
  }

  @Override
  public void handleBatch(
      List<ChangeEvent<SourceRecord, SourceRecord>> events,
      DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> committer)
      throws InterruptedException {
    listener.beforeBatch();
    List<Future<RecordMetadata>> acks = new ArrayList<>(events.size());
    for (ChangeEvent<SourceRecord, SourceRecord> event : events) {
      SourceRecord record = event.value();
      topics.ensure(record.topic());
      EncodedChange change = encoder.encode(record);
      acks.add(
          producer.send(
              new ProducerRecord<>(
                  record.topic(), null, record.timestamp(), change.key(), change.value())));
    }
    for (int i = 0; i < events.size(); i++) {
      SourceRecord record = events.get(i).value();
      RecordMetadata metadata;
      try {
        metadata = acks.get(i).get();
      } catch (ExecutionException e) {
        // The engine stops; offsets of this batch stay uncommitted, so a restart re-reads it.
        throw new PublishException(
            record.topic(),
            "Kafka did not acknowledge the change for "
                + record.topic()
                + " at source position "
                + record.sourceOffset()
                + "; capture stops without committing this batch",
            e.getCause());
      }
      listener.published(record, metadata);
      committer.markProcessed(events.get(i));
    }
    committer.markBatchFinished();
    log.debug("published {} change events", events.size());
  }

  @Override
  public boolean supportsTombstoneEvents() {
    return true;
  }
}
