package io.sluice.spark;

import static io.sluice.connect.testing.Envelopes.change;
import static io.sluice.connect.testing.Envelopes.key;
import static io.sluice.connect.testing.Envelopes.row;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The source of the {@code orders} change events a test feeds the sink, and its model: the row each
 * live key has after every event so far, and the next offset of each partition. Even keys are on
 * partition 0, odd ones on 1, as a key-partitioned topic keeps one key's events in order.
 */
final class OrdersSource {
  static final String TOPIC = "broker.cdc_lab.orders.clean";
  static final TopicPartition P0 = new TopicPartition(TOPIC, 0);
  static final TopicPartition P1 = new TopicPartition(TOPIC, 1);

  private final int keys;
  private final Random random;
  private final Map<Integer, String> rows = new TreeMap<>();
  private final Map<TopicPartition, Long> next = new HashMap<>(Map.of(P0, 0L, P1, 0L));

  OrdersSource(int keys, long seed) {
    this.keys = keys;
    this.random = new Random(seed);
  }

  /** {@code customer} by {@code id} of every live key. */
  Map<Integer, String> rows() {
    return rows;
  }

  /** The next offset of each partition: what a table holding every event records. */
  Map<TopicPartition, Long> next() {
    return next;
  }

  /** Every key created once. */
  List<SinkRecord> inserts() {
    List<SinkRecord> records = new ArrayList<>();
    for (int id = 0; id < keys; id++) {
      records.add(upsert(id));
    }
    return records;
  }

  /** {@code count} random updates and deletes (3 in 10 of live keys), deleted keys re-created. */
  List<SinkRecord> changes(int count) {
    List<SinkRecord> records = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int id = random.nextInt(keys);
      records.add(rows.containsKey(id) && random.nextInt(10) < 3 ? delete(id) : upsert(id));
    }
    return records;
  }

  private SinkRecord upsert(int id) {
    TopicPartition tp = partitionOf(id);
    long offset = next.merge(tp, 1L, Long::sum) - 1;
    String customer = "c" + id + "-" + offset;
    Struct value = change(rows.containsKey(id) ? "u" : "c", null, row(id, customer));
    rows.put(id, customer);
    return record(tp, offset, id, value);
  }

  private SinkRecord delete(int id) {
    TopicPartition tp = partitionOf(id);
    long offset = next.merge(tp, 1L, Long::sum) - 1;
    rows.remove(id);
    return record(tp, offset, id, change("d", row(id, "gone"), null));
  }

  private static TopicPartition partitionOf(int id) {
    return id % 2 == 0 ? P0 : P1;
  }

  private static SinkRecord record(TopicPartition tp, long offset, int id, Struct value) {
    return new SinkRecord(
        TOPIC, tp.partition(), key(id).schema(), key(id), value.schema(), value, offset);
  }
}
