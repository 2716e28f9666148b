package io.sluice.bench.sink;

import io.sluice.bench.sink.SinkBenchResult.Stages;

/** Where the limit's one thread spends its time: nanoseconds per stage, summed. */
final class StageClock {
  /** The stages, in the order a record goes through them. */
  enum Stage {
    /** {@code KafkaConsumer.poll}. */
    READ,
    /** Confluent-wire bytes to Avro records (key and value). */
    DECODE,
    /** Avro records to Iceberg rows of the table. */
    CONVERT,
    /** A commit's events to one per key. */
    REDUCE,
    /** The batch's data and delete files (or the merged partitions) written. */
    WRITE,
    /** The key index caught up with the table, and told of the commit. */
    KEY_INDEX,
    /** The table refreshed and the batch committed as one snapshot. */
    COMMIT
  }

  private final long[] nanos = new long[Stage.values().length];

  void add(Stage stage, long durationNanos) {
    nanos[stage.ordinal()] += durationNanos;
  }

  /** The sums so far, to subtract later ({@link #since}). */
  long[] mark() {
    return nanos.clone();
  }

  /** The time of each stage since {@code mark}. */
  Stages since(long[] mark) {
    long[] ms = new long[nanos.length];
    for (int i = 0; i < nanos.length; i++) {
      ms[i] = (nanos[i] - mark[i]) / 1_000_000;
    }
    return new Stages(ms[0], ms[1], ms[2], ms[3], ms[4], ms[5], ms[6]);
  }
}
