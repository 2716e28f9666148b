package io.sluice.bench.sink;

import io.sluice.bench.sink.SinkBenchResult.Stages;
import io.sluice.bench.sink.StageClock.Stage;
import io.sluice.connect.upsert.config.UpsertSinkConfig;
import io.sluice.connect.upsert.table.TableResolver;
import io.sluice.schema.registry.SchemaRegistryClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.avro.generic.GenericRecord;
import org.apache.iceberg.Schema;
import org.apache.iceberg.Table;
import org.apache.iceberg.catalog.Catalog;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The limit of {@code sluice bench sink}: the upsert sink's work on the same records, in one thread
 * with no Kafka Connect. A plain {@link KafkaConsumer} of bytes (read committed, as the sink's)
 * reads ranges of the topic; each record's Confluent-wire key and value are decoded with one cached
 * Avro reader per schema id ({@link WireAvroReader}) and turned into rows of the table ({@link
 * EnvelopeRows}); every commit interval the changes are applied to a table of its own with the
 * sink's writers and commit ({@link DirectUpsert}). As in the sink, a commit is due an interval
 * after the last one started, but at least half an interval after it ended; unlike the sink, the
 * last commit of a range does not wait for the interval: the range's end is known.
 *
 * <p>The table is created with the sink's own table settings and code ({@link TableResolver}) in
 * the schema given, so it matches the sink's table when given that table's schema.
 */
final class SinkLimit implements AutoCloseable {
  private static final Duration POLL = Duration.ofMillis(100);

  /**
   * One range read and committed.
   *
   * @param records records in the range
   * @param elapsedNanos from the first poll to the end of the commit that covered the last record
   * @param stages the CPU time of the limit's thread in that time, by stage
   * @param commits snapshots committed
   */
  record Pass(long records, long elapsedNanos, int commits, Stages stages) {}

  private final String topic;
  private final long commitIntervalNanos;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final WireAvroReader reader;
  private final EnvelopeRows rows;
  private final DirectUpsert upsert;
  private final StageClock clock = new StageClock();

  /**
   * Creates the table {@code id} (with the sink's table settings, in {@code schema}) unless it
   * exists, and a consumer of {@code topic}.
   *
   * @param sinkConfig the upsert sink's connector configuration: commit interval, table settings,
   *     the writers' settings, and the name under which the offsets go in snapshot summaries
   */
  SinkLimit(
      String bootstrapServers,
      String topic,
      SchemaRegistryClient registry,
      Catalog catalog,
      TableIdentifier id,
      Schema schema,
      Map<String, String> sinkConfig) {
    UpsertSinkConfig config = new UpsertSinkConfig(sinkConfig);
    Table table =
        new TableResolver(
                catalog,
                new TableResolver.Settings(
                    config.tableAutoCreate(),
                    config.tableEvolveSchema(),
                    config.tableFormatVersion(),
                    config.tablePartitionBy()))
            .prepare(id, schema);
    this.topic = topic;
    this.commitIntervalNanos = config.commitIntervalMs() * 1_000_000;
    this.reader = new WireAvroReader(registry);
    this.rows = new EnvelopeRows(table.schema());
    this.upsert = new DirectUpsert(id, table, rows.keySchema(), config, clock);
    this.consumer =
        new KafkaConsumer<>(
            Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG,
                "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false),
            new ByteArrayDeserializer(),
            new ByteArrayDeserializer());
  }

  /** Snapshots committed so far, by the sink's commit modes. */
  Map<String, Long> commitModes() {
    return upsert.commitModes();
  }

  /**
   * Reads every record from {@code starts} (inclusive; absent: 0) to {@code ends} (exclusive) of
   * each partition of {@code ends}, and commits them all.
   */
  Pass apply(Map<Integer, Long> starts, Map<Integer, Long> ends) {
    List<TopicPartition> partitions = new ArrayList<>();
    Set<TopicPartition> open = new HashSet<>();
    long[] endOf =
        new long[ends.keySet().stream().mapToInt(Integer::intValue).max().orElse(-1) + 1];
    TopicPartition[] byNumber = new TopicPartition[endOf.length];
    long records = 0;
    for (Map.Entry<Integer, Long> end : ends.entrySet()) {
      TopicPartition tp = new TopicPartition(topic, end.getKey());
      long start = starts.getOrDefault(end.getKey(), 0L);
      partitions.add(tp);
      byNumber[tp.partition()] = tp;
      endOf[tp.partition()] = end.getValue();
      if (start < end.getValue()) {
        open.add(tp);
        records += end.getValue() - start;
      }
    }
    consumer.assign(partitions);
    partitions.forEach(tp -> consumer.seek(tp, starts.getOrDefault(tp.partition(), 0L)));
    consumer.resume(partitions);
    consumer.pause(partitions.stream().filter(tp -> !open.contains(tp)).toList());
    long[] mark = clock.mark();
    int commits = 0;
    long started = System.nanoTime();
    long lastCommit = started;
    while (!open.isEmpty()) {
      long polling = clock.now();
      ConsumerRecords<byte[], byte[]> polled = consumer.poll(POLL);
      long decoding = clock.now();
      clock.add(Stage.READ, decoding - polling);
      // Decoded all at once, then converted: two stages timed with a few clock reads a poll.
      List<ConsumerRecord<byte[], byte[]>> taken = new ArrayList<>(polled.count());
      List<GenericRecord[]> decoded = new ArrayList<>(polled.count());
      for (ConsumerRecord<byte[], byte[]> record : polled) {
        int partition = record.partition();
        long offset = record.offset();
        if (partition >= endOf.length || offset >= endOf[partition]) {
          continue;
        }
        taken.add(record);
        decoded.add(decode(record));
        if (offset + 1 >= endOf[partition]) {
          open.remove(byNumber[partition]);
          consumer.pause(List.of(byNumber[partition]));
        }
      }
      long converting = clock.now();
      clock.add(Stage.DECODE, converting - decoding);
      for (int i = 0; i < taken.size(); i++) {
        ConsumerRecord<byte[], byte[]> record = taken.get(i);
        upsert.add(byNumber[record.partition()], record.offset(), change(record, decoded.get(i)));
      }
      clock.add(Stage.CONVERT, clock.now() - converting);
      long now = System.nanoTime();
      if (now - lastCommit >= commitIntervalNanos && upsert.hasPending()) {
        upsert.commit();
        commits++;
        lastCommit = Math.max(now, System.nanoTime() - commitIntervalNanos / 2);
      }
    }
    if (upsert.hasPending()) {
      upsert.commit();
      commits++;
    }
    long elapsed = System.nanoTime() - started;
    return new Pass(records, elapsed, commits, clock.since(mark));
  }

  /** The record's key and value as Avro records (the value null for a tombstone). */
  private GenericRecord[] decode(ConsumerRecord<byte[], byte[]> record) {
    if (record.key() == null) {
      throw new IllegalStateException(
          where(record) + " has no key: the limit takes keyed change events only");
    }
    GenericRecord key = reader.read(record.key(), record.partition(), record.offset());
    GenericRecord value =
        record.value() == null
            ? null
            : reader.read(record.value(), record.partition(), record.offset());
    return new GenericRecord[] {key, value};
  }

  private EnvelopeRows.Change change(
      ConsumerRecord<byte[], byte[]> record, GenericRecord[] keyAndValue) {
    try {
      return rows.change(keyAndValue[0], keyAndValue[1]);
    } catch (RuntimeException e) {
      throw new IllegalStateException(where(record) + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void close() {
    consumer.close(Duration.ofSeconds(5));
    upsert.release();
  }

  /** {@code the record at <topic>-<partition> offset <offset>}, for error messages. */
  private static String where(ConsumerRecord<byte[], byte[]> record) {
    return "the record at "
        + record.topic()
        + "-"
        + record.partition()
        + " offset "
        + record.offset();
  }
}
