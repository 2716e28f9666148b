package io.sluice.connect.upsert.sim;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.iceberg.catalog.TableIdentifier;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.connect.data.Schema;
import org.apache.kafka.connect.data.SchemaBuilder;
import org.apache.kafka.connect.data.Struct;
import org.apache.kafka.connect.sink.SinkRecord;

/**
 * The source of a simulated run: the clean topics' records (as Connect data and as the bytes the
 * quarantine reads back), and the table each topic's records must make at any offsets. A key lives
 * in one partition, so a table's state is a function of its partitions' offsets.
 */
final class SourceModel {
  /** What a record does to its key. */
  enum Kind {
    UPSERT,
    DELETE,
    TOMBSTONE,
    /** A row the table cannot take ({@code amount} as a string): the sink must quarantine it. */
    POISON
  }

  record Event(TopicPartition tp, long offset, long key, Kind kind, String v, long amount) {}

  private static final Schema NARROW_KEY =
      SchemaBuilder.struct().name("sim.Key").field("id", Schema.INT32_SCHEMA).build();
  private static final Schema WIDE_KEY =
      SchemaBuilder.struct().name("sim.Key").field("id", Schema.INT64_SCHEMA).build();
  private static final Schema NARROW_ROW = row(Schema.INT32_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA);
  private static final Schema WIDE_ROW = row(Schema.INT64_SCHEMA, Schema.OPTIONAL_INT64_SCHEMA);
  private static final Schema POISON_ROW = row(Schema.INT64_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA);
  private static final Schema NARROW_POISON_ROW =
      row(Schema.INT32_SCHEMA, Schema.OPTIONAL_STRING_SCHEMA);
  private static final Schema SOURCE =
      SchemaBuilder.struct().name("sim.Source").field("db", Schema.STRING_SCHEMA).build();

  private static final class Topic {
    final String name;
    int partitions;
    boolean wide;
    final int keysPerPartition;
    // Queue-like: every key new, deleted soon after ({@link #churn}); the next key per partition.
    boolean churn;
    final Map<Integer, Long> nextChurnKey = new HashMap<>();

    Topic(String name, int partitions, int keysPerPartition) {
      this.name = name;
      this.partitions = partitions;
      this.keysPerPartition = keysPerPartition;
    }
  }

  private final SimKafka kafka;
  private final Map<String, Topic> topics = new LinkedHashMap<>();
  private final Map<TopicPartition, List<Event>> events = new LinkedHashMap<>();
  private final Map<TopicPartition, List<SinkRecord>> records = new HashMap<>();
  // The source database: key -> v of every live row, per topic.
  private final Map<String, Map<Long, String>> live = new HashMap<>();
  // Keys whose events were produced on a partition other than their own, per topic.
  private final Map<String, java.util.Set<Long>> moved = new HashMap<>();

  SourceModel(SimKafka kafka) {
    this.kafka = kafka;
  }

  static String topicName(int n) {
    return "broker.sim.t" + n + ".clean";
  }

  static TableIdentifier tableOf(String topic) {
    return TableIdentifier.of("sim", topic.split("\\.")[2] + "_current");
  }

  /** A new topic (a table created at the source, picked up by the sinks' regex). */
  String addTopic(int partitions, int keysPerPartition) {
    String name = topicName(topics.size());
    topics.put(name, new Topic(name, partitions, keysPerPartition));
    kafka.topic(name, partitions);
    for (int p = 0; p < partitions; p++) {
      events.put(new TopicPartition(name, p), new ArrayList<>());
    }
    return name;
  }

  /** A topic whose keys are ever new and deleted soon after, as a queue or an outbox. */
  String addChurnTopic(int partitions) {
    String name = addTopic(partitions, 1);
    topics.get(name).churn = true;
    return name;
  }

  boolean churn(String topic) {
    return topics.get(topic).churn;
  }

