package io.sluice.capture.publish;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.debezium.engine.ChangeEvent;
import io.debezium.engine.DebeziumEngine;
import io.debezium.engine.Header;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.MockProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.NotEnoughReplicasException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.source.SourceRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ChangePublisherTest {
  private final MockProducer<byte[], byte[]> producer =
      new MockProducer<>(false, null, new ByteArraySerializer(), new ByteArraySerializer());
  private final List<String> ensured = new ArrayList<>();
  private final RecordingCommitter committer = new RecordingCommitter();
  private final List<SourceRecord> published = new ArrayList<>();
  private final ExecutorService executor = Executors.newSingleThreadExecutor();

  private final ChangePublisher publisher =
      new ChangePublisher(
          producer,
          record ->
              new EncodedChange(
                  ((String) record.key()).getBytes(),
                  record.value() == null ? null : ((String) record.value()).getBytes()),
          ensured::add,
          new ChangePublisher.Listener() {
            @Override
            public void beforeBatch() {}

            @Override
            public void published(SourceRecord record, RecordMetadata metadata) {
              published.add(record);
            }
          });

  @AfterEach
  void stop() {
    executor.shutdownNow();
  }

  @Test
  void offsetsAreMarkedOnlyAfterTheBrokerAcknowledgedEveryRecord() throws Exception {
    Future<?> batch =
        executor.submit(
            () -> {
              publisher.handleBatch(List.of(event("k1", "v1"), event("k2", null)), committer);
              return null;
            });
    org.awaitility.Awaitility.await("both records sent")
        .until(() -> producer.history().size() == 2);
    assertThat(committer.processed).isEmpty();

    producer.completeNext();
    producer.completeNext();
    batch.get();

    assertThat(committer.processed).hasSize(2);
    assertThat(committer.batchFinished).isTrue();
    assertThat(producer.history().get(1).value()).as("tombstone kept").isNull();
    assertThat(ensured).containsOnly("db.t");
    assertThat(published).hasSize(2);
  }

  @Test
  void aFailedAcknowledgementStopsTheBatchWithoutCommittingIt() {
    Future<?> batch =
        executor.submit(
            () -> {
              publisher.handleBatch(List.of(event("k1", "v1")), committer);
              return null;
            });
    org.awaitility.Awaitility.await("record sent").until(() -> producer.history().size() == 1);
    producer.errorNext(new NotEnoughReplicasException("only 0 in sync"));

    assertThatThrownBy(batch::get)
        .hasCauseInstanceOf(PublishException.class)
        .hasMessageContaining("Kafka did not acknowledge the change for db.t")
        .hasMessageContaining("without committing this batch");
    assertThat(committer.processed).isEmpty();
    assertThat(committer.batchFinished).isFalse();
  }

  private static ChangeEvent<SourceRecord, SourceRecord> event(String key, String value) {
    SourceRecord record =
        new SourceRecord(
            Map.of("server", "db"),
            Map.of("pos", 4L),
            "db.t",
            null,
            Schema.STRING_SCHEMA,
            key,
            Schema.OPTIONAL_STRING_SCHEMA,
            value);
    return new ChangeEvent<>() {
      @Override
      public SourceRecord key() {
        return record;
      }

      @Override
      public SourceRecord value() {
        return record;
      }

      @Override
      public <H> List<Header<H>> headers() {
        return List.of();
      }

      @Override
      public String destination() {
        return record.topic();
      }

      @Override
      public Integer partition() {
        return null;
      }
    };
  }

  private static final class RecordingCommitter
      implements DebeziumEngine.RecordCommitter<ChangeEvent<SourceRecord, SourceRecord>> {
    final List<ChangeEvent<SourceRecord, SourceRecord>> processed = new ArrayList<>();
    volatile boolean batchFinished;

    @Override
    public synchronized void markProcessed(ChangeEvent<SourceRecord, SourceRecord> record) {
      processed.add(record);
    }

    @Override
    public void markBatchFinished() {
      batchFinished = true;
    }

    @Override
    public void markProcessed(
        ChangeEvent<SourceRecord, SourceRecord> record, DebeziumEngine.Offsets offsets) {
      markProcessed(record);
    }

    @Override
    public DebeziumEngine.Offsets buildOffsets() {
      return (key, value) -> {};
    }
  }
}
