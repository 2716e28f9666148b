package io.sluice.connect.upsert.quarantine;

import io.sluice.connect.upsert.error.RecordRejectedException;
import io.sluice.connect.upsert.metrics.SinkMetrics;
import io.sluice.dlq.DlqHeaders;
import io.sluice.dlq.DlqRecordBuilder;
import io.sluice.dlq.Rejection;
import io.sluice.dlq.Sha256;
import io.sluice.schema.wire.WireFormat;
import java.io.Closeable;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.function.Function;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.connect.errors.ConnectException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends the records the sink cannot write to their DLQ topic as envelope v1 records, once per input
 * record (topic, partition, offset) across restarts, lost commit replies and rewinds. A zombie task
 * (one that lost its partitions without knowing) quarantines before its commit is fenced, so it and
 * its successor can both write an input: at least once, and the tools act once per input.
 *
 * <p>The envelope needs the record's original bytes, which the converter turned into Connect data:
 * they are read back from Kafka by their coordinates (rare path, no cost for the records that are
 * written). DLQ records are flushed in {@link #beforeCommit} so offsets never move past a record
 * that is neither in Iceberg nor durable in the DLQ. Each commit records in its snapshot summary
 * ({@link DlqOffsets}) where the DLQ records of inputs it does not cover can start; a task that
 * opens partitions reads the DLQ from there ({@link #open}) and never writes those inputs again.
 *
 * <p>The task's thread rejects records as it reads them while its commit thread rejects others and
 * flushes: every method takes the quarantine's lock.
 */
public final class Quarantine implements Rejections, Closeable {
  private static final Logger log = LoggerFactory.getLogger(Quarantine.class);

  /**
   * @param kafka client settings of the cluster the input and DLQ topics are on
   * @param readTimeout how long reading the DLQ or an input record back may take
   * @param afterFlush told of every {@link Quarantine#beforeCommit} that flushed without failing
   */
  public record Settings(
      String connector,
      int taskId,
      String taskClass,
      DlqTopics topics,
      Function<String, String> tableOf,
      Map<String, Object> kafka,
      Duration readTimeout,
      FlushListener afterFlush) {}

  /**
   * Told at the end of each {@link Quarantine#beforeCommit}, once the DLQ records so far are
   * durable and before the Iceberg commit they guard. Tests crash the task there by throwing.
   */
  @FunctionalInterface
  public interface FlushListener {
    FlushListener NONE = wroteRecords -> {};

    /**
     * @param wroteRecords whether this flush wrote DLQ records
     */
    void flushed(boolean wroteRecords);
  }

  private final Settings settings;
  private final Producer<byte[], byte[]> producer;
  private final Consumer<byte[], byte[]> reader;
  private final DlqRecordBuilder builder;
  private final SinkMetrics metrics;
  private final QuarantinedRecords known = new QuarantinedRecords();
  private final Map<QuarantinedRecords.Input, Sent> inFlight = new LinkedHashMap<>();

  private record Sent(ProducerRecord<byte[], byte[]> record, Future<RecordMetadata> result) {}

  public Quarantine(
      Settings settings, QuarantineClients clients, SinkMetrics metrics, Clock clock) {
    this.settings = settings;
    this.metrics = metrics;
    String clientId = settings.connector() + "-" + settings.taskId() + "-quarantine";
    Map<String, Object> producerConfig = new HashMap<>(settings.kafka());
    producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
    producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
    producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    this.producer = clients.producer(producerConfig);
    Map<String, Object> consumerConfig = new HashMap<>(settings.kafka());
    consumerConfig.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
    consumerConfig.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
    consumerConfig.put(ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 100);
    consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, clientId + "-reader");
    this.reader = clients.consumer(consumerConfig);
    this.builder =
        DlqRecordBuilder.forSink(
            new DlqRecordBuilder.SinkTask(
                settings.connector(), settings.taskId(), settings.taskClass()),
            clock);
  }

  /**
   * Learns which records of {@code inputs} this connector already quarantined: reads their DLQ
   * topics from {@code start} (or their beginning) to the end.
   *
   * @param held the offsets Iceberg holds; DLQ records of inputs below them are not needed
   * @param start per DLQ partition where to start, empty to read every DLQ partition from its
   *     beginning
   */
  public synchronized void open(
      Collection<TopicPartition> inputs,
      Map<TopicPartition, Long> held,
      Optional<Map<TopicPartition, Long>> start) {
    Set<String> dlqTopics = new LinkedHashSet<>();
    inputs.forEach(tp -> dlqTopics.add(settings.topics().of(tp.topic())));
    List<TopicPartition> dlqPartitions = new ArrayList<>();
    for (String topic : dlqTopics) {
      List<PartitionInfo> infos = reader.partitionsFor(topic, settings.readTimeout());
      if (infos != null) {
        infos.forEach(i -> dlqPartitions.add(new TopicPartition(i.topic(), i.partition())));
      }
    }
    if (dlqPartitions.isEmpty()) {
      return;
    }
    reader.assign(dlqPartitions);
    Map<TopicPartition, Long> end = reader.endOffsets(dlqPartitions, settings.readTimeout());
    for (TopicPartition dlq : dlqPartitions) {
      Long from = start.map(s -> s.get(dlq)).orElse(null);
      if (from == null) {
        reader.seekToBeginning(List.of(dlq));
      } else {
        reader.seek(dlq, from);
      }
    }
    Set<TopicPartition> wanted = Set.copyOf(inputs);
    int before = known.size();
    long deadline = System.nanoTime() + settings.readTimeout().toNanos();
    while (!readTo(end)) {
      if (System.nanoTime() > deadline) {
        throw new ConnectException(
            "could not read DLQ partitions "
                + dlqPartitions
                + " to their end "
                + end
                + " within "
                + settings.readTimeout()
                + "; retry when Kafka is reachable");
      }
      for (ConsumerRecord<byte[], byte[]> record : reader.poll(Duration.ofMillis(200))) {
        QuarantinedRecords.Input input = inputOf(record);
        if (input != null && wanted.contains(input.topicPartition())) {
          Long committed = held.get(input.topicPartition());
          if (committed == null || input.offset() >= committed) {
            known.add(
                input, new TopicPartition(record.topic(), record.partition()), record.offset());
          }
        }
      }
    }
    end.forEach(known::seen);
    log.info(
        "Read DLQ {} from {}: {} input records of {} already quarantined and not yet committed",
        dlqTopics,
        start.map(Object::toString).orElse("the beginning"),
        known.size() - before,
        inputs);
  }

  /** Forgets revoked partitions. */
  public synchronized void close(Collection<TopicPartition> inputs) {
    known.drop(inputs);
  }

  /** Iceberg now holds {@code held}: inputs below them need no memory. */
  public synchronized void committed(Map<TopicPartition, Long> held) {
    known.committed(held);
  }

  @Override
  public synchronized void reject(
      String topic, int partition, long offset, RecordRejectedException rejection) {
    QuarantinedRecords.Input input = new QuarantinedRecords.Input(topic, partition, offset);
    if (known.contains(input) || inFlight.containsKey(input)) {
      log.debug("Record at {} is already in the DLQ ({})", input, rejection.code());
      return;
    }
    ConsumerRecord<byte[], byte[]> original = readBack(input);
    Integer schemaId = schemaId(original.value());
    Integer keySchemaId = schemaId(original.key());
    String message =
        rejection.getMessage()
            + " (topic "
            + topic
            + " partition "
            + partition
            + " offset "
            + offset
            + ", schema id "
            + schemaId
            + ")";
    Rejection why =
        new Rejection(
            rejection.code().name(),
            RecordRejectedException.class.getName(),
            message,
            schemaId,
            keySchemaId);
    DlqRecordBuilder.Original from =
        new DlqRecordBuilder.Original(
            topic,
            partition,
            offset,
            original.timestamp(),
            original.key(),
            original.value(),
            original.headers());
    String dlqTopic = settings.topics().of(topic);
    ProducerRecord<byte[], byte[]> dlqRecord =
        new ProducerRecord<>(
            dlqTopic,
            null,
            original.key(),
            builder.value(from, why, tableOf(topic)),
            builder.headers(from, why));
    inFlight.put(input, new Sent(dlqRecord, producer.send(dlqRecord)));
    metrics.quarantined(topic, rejection.code().name());
    log.warn(
        "Quarantining the record at {} to {}: {} column {} ({}), schema id {}, value sha256 {}",
        input,
        dlqTopic,
        rejection.code(),
        rejection.column(),
        rejection.icebergType(),
        schemaId,
        Sha256.hex(original.value()));
  }

  /** The table {@code topic}'s records go to, or null when it has none. */
  private String tableOf(String topic) {
    try {
      return settings.tableOf().apply(topic);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * Flushes the DLQ records sent so far and returns the {@link DlqOffsets} entries of the commit.
   *
   * @throws ConnectException when a DLQ record could not be written (the commit must not happen)
   */
  @Override
  public synchronized Map<String, String> beforeCommit() {
    boolean wroteRecords = !inFlight.isEmpty();
    if (wroteRecords) {
      producer.flush();
      List<QuarantinedRecords.Input> failed = new ArrayList<>();
      ExecutionException firstFailure = null;
      var sent = inFlight.entrySet().iterator();
      while (sent.hasNext()) {
        Map.Entry<QuarantinedRecords.Input, Sent> e = sent.next();
        try {
          RecordMetadata written = e.getValue().result().get();
          known.add(
              e.getKey(),
              new TopicPartition(written.topic(), written.partition()),
              written.offset());
          sent.remove();
        } catch (ExecutionException ex) {
          // Sent again now and awaited by the next commit attempt: a record rejected in put()
          // is not rejected a second time, so it must not be forgotten here.
          failed.add(e.getKey());
          firstFailure = firstFailure == null ? ex : firstFailure;
          e.setValue(new Sent(e.getValue().record(), producer.send(e.getValue().record())));
        } catch (InterruptedException ex) {
          Thread.currentThread().interrupt();
          throw new ConnectException("interrupted while writing DLQ records", ex);
        }
      }
      if (firstFailure != null) {
        throw new ConnectException(
            "could not write the DLQ records of " + failed + "; the Iceberg commit waits",
            firstFailure.getCause());
      }
    }
    settings.afterFlush().flushed(wroteRecords);
    return DlqOffsets.toSummary(settings.connector(), known.bounds());
  }

  @Override
  public synchronized void close() {
    try {
      producer.close(Duration.ofSeconds(10));
    } finally {
      reader.close(Duration.ofSeconds(10));
    }
  }

  private boolean readTo(Map<TopicPartition, Long> end) {
    for (Map.Entry<TopicPartition, Long> e : end.entrySet()) {
      if (reader.position(e.getKey(), settings.readTimeout()) < e.getValue()) {
        return false;
      }
    }
    return true;
  }

  /** The input record itself, from Kafka: its original key, value, headers and timestamp. */
  private ConsumerRecord<byte[], byte[]> readBack(QuarantinedRecords.Input input) {
    TopicPartition tp = input.topicPartition();
    reader.assign(List.of(tp));
    reader.seek(tp, input.offset());
    long deadline = System.nanoTime() + settings.readTimeout().toNanos();
    while (System.nanoTime() < deadline) {
      for (ConsumerRecord<byte[], byte[]> record : reader.poll(Duration.ofMillis(200))) {
        if (record.offset() == input.offset()) {
          return record;
        }
        if (record.offset() > input.offset()) {
          throw new ConnectException(
              "cannot quarantine the record at "
                  + input
                  + ": it is no longer in Kafka (compacted or deleted), so its original bytes"
                  + " cannot go to the DLQ");
        }
      }
    }
    throw new ConnectException(
        "could not read the record at "
            + input
            + " back from Kafka within "
            + settings.readTimeout()
            + " to quarantine it; retry when Kafka is reachable");
  }

  /** The input a DLQ record stands for, when this connector wrote it. */
  private QuarantinedRecords.Input inputOf(ConsumerRecord<byte[], byte[]> record) {
    String connector = header(record, DlqHeaders.CONNECT_CONNECTOR_NAME);
    if (!settings.connector().equals(connector)) {
      return null;
    }
    String topic = header(record, DlqHeaders.CONNECT_TOPIC);
    String partition = header(record, DlqHeaders.CONNECT_PARTITION);
    String offset = header(record, DlqHeaders.CONNECT_OFFSET);
    if (topic == null || partition == null || offset == null) {
      return null;
    }
    try {
      return new QuarantinedRecords.Input(
          topic, Integer.parseInt(partition), Long.parseLong(offset));
    } catch (NumberFormatException e) {
      log.warn(
          "DLQ record at {}-{} offset {} has unreadable {} headers; ignored",
          record.topic(),
          record.partition(),
          record.offset(),
          DlqHeaders.CONNECT_TOPIC);
      return null;
    }
  }

  private static String header(ConsumerRecord<byte[], byte[]> record, String key) {
    Header header = record.headers().lastHeader(key);
    return header == null || header.value() == null
        ? null
        : new String(header.value(), StandardCharsets.UTF_8);
  }

  private static Integer schemaId(byte[] bytes) {
    return bytes != null && WireFormat.hasHeader(bytes) ? WireFormat.schemaId(bytes) : null;
  }
}
