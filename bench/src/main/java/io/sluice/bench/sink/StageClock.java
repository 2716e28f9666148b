package io.sluice.bench.sink;

import io.sluice.bench.sink.SinkBenchResult.Stages;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Where the limit's one thread spends its CPU time: nanoseconds of the thread's CPU time per stage,
 * summed. CPU time, not the wall clock: on a shared machine the wall clock of one thread says more
 * about the load than about the path. The collector's threads are not counted.
 */
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

  private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
  private final long[] nanos = new long[Stage.values().length];

  StageClock() {
    if (!threads.isCurrentThreadCpuTimeSupported()) {
      throw new IllegalStateException(
          "this JVM does not measure a thread's CPU time, which the limit's stages are timed by");
    }
  }

  /** The calling thread's CPU time so far, in nanoseconds. */
  long now() {
    return threads.getCurrentThreadCpuTime();
  }

  void add(Stage stage, long cpuNanos) {
    nanos[stage.ordinal()] += cpuNanos;
  }

  /** The sums so far and the thread's CPU time, to subtract later ({@link #since}). */
  long[] mark() {
    long[] mark = new long[nanos.length + 1];
    System.arraycopy(nanos, 0, mark, 0, nanos.length);
    mark[nanos.length] = now();
    return mark;
  }

  /** The calling thread's CPU time since {@code mark}, in all and by stage. */
  Stages since(long[] mark) {
    long[] ms = new long[nanos.length];
    for (int i = 0; i < nanos.length; i++) {
      ms[i] = (nanos[i] - mark[i]) / 1_000_000;
    }
    long cpuMs = (now() - mark[nanos.length]) / 1_000_000;
    return new Stages(cpuMs, ms[0], ms[1], ms[2], ms[3], ms[4], ms[5], ms[6]);
  }
}
