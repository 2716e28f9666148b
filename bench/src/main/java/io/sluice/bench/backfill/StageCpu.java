package io.sluice.bench.backfill;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * CPU time of this JVM's threads since {@link #start}, by stage (the first stage whose thread
 * predicate takes a thread's name). Each sample keeps every thread's latest CPU time, so a thread
 * that ends still counts up to its last sample; what it spent after that is lost.
 */
final class StageCpu {
  private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

  private final Stage[] stages;
  private final Map<Long, Long> baseline = new HashMap<>();
  private final Map<Long, Long> latest = new HashMap<>();
  private final Map<Long, String> names = new HashMap<>();

  StageCpu(Stage[] stages) {
    this.stages = stages;
  }

  static boolean supported() {
    return THREADS.isThreadCpuTimeSupported() && THREADS.isThreadCpuTimeEnabled();
  }

  /** Takes the CPU time every live thread has spent so far as zero. */
  synchronized void start() {
    sample();
    baseline.putAll(latest);
  }

  synchronized void sample() {
    for (ThreadInfo info : THREADS.getThreadInfo(THREADS.getAllThreadIds())) {
      if (info == null) {
        continue;
      }
      long nanos = THREADS.getThreadCpuTime(info.getThreadId());
      if (nanos >= 0) {
        latest.put(info.getThreadId(), nanos);
        names.put(info.getThreadId(), info.getThreadName());
      }
    }
  }

  /** CPU nanoseconds of {@code stage}'s threads since {@link #start}. */
  synchronized long nanos(int stage) {
    long sum = 0;
    for (Map.Entry<Long, Long> e : latest.entrySet()) {
      if (stageOf(names.get(e.getKey())) == stage) {
        sum += e.getValue() - baseline.getOrDefault(e.getKey(), 0L);
      }
    }
    return sum;
  }

  /** The {@code limit} busiest threads no stage takes, as "name: seconds", busiest first. */
  synchronized List<String> unattributed(int limit) {
    List<Map.Entry<Long, Long>> spent = new ArrayList<>();
    for (Map.Entry<Long, Long> e : latest.entrySet()) {
      if (stageOf(names.get(e.getKey())) < 0) {
        spent.add(Map.entry(e.getKey(), e.getValue() - baseline.getOrDefault(e.getKey(), 0L)));
      }
    }
    spent.sort(Map.Entry.<Long, Long>comparingByValue(Comparator.reverseOrder()));
    return spent.stream()
        .limit(limit)
        .map(e -> String.format("%s: %.1f s", names.get(e.getKey()), e.getValue() / 1e9))
        .toList();
  }

  private int stageOf(String thread) {
    for (int i = 0; i < stages.length; i++) {
      if (stages[i].threads().test(thread)) {
        return i;
      }
    }
    return -1;
  }
}