  /**
   * {@code n} new keys on {@code tp}, each followed by the delete of the key {@code lag} keys older
   * than it: about {@code lag} keys live at any time, {@code n} more ever seen.
   */
  List<Event> churn(TopicPartition tp, int n, int lag) {
    Topic topic = topics.get(tp.topic());
    List<Event> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      long next = topic.nextChurnKey.merge(tp.partition(), 1L, Long::sum) - 1;
      long base = (tp.partition() + 1) * 1_000_000L + 100;
      out.add(append(tp, base + next, Kind.UPSERT, new Random(next)));
      if (next >= lag) {
        out.add(append(tp, base + next - lag, Kind.DELETE, new Random(next)));
      }
    }
    return out;
  }

  /**
   * One change of a key of another partition of {@code tp}'s topic, produced on {@code tp}: the key
   * moves (the topic gained partitions, its key changed), and the order of its events across the
   * two partitions is not defined. Null when the topic has one partition.
   */
  Event produceMoved(TopicPartition tp, Random random) {
    Topic topic = topics.get(tp.topic());
    if (topic.partitions < 2 || topic.churn) {
      return null;
    }
    int other = random.nextInt(topic.partitions - 1);
    if (other >= tp.partition()) {
      other++;
    }
    long key = other * 1_000L + random.nextInt(topic.keysPerPartition);
    moved.computeIfAbsent(tp.topic(), k -> new java.util.HashSet<>()).add(key);
    Map<Long, String> rows = live.computeIfAbsent(tp.topic(), k -> new HashMap<>());
    Kind kind = rows.containsKey(key) && random.nextInt(3) == 0 ? Kind.DELETE : Kind.UPSERT;
    return append(tp, key, kind, random);
  }

  /** The keys of {@code topic} that moved between partitions. */
  java.util.Set<Long> moved(String topic) {
    return moved.getOrDefault(topic, java.util.Set.of());
  }

  /**
   * The rows a moved key may end with: its state after the last event of each partition that had
   * events of it (null: absent), as each partition's events may be applied last.
   */
  java.util.Set<String> endStates(String topic, long key) {
    java.util.Set<String> out = new java.util.HashSet<>();
    events.forEach(
        (tp, log) -> {
          if (!tp.topic().equals(topic)) {
            return;
          }
          boolean touched = false;
          String state = null;
          for (Event e : log) {
            if (e.key() != key) {
              continue;
            }
            if (e.kind() == Kind.UPSERT) {
              state = e.v() + "/" + e.amount();
              touched = true;
            } else if (e.kind() == Kind.DELETE) {
              state = null;
              touched = true;
            }
          }
          if (touched) {
            out.add(state);
          }
        });
    return out;
  }

  /** An upsert of {@code key} on {@code tp}, its own partition. */
  Event produceUpsert(TopicPartition tp, long key, Random random) {
    return append(tp, key, Kind.UPSERT, random);
  }

  /** Whether {@code key} has an upsert or a delete on {@code tp} in [{@code from}, {@code to}). */
  boolean touched(TopicPartition tp, long key, long from, long to) {
    for (Event e : events(tp)) {
      if (e.offset() >= to) {
        break;
      }
      if (e.offset() >= from
          && e.key() == key
          && (e.kind() == Kind.UPSERT || e.kind() == Kind.DELETE)) {
        return true;
      }
    }
    return false;
  }

  /** One more partition of {@code topic}; new keys only (existing keys keep their partition). */
  TopicPartition addPartition(String topic) {
    Topic t = topics.get(topic);
    TopicPartition tp = new TopicPartition(topic, t.partitions++);
    kafka.topic(topic, t.partitions);
    events.put(tp, new ArrayList<>());
    return tp;
  }

  /** From now on the topic's key column is BIGINT (INT -> BIGINT at the source). */
  void widen(String topic) {
    topics.get(topic).wide = true;
  }

  boolean wide(String topic) {
    return topics.get(topic).wide;
  }

  List<String> topics() {
    return List.copyOf(topics.keySet());
  }

  List<TopicPartition> partitions() {
    return List.copyOf(events.keySet());
  }

  /** Appends one change of a random key of {@code tp}. */
  Event produce(TopicPartition tp, Random random, boolean poisonAllowed) {
    Topic topic = topics.get(tp.topic());
    long key = tp.partition() * 1_000L + random.nextInt(topic.keysPerPartition);
    Map<Long, String> rows = live.computeIfAbsent(tp.topic(), k -> new HashMap<>());
    Kind kind;
    if (poisonAllowed && random.nextInt(100) < 4) {
      kind = Kind.POISON;
    } else if (!rows.containsKey(key)) {
      kind = random.nextInt(10) == 0 ? Kind.DELETE : Kind.UPSERT;
    } else {
      int r = random.nextInt(10);
      kind = r < 6 ? Kind.UPSERT : r < 9 ? Kind.DELETE : Kind.TOMBSTONE;
    }
    return append(tp, key, kind, random);
  }

  private Event append(TopicPartition tp, long key, Kind kind, Random random) {
    Topic topic = topics.get(tp.topic());
    Map<Long, String> rows = live.computeIfAbsent(tp.topic(), k -> new HashMap<>());
    List<Event> log = events.get(tp);
    long offset = log.size();
    String v = "v" + tp.partition() + "." + offset;
    long amount = random.nextInt(1_000);
    Event event = new Event(tp, offset, key, kind, v, amount);
    if (kind == Kind.UPSERT) {
      rows.put(key, v);
    } else if (kind == Kind.DELETE) {
      rows.remove(key);
    }
    log.add(event);
    SinkRecord record = record(event, topic.wide);
    records.computeIfAbsent(tp, k -> new ArrayList<>()).add(record);
    long appended =
        kafka.append(
            tp,
            ("key-" + key).getBytes(StandardCharsets.UTF_8),
            kind == Kind.TOMBSTONE ? null : ("value-" + v).getBytes(StandardCharsets.UTF_8),
            null);
    if (appended != offset) {
      throw new IllegalStateException("model and log disagree at " + tp + " offset " + offset);
    }
    return event;
  }

  long end(TopicPartition tp) {
    return events.getOrDefault(tp, List.of()).size();
  }

  SinkRecord record(TopicPartition tp, long offset) {
    return records.get(tp).get((int) offset);
  }

  List<Event> events(TopicPartition tp) {
    return events.getOrDefault(tp, List.of());
  }

  /**
   * The rows {@code topic}'s table must hold when it holds {@code offsets}: key -> "v/amount".
   * Partitions without an offset contribute nothing.
   */
  Map<Long, String> state(String topic, Map<TopicPartition, Long> offsets) {
    return state(topic, List.of(offsets));
  }

  /**
   * The rows {@code topic}'s table must hold when connectors of successive names wrote it, each up
   * to its offsets ({@code layers}, oldest first; a renamed connector replays the log from its
   * start): each key as the newest connector that wrote it left it.
   */
  Map<Long, String> state(String topic, List<Map<TopicPartition, Long>> layers) {
    Map<Long, String> rows = new TreeMap<>();
    events.forEach(
        (tp, log) -> {
          if (!tp.topic().equals(topic)) {
            return;
          }
          java.util.Set<Long> decided = new java.util.HashSet<>();
          for (int layer = layers.size() - 1; layer >= 0; layer--) {
            long to = layers.get(layer).getOrDefault(tp, 0L);
            Map<Long, String> at = new HashMap<>();
            java.util.Set<Long> touched = new java.util.HashSet<>();
            for (Event e : log) {
              if (e.offset() >= to) {
                break;
              }
              if (e.kind() == Kind.UPSERT) {
                at.put(e.key(), e.v() + "/" + e.amount());
                touched.add(e.key());
              } else if (e.kind() == Kind.DELETE) {
                at.remove(e.key());
                touched.add(e.key());
              }
            }
            for (Long key : touched) {
              if (decided.add(key)) {
                if (at.containsKey(key)) {
                  rows.put(key, at.get(key));
                } else {
                  rows.remove(key);
                }
              }
            }
          }
        });
    return rows;
  }

  private static SinkRecord record(Event e, boolean wide) {
    Schema keySchema = wide ? WIDE_KEY : NARROW_KEY;
    Object id = wide ? (Object) e.key() : (Object) (int) e.key();
    Struct key = new Struct(keySchema).put("id", id);
    if (e.kind() == Kind.TOMBSTONE) {
      return new SinkRecord(
          e.tp().topic(), e.tp().partition(), keySchema, key, null, null, e.offset());
    }
    Schema rowSchema =
        e.kind() == Kind.POISON
            ? (wide ? POISON_ROW : NARROW_POISON_ROW)
            : (wide ? WIDE_ROW : NARROW_ROW);
    Struct row =
        new Struct(rowSchema)
            .put("id", id)
            .put("v", e.v())
            .put("amount", e.kind() == Kind.POISON ? "not a number" : (Object) e.amount());
    Schema envelope = envelope(rowSchema);
    Struct value =
        new Struct(envelope)
            .put("before", e.kind() == Kind.DELETE ? row : null)
            .put("after", e.kind() == Kind.DELETE ? null : row)
            .put("source", new Struct(SOURCE).put("db", "sim"))
            .put("op", e.kind() == Kind.DELETE ? "d" : "u")
            .put("ts_ms", 1_700_000_000_000L + e.offset());
    return new SinkRecord(
        e.tp().topic(), e.tp().partition(), keySchema, key, envelope, value, e.offset());
  }

  private static Schema row(Schema id, Schema amount) {
    return SchemaBuilder.struct()
        .name("sim.Value")
        .optional()
        .field("id", id)
        .field("v", Schema.OPTIONAL_STRING_SCHEMA)
        .field("amount", amount)
        .build();
  }

  private static final Map<Schema, Schema> ENVELOPES =
      new java.util.concurrent.ConcurrentHashMap<>();

  private static Schema envelope(Schema row) {
    return ENVELOPES.computeIfAbsent(
        row,
        r ->
            SchemaBuilder.struct()
                .name("sim.Envelope")
                .field("before", r)
                .field("after", r)
                .field("source", SOURCE)
                .field("op", Schema.STRING_SCHEMA)
                .field("ts_ms", Schema.OPTIONAL_INT64_SCHEMA)
                .build());
  }
}
